{% macro values_table(rows, alias, columns) %}
    {#- An inline table of literal rows, for `from`: `values (...), ... as
        alias(columns)`. `rows` are lists of SQL literals, one per column. -#}
    {%- if not rows -%}
        {{ exceptions.raise_compiler_error("cdcflow.values_table needs at least one row.") }}
    {%- endif -%}
    values
    {%- for row in rows %}
        ({{ row | join(', ') }}){{ ',' if not loop.last }}
    {%- endfor %}
        as {{ alias }}({{ columns | join(', ') }})
{%- endmacro %}
