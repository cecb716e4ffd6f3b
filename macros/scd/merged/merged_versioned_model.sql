{% macro default__merged_versioned_model(table_name) %}
    {#- Body of int_<table>__versioned on Delta Lake and Iceberg
        (cdcflow_table_format delta or iceberg): the chain of every change of
        every key (versions and deletes), with validity, one row per key and
        change_order. A first build selects every link; a later run selects the
        links it recomputes, which materialization cdcflow_versioned MERGEs in
        on (key, change_order), one atomic commit: every key changed since the
        chain's last write (its newest loaded_at) is chained again from the link
        in effect before its first new change on, so a late change re-opens the
        links after it, and the open link a change closes is updated in place.
        No partitions, touches or compaction: readers see the table as it is.
        A range processed again (TFREDO) is an ordinary run: a write that did
        not commit left the table as it was. -#}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    {{ config(
        materialized='cdcflow_versioned',
        file_format=cdcflow.table_format(),
        unique_key=cfg.key + ['change_order'],
        on_schema_change='fail',
        pre_hook=["{{ cdcflow.follow_configured_columns(this, '" ~ table_name ~ "', 'versioned') }}"]
    ) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- set key = cfg.key -%}
    {%- set event_columns = cfg.column_names + [
        'operation', 'change_order', 'committed_at', 'transaction_id',
        'changed_columns', 'present_columns'
    ] -%}
    {%- set changes_log = ref(cdcflow.table_model_name(table_name, 'changes_logged')) -%}
    {%- set incremental = cdcflow.is_incremental_run() %}

with

new_changes as (

    select {{ event_columns | join(', ') }}, loaded_at
    from {{ changes_log }}
    {%- if incremental %}
    -- logged since the chain's last write
    where loaded_at > (
        select coalesce(max(loaded_at), timestamp'1900-01-01 00:00:00') from {{ this }}
    )
    {%- endif %}

),
{%- if incremental %}

affected_keys as (

    select
        {{ key | join(', ') }},
        min(change_order) as first_new_change_order
    from new_changes
    group by {{ key | join(', ') }}

),

reopened_links as (

    -- the stored links a new change affects: the key's open link, and every link
    -- ending at or after its first new change (a late change re-opens them)
    select
        link.*,
        affected_keys.first_new_change_order
    from {{ this }} as link
    inner join affected_keys
        on {{ cdcflow.key_match('link', 'affected_keys', key) }}
    where
        link.valid_to_change_order is null
        or link.valid_to_change_order >= affected_keys.first_new_change_order

),
{%- endif %}

{{ cdcflow.chained_changes(cfg, event_columns, incremental) }},

final as (

    select
        {{ cfg.column_names | join(', ') }},
        operation,
        change_order,
        valid_from,
        valid_to,
        valid_to_change_order,
        closed_by_operation,
        valid_to_change_order is null and operation <> 'D' as is_current,
        transaction_id,
        changed_columns,
        present_columns,
        {{ cdcflow.run_loaded_at() }} as loaded_at
    from chained

)

select * from final
{% endmacro %}
