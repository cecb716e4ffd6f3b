{% macro nothing_new_query() %}
    {#- What a model macro renders when its model has nothing new (has_nothing_new):
        a constant its materialization never runs (cdcflow_incremental, cdcflow_view). -#}
    {{ return("select 'nothing new' as cdcflow_run") }}
{% endmacro %}
