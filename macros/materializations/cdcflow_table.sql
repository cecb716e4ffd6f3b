{% materialization cdcflow_table, adapter='spark' %}
    {#- dbt-spark's table materialization, except when the model's CDC groups
        have nothing new in this run (has_nothing_new): the table, written by an
        earlier run for the same range, is left as it is. -#}
    {%- if cdcflow.has_nothing_new() -%}
        {{ return(cdcflow.left_as_it_is()) }}
    {%- endif -%}
    {{ return(dbt.materialization_table_spark()) }}
{% endmaterialization %}
