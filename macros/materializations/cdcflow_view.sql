{% materialization cdcflow_view, adapter='spark' %}
    {#- dbt-spark's view materialization, except when the view's CDC groups have
        nothing new in this run (has_nothing_new) and the view stored is this
        very query (stored_view_text): then it is left as it is. -#}
    {%- if cdcflow.has_nothing_new() and cdcflow.stored_view_text(this) | trim == sql | trim -%}
        {{ return(cdcflow.left_as_it_is()) }}
    {%- endif -%}
    {{ return(dbt.materialization_view_spark()) }}
{% endmaterialization %}
