{% macro dirxml_tables(model_name) %}
    {#- The configured tables of format dirxml; a model over all of them needs one. -#}
    {%- set tables = cdcflow.tables_of_format('dirxml') -%}
    {%- if tables | length == 0 -%}
        {{ exceptions.raise_compiler_error(
            "cdcflow: " ~ model_name ~ " needs at least one table with format dirxml in vars.cdcflow_tables."
        ) }}
    {%- endif -%}
    {{ return(tables) }}
{% endmacro %}
