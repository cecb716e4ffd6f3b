{% macro string_array(values) %}
    {#- A Spark SQL array<string> literal. -#}
    {%- if values | length == 0 -%}
        cast(array() as array<string>)
    {%- else -%}
        array({%- for value in values -%}'{{ value }}'{{ ', ' if not loop.last }}{%- endfor -%})
    {%- endif -%}
{% endmacro %}
