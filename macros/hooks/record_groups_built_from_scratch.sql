{% macro record_groups_built_from_scratch(groups) %}
    {#- on-run-start, once the ranges are taken and repaired: the CDC groups of
        `groups` this run builds a model of from scratch (group_built_from_scratch,
        asked now), noted in the run's graph (dbt's flat graph, one dict per
        invocation) for the run's nodes: their staging and parsed landings then
        read every landed row, and the group is never one with nothing new
        (record_groups_with_nothing_new), so that a change log dropped between two
        runs is built again whole even when nothing has landed since. Returns
        their names. -#}
    {%- set from_scratch = [] -%}
    {%- for table_name in groups if cdcflow.group_built_from_scratch(table_name) -%}
        {%- do from_scratch.append(table_name) -%}
    {%- endfor -%}
    {%- do graph.update({'cdcflow_built_from_scratch': {
        'invocation_id': invocation_id, 'checked': groups | list, 'groups': from_scratch}}) -%}
    {{ return(from_scratch) }}
{% endmacro %}
