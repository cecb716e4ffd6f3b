{% macro table_properties(relation) %}
    {#- The table properties of `relation` (SHOW TBLPROPERTIES), name -> value;
        empty when there is no relation. One statement for all of them: a
        materialization that needs several reads them once. -#}
    {%- set properties = {} -%}
    {%- if relation is none -%}{{ return(properties) }}{%- endif -%}
    {%- for row in run_query('show tblproperties ' ~ relation) -%}
        {%- do properties.update({row[0]: row[1]}) -%}
    {%- endfor -%}
    {{ return(properties) }}
{% endmacro %}
