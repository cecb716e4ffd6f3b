{% macro view_columns_unchanged(relation, sql) %}
    {#- Whether the view `relation` has the columns `sql` gives now, in order (a
        view keeps the columns it had when created: a column configured since,
        which its table gained, needs the view created again). -#}
    {%- set stored = adapter.get_columns_in_relation(relation) | map(attribute='name') | map('lower') | list -%}
    {%- set wanted = get_column_schema_from_query(sql) | map(attribute='name') | map('lower') | list -%}
    {{ return(stored == wanted) }}
{% endmacro %}
