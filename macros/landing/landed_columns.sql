{% macro landed_columns(relation) %}
    {#- adapter.get_columns_in_relation of a raw table, described once per run
        (run_memo): a run writes no raw table, and its models read its raw tables
        as they were when it started. A table not found (none yet) is asked again. -#}
    {%- set memo = cdcflow.run_memo() -%}
    {%- set key = 'columns of ' ~ relation -%}
    {%- if key in memo -%}
        {{ return(memo[key]) }}
    {%- endif -%}
    {%- set columns = adapter.get_columns_in_relation(relation) -%}
    {%- if columns -%}
        {%- do memo.update({key: columns}) -%}
    {%- endif -%}
    {{ return(columns) }}
{% endmacro %}
