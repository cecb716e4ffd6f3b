{% macro tables_of_format(source_format) %}
    {#- Names of the configured tables that arrive in `source_format`, sorted. -#}
    {%- set names = [] -%}
    {%- for name, table in var('cdcflow_tables', {}).items() if table.get('format') == source_format -%}
        {%- do names.append(name) -%}
    {%- endfor -%}
    {{ return(names | sort) }}
{% endmacro %}
