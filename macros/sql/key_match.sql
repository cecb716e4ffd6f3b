{% macro key_match(left, right, columns) %}
    {#- Null-safe equality of `columns` between two aliases, for join conditions. -#}
    {%- if not columns -%}
        {{ exceptions.raise_compiler_error("cdcflow.key_match needs at least one column.") }}
    {%- endif -%}
    {%- for column in columns -%}
        {{ left }}.{{ column }} <=> {{ right }}.{{ column }}{{ ' and ' if not loop.last }}
    {%- endfor -%}
{% endmacro %}
