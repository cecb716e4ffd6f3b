{% macro create_cdc_state_relations(relations) %}
    {#- Creates the state log and the state table (view) if they do not exist
        (a run that finds both in dbt's relation cache issues no statement). -#}
    {%- set log = adapter.get_relation(relations.log.database, relations.log.schema, relations.log.identifier) -%}
    {%- set table = adapter.get_relation(
        relations.table.database, relations.table.schema, relations.table.identifier
    ) -%}
    {%- if log is not none and table is not none -%}
        {{ return('') }}
    {%- endif -%}
    {%- do run_query('create schema if not exists ' ~ relations.log.schema) -%}
    {%- call statement('cdcflow_create_state_log') -%}
        create table if not exists {{ relations.log }} (
            name string comment 'the CDC group: a configured source table',
            state string comment 'the SSIS CDC state string',
            state_name string,
            current_start_lsn string comment 'CS: where the range starts (the end of the last processed one)',
            current_end_lsn string comment 'CE: where the range in progress (or failed) ends',
            initial_start_lsn string,
            initial_end_lsn string,
            updated_at timestamp comment 'TS (UTC)',
            error_text string comment 'ER: the short error of a failed run',
            reprocessing boolean comment '__$reprocessing: rows of the range may already be on the target',
            current_start_at timestamp comment 'CS as a landing time',
            current_end_at timestamp comment 'CE as a landing time',
            state_seq bigint comment 'order of the records',
            invocation_id string comment 'the dbt invocation that recorded the state'
        ) using parquet
    {%- endcall -%}
    {%- call statement('cdcflow_create_state_table') -%}
        create or replace view {{ relations.table }} as
        select
            name, state, state_name, current_start_lsn, current_end_lsn, initial_start_lsn,
            initial_end_lsn, updated_at, error_text, reprocessing, current_start_at, current_end_at,
            invocation_id
        from (
            select *, row_number() over (partition by name order by state_seq desc) as recency
            from {{ relations.log }}
        ) as recorded
        where recency = 1
    {%- endcall -%}
    {%- do adapter.cache_added(relations.log) -%}
    {%- do adapter.cache_added(relations.table) -%}
{% endmacro %}
