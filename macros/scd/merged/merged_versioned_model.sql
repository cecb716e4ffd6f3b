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
    {%- set event_columns = cdcflow.chain_event_columns(cfg) -%}
    {%- set changes_log = ref(cdcflow.table_model_name(table_name, 'changes_logged')) -%}
    {%- set incremental = cdcflow.is_incremental_run() -%}
    {%- set run = cdcflow.merged_chain_increment(this, changes_log) if incremental else {} %}

with

new_changes as (

    select {{ event_columns | join(', ') }}, loaded_at
    from {{ changes_log }}
    {%- if incremental %}
    -- logged since the chain's last write (a literal: the change log's files
    -- of earlier runs are skipped by their loaded_at statistics)
    where loaded_at > {{ run.watermark }}
    {%- endif %}

),
{%- if incremental %}

affected_keys as (

    {{ cdcflow.affected_keys(key) }}

),

reopened_links as (

    {{ cdcflow.reopened_links(this, key, broadcast_keys=run.broadcast_keys) }}

),
{%- endif %}

{{ cdcflow.chained_changes(cfg, event_columns, incremental) }},

final as (

    select
        {{ cdcflow.chain_link_columns(cfg) }}
    from chained

)

select * from final
{% endmacro %}
