{% macro processing_range(table_name) %}
    {#- The processing range of a CDC group in this run, from the state table:
        {'start': where the rows to read start (CS, less the landing overlap if
        the run that took the range ending at CS listed the raw tables within
        the overlap of CS: landing_overlap_bound), 'end': CE, 'reprocessing':
        true/false, 'last_ended_at': when the last run that ended cleanly (TFEND)
        recorded it, 'settled': the next run's 'start' (the rows landed after it
        are read again by the next run: an orphan before image landed after it
        waits for its UPDATE)}, bounds as timestamp literals over the raw rows'
        landing time. A group not
        taking a range in this run (TFEND) gets its last range's end as both
        bounds' reference (nothing new is read); one without a state (no run
        recorded one yet, e.g. `dbt compile`, unit tests) is read whole. -#}
    {%- set unbounded = {'start': none, 'end': none, 'reprocessing': 'false', 'last_ended_at': none, 'settled': none} -%}
    {%- if not execute or (model is defined and model.resource_type == 'unit_test') -%}
        {{ return(unbounded) }}
    {%- endif -%}
    {#- the state changes in the hooks only: the nodes of a run ask once per group -#}
    {%- set memo = cdcflow.run_memo() -%}
    {%- set key = 'processing range of ' ~ table_name -%}
    {%- if key in memo -%}
        {{ return(memo[key]) }}
    {%- endif -%}
    {%- set relations = cdcflow.cdc_state_relations() -%}
    {%- if adapter.get_relation(relations.log.database, relations.log.schema, relations.log.identifier) is none -%}
        {{ return(unbounded) }}
    {%- endif -%}
    {%- set name = cdcflow.sql_string(table_name) -%}
    {%- set timestamp_text = "'yyyy-MM-dd HH:mm:ss.SSSSSS'" -%}
    {%- set rows = run_query(
        "with listings as (select current_end_at as listed_end,"
        ~ " min(from_utc_timestamp(updated_at, current_timezone())) as listed_at from " ~ relations.log
        ~ " where name = " ~ name ~ " and state_name in ('ILUPDATE', 'TFSTART', 'TFREDO')"
        ~ " and not current_end_at <=> current_start_at group by current_end_at)"
        ~ " select date_format(" ~ cdcflow.landing_overlap_bound('state.current_start_at', 'start_listing.listed_at')
        ~ ", " ~ timestamp_text ~ "),"
        ~ " date_format(coalesce(current_end_at, current_start_at), " ~ timestamp_text ~ "),"
        ~ " reprocessing and current_end_at is not null,"
        ~ " (select date_format(max(updated_at), " ~ timestamp_text ~ ") from " ~ relations.log
        ~ " where name = " ~ name ~ " and state_name = 'TFEND'),"
        ~ " date_format(" ~ cdcflow.landing_overlap_bound('coalesce(state.current_end_at, state.current_start_at)', 'end_listing.listed_at')
        ~ ", " ~ timestamp_text ~ ")"
        ~ " from " ~ relations.table ~ " as state"
        ~ " left join listings as start_listing on start_listing.listed_end = state.current_start_at"
        ~ " left join listings as end_listing on end_listing.listed_end = coalesce(state.current_end_at, state.current_start_at)"
        ~ " where state.name = " ~ name
    ) -%}
    {%- if rows | length == 0 -%}
        {{ return(unbounded) }}
    {%- endif -%}
    {%- set row = rows[0] -%}
    {%- do memo.update({key: {
        'start': "timestamp'" ~ row[0] ~ "'" if row[0] is not none else none,
        'end': "timestamp'" ~ row[1] ~ "'" if row[1] is not none else none,
        'reprocessing': 'true' if row[2] else 'false',
        'last_ended_at': "timestamp'" ~ row[3] ~ "'" if row[3] is not none else "timestamp'0001-01-01 00:00:00'",
        'settled': "timestamp'" ~ row[4] ~ "'" if row[4] is not none else none,
    }}) -%}
    {{ return(memo[key]) }}
{% endmacro %}
