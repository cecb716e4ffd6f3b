{% macro cdc_group_models(table_name) %}
    {#- Names of the models that process a CDC group's range: its change log,
        version chain and marts, the table's other models in the graph
        (config.meta.cdcflow_table, written by `cdcflow onboard`: its staging)
        and those every
        table of its format shares (config.meta.cdcflow_format: parsed
        messages, quarantine, outcomes). A failure of one fails the range. -#}
    {%- set fmt = cdcflow.table_config(table_name).format -%}
    {#- the names every table's core models have (the package's macros read
        them by these names), whatever their config says -#}
    {%- set models = [
        cdcflow.table_model_name(table_name, 'changes_logged'), cdcflow.table_model_name(table_name, 'versioned'),
        cdcflow.table_model_name(table_name, 'current'), cdcflow.table_model_name(table_name, 'history'),
    ] -%}
    {%- for node in graph.nodes.values() if node.resource_type == 'model' and node.name not in models -%}
        {%- set meta = node.config.meta or {} -%}
        {%- if meta.get('cdcflow_table') == table_name or meta.get('cdcflow_format') == fmt -%}
            {%- do models.append(node.name) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(models) }}
{% endmacro %}
