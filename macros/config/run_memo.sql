{% macro run_memo() %}
    {#- A dict the nodes of the running dbt invocation share (kept in dbt's flat
        graph, one per invocation, like the nothing-new note): what a node learns
        that cannot change before the run ends is kept there for the others.
        Empty outside the nodes (parse time, the hooks, which write the state). -#}
    {%- if not execute or model is not defined or model.resource_type not in ['model', 'test'] -%}
        {{ return({}) }}
    {%- endif -%}
    {%- set memo = graph.get('cdcflow_run_memo') -%}
    {%- if memo is none or memo.get('invocation_id') != invocation_id -%}
        {%- set memo = {'invocation_id': invocation_id} -%}
        {%- do graph.update({'cdcflow_run_memo': memo}) -%}
    {%- endif -%}
    {{ return(memo) }}
{% endmacro %}
