{% macro record_groups_with_nothing_new(relations, taken, excluded, last_ends) %}
    {#- on-run-start, once the ranges are taken: the CDC groups that took a range
        (TFSTART) ending where the last range they took ended: nothing has
        landed in their raw tables since (an empty range, CE = CS; or a Qlik
        Kafka range held open for a transaction still incomplete, which the last
        run read as it is now). They are kept for the run's models in a session
        setting (the embedded session, or a Thrift server's single shared one)
        under this run's invocation id (and noted in dbt's graph); their models and marts do no Spark work
        in this run (has_nothing_new), and their state goes TFSTART -> TFEND
        with the range's start kept (cdc_state_end_run). A redo (TFREDO), an
        initial range (ILUPDATE) and the groups of `excluded` (SQL strings of their
        names: failed at the start, e.g. a raw table missing; with a raw table
        read in full, whose landings move no end; or built from scratch) are never
        among them.
        `last_ends`: name -> the end of the last range each group took before
        this run (latest_cdc_states' last_end_lsn). Returns their names. -#}
    {%- set started = [] -%}
    {%- for name, row in taken.items() | sort
        if row['state_name'] == 'TFSTART' and cdcflow.sql_string(name) not in excluded -%}
        {%- do started.append(cdcflow.sql_string(name)) -%}
    {%- endfor -%}
    {%- set idle = [] -%}
    {%- for name, row in taken.items() | sort if cdcflow.sql_string(name) in started -%}
        {%- set end = row['current_end_lsn'] -%}
        {%- if end == row['current_start_lsn'] or (last_ends.get(name)
            and end[2:] | int(-1, 16) == last_ends[name][2:] | int(-2, 16)) -%}
            {%- do idle.append(name) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do run_query('set ' ~ cdcflow.nothing_new_setting(relations) ~ '=' ~ invocation_id ~ ':' ~ idle | join(',')) -%}
    {#- and noted in the run's graph, which every node of this dbt process reads
        (groups_with_nothing_new): dbt's flat graph, one dict per invocation -#}
    {%- do graph.update({'cdcflow_nothing_new': {'invocation_id': invocation_id, 'groups': idle}}) -%}
    {{ return(idle) }}
{% endmacro %}
