{% macro union_all(relations) %}
    {#- `select * from` each of `relations` (CTE or table names, same columns in the
        same order), joined with union all: the body of a CTE gathering them. -#}
    {%- if not relations -%}
        {{ exceptions.raise_compiler_error("cdcflow.union_all needs at least one relation.") }}
    {%- endif -%}
    {%- for relation in relations %}

    select * from {{ relation }}
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}
{%- endmacro %}
