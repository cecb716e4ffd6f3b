{% macro stored_in_table_format(relation) %}
    {#- Whether `relation` (from dbt's relation cache, or none) is a table of the
        model's file_format (delta or iceberg): a MERGE can write into it. Not
        when it is a view, or a table of another format (a project that changed
        vars.cdcflow_table_format: the model then builds it again, from scratch).
        The cache knows a Delta table by its Provider; an Iceberg table of the
        session catalog shows none there, so its Provider is asked for. -#}
    {%- if relation is none or relation.type != 'table' -%}{{ return(false) }}{%- endif -%}
    {%- set file_format = config.get('file_format') -%}
    {%- if (file_format == 'delta' and relation.is_delta) or (file_format == 'iceberg' and relation.is_iceberg) -%}
        {{ return(true) }}
    {%- endif -%}
    {%- if file_format not in ['delta', 'iceberg'] or not execute -%}{{ return(false) }}{%- endif -%}
    {%- for row in run_query('describe table extended ' ~ relation) if row[0] == 'Provider' -%}
        {{ return(row[1] | lower == file_format) }}
    {%- endfor -%}
    {{ return(false) }}
{% endmacro %}
