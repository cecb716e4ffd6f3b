{% macro swap_in_rebuilt(relation, sql) %}
    {#- Builds `sql` beside `relation` (as <name>__rebuilt, with the calling model's
        config: file format, partitioning), then swaps it in: the old table is
        dropped and the new one renamed only once the new one is complete, so its
        readers (the marts) never find it missing while it is rebuilt, nor after a
        rebuild that failed. A kill between the drop and the rename leaves no
        table (and <name>__rebuilt, dropped by the next rebuild): the next run,
        which processes the range again, builds the table from scratch. -#}
    {%- set rebuilt = api.Relation.create(
        database=relation.database, schema=relation.schema, identifier=relation.identifier ~ '__rebuilt', type='table'
    ) -%}
    {%- set left_over = adapter.get_relation(rebuilt.database, rebuilt.schema, rebuilt.identifier) -%}
    {%- if left_over is not none -%}
        {%- do adapter.drop_relation(left_over) -%}
    {%- endif -%}
    {%- call statement('main') -%}
        {{ create_table_as(false, rebuilt, sql) }}
    {%- endcall -%}
    {%- set existing = adapter.get_relation(relation.database, relation.schema, relation.identifier) -%}
    {%- if existing is not none -%}
        {%- do adapter.drop_relation(existing) -%}
    {%- endif -%}
    {%- do adapter.rename_relation(rebuilt, existing if existing is not none else relation) -%}
{% endmacro %}
