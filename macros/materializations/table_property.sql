{% macro table_property(relation, name) %}
    {#- The value of table property `name` of `relation` (SHOW TBLPROPERTIES), or
        none when it has no such property or there is no relation. -#}
    {%- if relation is none -%}{{ return(none) }}{%- endif -%}
    {%- for row in run_query('show tblproperties ' ~ relation) if row[0] == name -%}
        {{ return(row[1]) }}
    {%- endfor -%}
    {{ return(none) }}
{% endmacro %}
