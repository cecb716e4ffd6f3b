{% macro debezium_change_log(table_name) %}
    {#- Body of int_<table>__changes_logged for a Debezium source: the canonical
        change log (append-only). Snapshot reads (op r) are the baseline; the order
        is commit_lsn, change_lsn, event_serial_no, so a primary-key update (delete
        of the old key, create of the new one, serials 1 and 2) ends the old key
        and starts the new one; a second delivery of an event is skipped. -#}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'debezium') -%}
    {{ config(
        materialized='cdcflow_incremental', file_format=cdcflow.table_format(),
        incremental_strategy='append',
        partition_by=['change_date'],
        on_schema_change='fail',
        pre_hook=["{{ cdcflow.follow_configured_columns(this, '" ~ table_name ~ "', 'change_log') }}"],
        post_hook=["{{ cdcflow.drop_incremental_temp_view(this) }}"]
    ) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- set group_range = cdcflow.processing_range(table_name) -%}

with

landed as (

    select *
    from {{ ref(cdcflow.table_model_name(table_name, 'events')) }}
    where {{ cdcflow.landed_in_range(group_range) }}

),

changes as (

    select * from landed where invalid_reason is null

),

{{ cdcflow.append_new_changes(cfg, 'changes', 'debezium', group_range) }}
{% endmacro %}
