{% macro create_cdc_state_relations(relations) %}
    {#- Creates the state log, the state table (view) and the run summaries if
        they do not exist (a run that finds them in dbt's relation cache issues
        no statement), once what a killed compaction of the log or the summaries
        left is put right (restore_cdc_state_table). -#}
    {%- do cdcflow.restore_cdc_state_table(relations.log) -%}
    {%- do cdcflow.restore_cdc_state_table(relations.runs) -%}
    {%- set log = adapter.get_relation(relations.log.database, relations.log.schema, relations.log.identifier) -%}
    {%- set table = adapter.get_relation(
        relations.table.database, relations.table.schema, relations.table.identifier
    ) -%}
    {%- set runs = adapter.get_relation(relations.runs.database, relations.runs.schema, relations.runs.identifier) -%}
    {%- if log is not none and table is not none and runs is not none -%}
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
        {{ cdcflow.latest_cdc_state_records(relations.log) }}
    {%- endcall -%}
    {%- call statement('cdcflow_create_run_summaries') -%}
        create table if not exists {{ relations.runs }} (
            name string comment 'the CDC group: a configured source table',
            invocation_id string comment 'the dbt invocation',
            loaded_at timestamp comment 'the run start: the loaded_at of the rows it wrote',
            state_name string comment 'the state the run left the group in (TFEND, ERROR...)',
            error_text string comment 'ER of a failed run',
            changes_logged bigint comment 'changes added to the change log since the last run that ended TFEND',
            versions_opened bigint comment 'versions those changes opened (every change but a delete)',
            versions_closed bigint comment 'versions whose validity ended (open before or opened since)',
            current_versions bigint comment 'rows of <table>_current after the run (null unless TFEND)',
            rows_quarantined bigint comment 'rows of the group quarantined since the last run that ended TFEND',
            quarantine string comment 'the quarantine to read them in'
        ) using parquet
    {%- endcall -%}
    {%- do adapter.cache_added(relations.log) -%}
    {%- do adapter.cache_added(relations.runs) -%}
    {%- do adapter.cache_added(relations.table) -%}
{% endmacro %}
