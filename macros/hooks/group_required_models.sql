{% macro group_required_models(table_name) %}
    {#- The models a CDC group's change log reads from this run only: those of
        cdc_group_models marked config.meta.cdcflow_read_this_run (a table each
        run writes its rows into: the staging written once per run, the
        messages parsed once per run...). -#}
    {%- set group = cdcflow.cdc_group_models(table_name) -%}
    {%- set names = [] -%}
    {%- for node in graph.nodes.values()
        if node.resource_type == 'model' and node.name in group and (node.config.meta or {}).get('cdcflow_read_this_run') -%}
        {%- do names.append(node.name) -%}
    {%- endfor -%}
    {{ return(names) }}
{% endmacro %}
