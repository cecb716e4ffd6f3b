{% macro test_has_nothing_new() %}
    {#- Whether the data test being run tests only models whose CDC groups have
        nothing new in this `dbt build` (reads_only_unchanged_models): models
        this run left as they were. Never under --full-refresh, in `dbt test`,
        or with var cdcflow_test_unchanged_models: true (test everything). -#}
    {%- if not execute or model is not defined or model.resource_type != 'test'
        or invocation_args_dict.get('which') not in ['build', 'retry'] or flags.FULL_REFRESH
        or var('cdcflow_test_unchanged_models', false) -%}
        {{ return(false) }}
    {%- endif -%}
    {{ return(cdcflow.reads_only_unchanged_models(model.depends_on.nodes)) }}
{% endmacro %}
