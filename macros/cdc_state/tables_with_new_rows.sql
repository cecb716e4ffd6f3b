{% macro tables_with_new_rows(source_format) %}
    {#- The tables of `source_format` a shared model (a format's quarantine, the
        DirXML outcomes) reads in this run: those whose CDC group did not take a
        range with nothing new (groups_with_nothing_new), so a run pays for the
        groups with new rows only. An idle group's range is empty and its raw
        tables have had no landing since its last range (tables sharing a raw
        table are idle together), so leaving it out changes no row. Every table
        under a full refresh, outside a run, or when the filter would leave none
        (the model is then built from scratch). -#}
    {%- set tables = cdcflow.tables_of_format(source_format) -%}
    {%- if not execute or should_full_refresh()
        or invocation_args_dict.get('which') not in ['run', 'build', 'retry'] -%}
        {{ return(tables) }}
    {%- endif -%}
    {%- set idle = cdcflow.groups_with_nothing_new() -%}
    {%- set busy = [] -%}
    {%- for table_name in tables if table_name not in idle -%}
        {%- do busy.append(table_name) -%}
    {%- endfor -%}
    {{ return(busy if busy else tables) }}
{% endmacro %}
