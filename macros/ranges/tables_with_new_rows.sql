{% macro tables_with_new_rows(source_format) %}
    {#- The tables of `source_format` a shared model (a format's quarantine, the
        DirXML outcomes) reads in this run: all but those whose CDC group took a
        range with nothing new (groups_with_nothing_new), so a run pays for the
        groups with new rows only. An idle group's range is empty, so leaving it
        out changes no row; a table sharing its landing table with one that is
        read is kept (what a landing table's tables claim is decided over all of
        them). Every table under a full refresh, outside a run, or when the
        filter would leave none (the model is then built from scratch). -#}
    {%- set tables = cdcflow.tables_of_format(source_format) -%}
    {%- if not execute or should_full_refresh()
        or invocation_args_dict.get('which') not in ['run', 'build', 'retry'] -%}
        {{ return(tables) }}
    {%- endif -%}
    {%- set idle = cdcflow.groups_with_nothing_new() -%}
    {%- set landings_read = [] -%}
    {%- for table_name in tables if table_name not in idle -%}
        {%- do landings_read.append(cdcflow.table_config(table_name, source_format).get('raw_table')) -%}
    {%- endfor -%}
    {%- set read = [] -%}
    {%- for table_name in tables -%}
        {%- set landing = cdcflow.table_config(table_name, source_format).get('raw_table') -%}
        {%- if table_name not in idle or (landing and landing in landings_read) -%}
            {%- do read.append(table_name) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(read if read else tables) }}
{% endmacro %}
