{% macro model_relation(name) %}
    {#- The relation of the model `name`, where its config puts it (database,
        schema — custom schemas included — and alias, from the graph), looked
        up in the warehouse: none when it does not exist yet or no model has
        that name. For what must read a model it cannot `ref` (the hooks, and
        the reads of an earlier run's state in docs/contributing.md). Execution
        time only. -#}
    {%- for node in graph.nodes.values() if node.resource_type == 'model' and node.name == name -%}
        {{ return(adapter.get_relation(node.database, node.schema, node.alias)) }}
    {%- endfor -%}
    {{ return(none) }}
{% endmacro %}
