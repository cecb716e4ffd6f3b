{% materialization cdcflow_incremental, adapter='spark' %}
    {#- dbt-spark's incremental materialization, except when the model's CDC
        groups have nothing new in this run (has_nothing_new): then it writes
        nothing, and its only statement is a constant. -#}
    {%- if cdcflow.has_nothing_new() -%}
        {%- call statement('main') -%} {{ cdcflow.nothing_new_query() }} {%- endcall -%}
        {{ return({'relations': [this]}) }}
    {%- endif -%}
    {{ return(dbt.materialization_incremental_spark()) }}
{% endmaterialization %}
