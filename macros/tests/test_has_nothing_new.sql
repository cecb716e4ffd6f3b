{% macro test_has_nothing_new() %}
    {#- Whether the data test being run tests only models whose CDC groups have
        nothing new in this `dbt build` (groups_with_nothing_new): models this
        run left as they were. Never under --full-refresh, in `dbt test`, or
        with var cdcflow_test_unchanged_models: true (test everything). -#}
    {%- if not execute or model is not defined or model.resource_type != 'test'
        or invocation_args_dict.get('which') not in ['build', 'retry'] or flags.FULL_REFRESH
        or var('cdcflow_test_unchanged_models', false) -%}
        {{ return(false) }}
    {%- endif -%}
    {%- set groups = [] -%}
    {%- for unique_id in model.depends_on.nodes -%}
        {%- set node = graph.nodes.get(unique_id) -%}
        {%- if node is none or node.resource_type != 'model' -%}{{ return(false) }}{%- endif -%}
        {%- set meta = node.config.meta or {} -%}
        {%- if meta.get('cdcflow_table') -%}
            {%- do groups.append(meta.cdcflow_table) -%}
        {%- elif meta.get('cdcflow_format') -%}
            {%- do groups.extend(cdcflow.tables_of_format(meta.cdcflow_format)) -%}
        {%- else -%}
            {{ return(false) }}
        {%- endif -%}
    {%- endfor -%}
    {%- if not groups -%}{{ return(false) }}{%- endif -%}
    {%- set idle = cdcflow.groups_with_nothing_new() -%}
    {%- for group in groups if group not in idle -%}
        {{ return(false) }}
    {%- endfor -%}
    {{ return(true) }}
{% endmacro %}
