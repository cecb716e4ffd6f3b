{% macro group_required_models(table_name) %}
    {#- The models a CDC group's change log reads from this run only: its format
        entry's required_models with `{table}` standing for the group's table
        (the parsed messages, the staging written once per run...), those the
        project has (a table without a full load has no full-load staging). -#}
    {%- set names = [] -%}
    {%- set patterns = cdcflow.source_format(cdcflow.table_config(table_name).format).required_models -%}
    {%- for pattern in patterns -%}
        {%- set name = pattern | replace('{table}', table_name) -%}
        {%- for node in graph.nodes.values() if node.resource_type == 'model' and node.name == name -%}
            {%- if name not in names -%}{%- do names.append(name) -%}{%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(names) }}
{% endmacro %}
