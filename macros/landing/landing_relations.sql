{% macro landing_relations(source_format, tables=none) %}
    {#- The distinct raw landing tables (source relations) of the configured
        tables of `source_format` (or of those of `tables`), as {'name': raw
        table, 'relation': source()}. -#}
    {%- set seen = [] -%}
    {%- set relations = [] -%}
    {%- for table_name in (tables if tables is not none else cdcflow.tables_of_format(source_format)) -%}
        {%- set cfg = cdcflow.table_config(table_name, source_format) -%}
        {%- if (cfg.source, cfg.raw_table) not in seen -%}
            {%- do seen.append((cfg.source, cfg.raw_table)) -%}
            {%- do relations.append({'name': cfg.raw_table, 'relation': source(cfg.source, cfg.raw_table)}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(relations) }}
{% endmacro %}
