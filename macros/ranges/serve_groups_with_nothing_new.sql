{% macro serve_groups_with_nothing_new(nodes) %}
    {#- Whether every CDC group the model `nodes` serve (their config.meta:
        cdcflow_table, or every table of cdcflow_format) has nothing new in the
        running invocation (groups_with_nothing_new). False for a node that
        serves no group, or when none is known. -#}
    {%- set groups = [] -%}
    {%- for node in nodes -%}
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
