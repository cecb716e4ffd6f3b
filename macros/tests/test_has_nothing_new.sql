{% macro test_has_nothing_new() %}
    {#- Whether the data test being run tests only models whose CDC groups have
        nothing new in this `dbt build` (serve_groups_with_nothing_new): models
        this run left as they were. A view that serves no group (e.g.
        qlik_ct_quarantine_resolved) holds no rows of its own: it is as it was
        when every model it reads is. Never under --full-refresh, in `dbt test`,
        or with var cdcflow_test_unchanged_models: true (test everything). -#}
    {%- if not execute or model is not defined or model.resource_type != 'test'
        or invocation_args_dict.get('which') not in ['build', 'retry'] or flags.FULL_REFRESH
        or var('cdcflow_test_unchanged_models', false) -%}
        {{ return(false) }}
    {%- endif -%}
    {%- set tested = [] -%}
    {%- set to_visit = model.depends_on.nodes | list -%}
    {%- set visited = [] -%}
    {#- breadth first over the tested models, a view without a group replaced by
        the models it reads (a loop over a growing list: Jinja has no while) -#}
    {%- for unique_id in to_visit if unique_id not in visited -%}
        {%- do visited.append(unique_id) -%}
        {%- set node = graph.nodes.get(unique_id) -%}
        {%- if node is none or node.resource_type != 'model' -%}{{ return(false) }}{%- endif -%}
        {%- set meta = node.config.meta or {} -%}
        {%- if node.config.materialized == 'view' and not meta.get('cdcflow_table') and not meta.get('cdcflow_format') -%}
            {%- if not node.depends_on.nodes -%}{{ return(false) }}{%- endif -%}
            {%- do to_visit.extend(node.depends_on.nodes) -%}
        {%- else -%}
            {%- do tested.append(node) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(cdcflow.serve_groups_with_nothing_new(tested)) }}
{% endmacro %}
