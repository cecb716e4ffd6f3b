{% macro sql_string(value) %}
    {#- `value` as a Spark SQL string literal (null for none). -#}
    {%- if value is none -%}
        {{ return('null') }}
    {%- endif -%}
    {{ return("'" ~ (value | string).replace('\\', '\\\\').replace("'", "\\'") ~ "'") }}
{% endmacro %}
