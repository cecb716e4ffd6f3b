{% macro qlik_kafka_names_table(schema_name, table_name, cfg) %}
    {#- Boolean: the SQL expressions `schema_name`, `table_name` (a message's
        schema/table, or a metadata message's lineage) name the configured table:
        its `source_table` (case-insensitive) and, when set, its `source_schema`. -#}
    lower({{ table_name }}) = lower('{{ cfg.source_table }}')
    {%- if cfg.source_schema %}
    and lower({{ schema_name }}) = lower('{{ cfg.source_schema }}')
    {%- endif %}
{%- endmacro %}
