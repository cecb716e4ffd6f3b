{% materialization cdcflow_incremental, adapter='spark' %}
    {#- dbt-spark's incremental materialization, except when the model's CDC
        groups have nothing new in this run (has_nothing_new): then it writes
        nothing. Its pre-hooks still run (follow_configured_columns: a metadata
        check that stops a change log whose configuration dropped a stored
        column); it runs no statement of its own (left_as_it_is). -#}
    {%- if cdcflow.has_nothing_new() -%}
        {{ run_hooks(pre_hooks) }}
        {{ return(cdcflow.left_as_it_is()) }}
    {%- endif -%}
    {{ return(dbt.materialization_incremental_spark()) }}
{% endmaterialization %}
