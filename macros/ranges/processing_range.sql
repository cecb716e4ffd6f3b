{% macro processing_range(table_name) %}
    {#- The processing range of a CDC group in this run, from the state table:
        {'start': CS less the landing overlap, 'end': CE, 'reprocessing': true/false,
        'last_ended_at': when the last run that ended cleanly (TFEND) recorded it},
        bounds as timestamp literals over the raw rows' landing time. A group not
        taking a range in this run (TFEND) gets its last range's end as both
        bounds' reference (nothing new is read); one without a state (no run
        recorded one yet, e.g. `dbt compile`, unit tests) is read whole. -#}
    {%- set unbounded = {'start': none, 'end': none, 'reprocessing': 'false', 'last_ended_at': none} -%}
    {%- if not execute or (model is defined and model.resource_type == 'unit_test') -%}
        {{ return(unbounded) }}
    {%- endif -%}
    {%- set relations = cdcflow.cdc_state_relations() -%}
    {%- if adapter.get_relation(relations.log.database, relations.log.schema, relations.log.identifier) is none -%}
        {{ return(unbounded) }}
    {%- endif -%}
    {%- set overlap = var('cdcflow_landing_overlap_minutes', 10) | int -%}
    {%- set rows = run_query(
        "select date_format(current_start_at - interval " ~ overlap ~ " minutes, 'yyyy-MM-dd HH:mm:ss.SSSSSS'),"
        ~ " date_format(coalesce(current_end_at, current_start_at), 'yyyy-MM-dd HH:mm:ss.SSSSSS'),"
        ~ " reprocessing and current_end_at is not null,"
        ~ " (select date_format(max(updated_at), 'yyyy-MM-dd HH:mm:ss.SSSSSS') from " ~ relations.log
        ~ " where name = " ~ cdcflow.sql_string(table_name) ~ " and state_name = 'TFEND')"
        ~ " from " ~ relations.table ~ " where name = " ~ cdcflow.sql_string(table_name)
    ) -%}
    {%- if rows | length == 0 -%}
        {{ return(unbounded) }}
    {%- endif -%}
    {%- set row = rows[0] -%}
    {{ return({
        'start': "timestamp'" ~ row[0] ~ "'" if row[0] is not none else none,
        'end': "timestamp'" ~ row[1] ~ "'" if row[1] is not none else none,
        'reprocessing': 'true' if row[2] else 'false',
        'last_ended_at': "timestamp'" ~ row[3] ~ "'" if row[3] is not none else "timestamp'0001-01-01 00:00:00'",
    }) }}
{% endmacro %}
