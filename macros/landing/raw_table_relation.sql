{% macro raw_table_relation(cfg, setting) %}
    {#- The raw table a configured table's `setting` names (change_table,
        full_load_table, raw_table, query_back_table), looked up in the
        warehouse now: {'name': 'schema.identifier' as its source declares it,
        'relation': the relation, or none when the table does not exist}. None
        when the setting is empty or no source of this project declares it.
        Execution time only (it queries the catalog). -#}
    {%- if not cfg[setting] -%}
        {{ return(none) }}
    {%- endif -%}
    {%- for node in graph.sources.values()
        if node.package_name == project_name and node.source_name == cfg.source and node.name == cfg[setting] -%}
        {{ return({
            'name': node.schema ~ '.' ~ node.identifier,
            'relation': adapter.get_relation(node.database, node.schema, node.identifier)}) }}
    {%- endfor -%}
    {{ return(none) }}
{% endmacro %}
