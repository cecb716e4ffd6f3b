{% macro test_has_nothing_new() %}
    {#- Whether the data test being run tests only models whose CDC groups have
        nothing new in this `dbt build` (serve_groups_with_nothing_new): models
        this run left as they were. Never under --full-refresh, in `dbt test`,
        or with var cdcflow_test_unchanged_models: true (test everything). -#}
    {%- if not execute or model is not defined or model.resource_type != 'test'
        or invocation_args_dict.get('which') not in ['build', 'retry'] or flags.FULL_REFRESH
        or var('cdcflow_test_unchanged_models', false) -%}
        {{ return(false) }}
    {%- endif -%}
    {%- set tested = [] -%}
    {%- for unique_id in model.depends_on.nodes -%}
        {%- set node = graph.nodes.get(unique_id) -%}
        {%- if node is none or node.resource_type != 'model' -%}{{ return(false) }}{%- endif -%}
        {%- do tested.append(node) -%}
    {%- endfor -%}
    {{ return(cdcflow.serve_groups_with_nothing_new(tested)) }}
{% endmacro %}
