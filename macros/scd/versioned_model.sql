{% macro versioned_model(table_name) %}
    {#- Body of int_<table>__versioned: the chain of every change of every key
        (versions and deletes), with validity, written incrementally.

        Layout (insert_overwrite): partitioned by closed_in_run, the run that first
        saw a link closed ('YYYYMMDDTHHMMSS'); null = open links (one per key: its
        current version, or the delete that ended it). The first build, which closes
        the whole history at once, spreads its closed links over 64 slices of the
        history by the time of the closing change (first_build_closing_partition). A run rewrites the open
        partition and writes its own new partition; a closed link never moves, and
        old partitions are read and rewritten only when a late change (older than
        its key's open link) re-opens links in them, so a late change re-writes the
        history from its time on, not all of it. One run-marker row (null key)
        in the open partition keeps that partition written even when every key got
        deleted, and records the run (its loaded_at is the watermark).
        Late changes: every link a new change can affect (valid_to_change_order
        >= the key's first new change_order, or open) is re-opened and the chain
        recomputed from those links plus the new changes. -#}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    {%- set strategy = cdcflow.incremental_strategy() -%}
    {{ config(
        materialized='incremental',
        incremental_strategy=strategy,
        partition_by=(['closed_in_run'] if strategy == 'insert_overwrite' else none),
        unique_key=(cfg.key + ['change_order'] if strategy == 'merge' else none),
        on_schema_change='fail'
    ) }}
    {%- set key = cfg.key -%}
    {%- set event_columns = cfg.column_names + [
        'operation', 'change_order', 'committed_at', 'transaction_id',
        'changed_columns', 'present_columns'
    ] -%}
    {%- set columns = cdcflow.version_columns(cfg) -%}
    {%- set changes_log = ref('int_' ~ table_name ~ '__changes_logged') -%}
    {%- if is_incremental() -%}
        {#- the run marker of the last run that wrote this table -#}
        {%- set watermark = cdcflow.incremental_value(
            "select coalesce(max(loaded_at), timestamp'1900-01-01 00:00:00') from " ~ this
            ~ " where closed_in_run is null"
        ) -%}
        {#- closed links are read only when a new change is older than its key's
            open link (its last known change): a late change -#}
        {%- set late_changes = cdcflow.incremental_value(
            "select count(*) from (select " ~ key | join(', ') ~ ", min(change_order) as first_new"
            ~ " from " ~ changes_log ~ " where loaded_at > " ~ watermark
            ~ " group by " ~ key | join(', ') ~ ") as new_change"
            ~ " inner join " ~ this ~ " as link on " ~ cdcflow.key_match('new_change', 'link', key)
            ~ " where link.closed_in_run is null and new_change.first_new < link.change_order"
        ) -%}
        {%- set read_closed_links = late_changes not in ['0'] -%}
    {%- endif -%}

with

new_changes as (

    select {{ event_columns | join(', ') }}
    from {{ changes_log }}
    {%- if is_incremental() %}
    where loaded_at > {{ watermark }}
    {%- endif %}

),
{%- if is_incremental() %}

affected_keys as (

    select
        {{ key | join(', ') }},
        min(change_order) as first_new_change_order
    from new_changes
    group by {{ key | join(', ') }}

),

candidate_links as (

    -- the open partition; with late changes, also the partitions closed since the
    -- day before the oldest new change (a link is closed by a later change, which
    -- cannot be processed before it was committed)
    select *
    from {{ this }}
    where
        change_order is not null
        and (
            closed_in_run is null
            {%- if read_closed_links %}
            or closed_in_run >= {{ cdcflow.incremental_value(
                "select case when count_if(committed_at is null) > 0 then '0'"
                ~ " else date_format(date_sub(to_date(min(committed_at)), 1), 'yyyyMMdd') end"
                ~ " from " ~ changes_log ~ " where loaded_at > " ~ watermark
            ) }}
            {%- endif %}
        )

),

reopened_links as (

    select
        link.*,
        affected_keys.first_new_change_order
    from candidate_links as link
    inner join affected_keys
        on {{ cdcflow.key_match('link', 'affected_keys', key) }}
    where
        link.valid_to_change_order is null
        or link.valid_to_change_order >= affected_keys.first_new_change_order

),
{%- endif %}

changes as (

    select
        {{ event_columns | join(', ') }},
        cast(null as string) as previous_closed_in_run,
        1 as source_priority
    from new_changes
    {%- if is_incremental() %}

    union all

    -- re-opened links, back as the changes that started them; the link in effect
    -- before the first new change keeps its (complete) values as they are
    select
        {{ cfg.column_names | join(', ') }},
        operation,
        change_order,
        valid_from as committed_at,
        transaction_id,
        changed_columns,
        case
            when change_order < first_new_change_order then {{ cdcflow.string_array(cfg.column_names) }}
            else present_columns
        end as present_columns,
        closed_in_run as previous_closed_in_run,
        0 as source_priority
    from reopened_links
    {%- endif %}

),

unique_changes as (
    {%- if is_incremental() %}

    -- a change already in the table wins over a second delivery of it
    {{ cdcflow.latest_per_key('changes', key + ['change_order'], 'source_priority') }}
    {%- else %}

    -- the change log holds one row per key and change_order: nothing to choose
    -- (and no shuffle by key and change_order before the chain's by key)
    select * from changes
    {%- endif %}

),

chained as (

    {{ cdcflow.scd2_versions('unique_changes', cfg) }}

),

links as (

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
        {{ cdcflow.run_loaded_at() }} as loaded_at,
        case
            when valid_to_change_order is not null
                then coalesce(
                    previous_closed_in_run,
                    {%- if not is_incremental() %}
                    {{ cdcflow.first_build_closing_partition(changes_log, 'valid_to') }},
                    {%- endif %}
                    {{ cdcflow.run_partition() }}
                )
        end as closed_in_run
    from chained

),

run_marker as (

    select
        {%- for column, data_type in cfg.columns.items() %}
        cast(null as {{ data_type }}) as {{ column }},
        {%- endfor %}
        cast(null as string) as operation,
        cast(null as string) as change_order,
        cast(null as timestamp) as valid_from,
        cast(null as timestamp) as valid_to,
        cast(null as string) as valid_to_change_order,
        cast(null as string) as closed_by_operation,
        false as is_current,
        cast(null as string) as transaction_id,
        cast(null as array<string>) as changed_columns,
        cast(null as array<string>) as present_columns,
        {{ cdcflow.run_loaded_at() }} as loaded_at,
        cast(null as string) as closed_in_run

),
{%- if is_incremental() and strategy == 'insert_overwrite' %}

kept_links as (

    -- links of the partitions being rewritten that the new changes leave alone:
    -- the open partition, and old partitions holding a re-opened link
    select link.*
    from candidate_links as link
    left anti join reopened_links as reopened
        on {{ cdcflow.key_match('link', 'reopened', key) }}
        and link.change_order = reopened.change_order
    where
        link.closed_in_run is null
        {%- if read_closed_links %}
        or link.closed_in_run in (
            select closed_in_run from reopened_links where closed_in_run is not null
        )
        {%- endif %}

),
{%- endif %}

final as (

    select {{ columns | join(', ') }} from links
    union all
    select {{ columns | join(', ') }} from run_marker
    {%- if is_incremental() and strategy == 'insert_overwrite' %}
    union all
    select {{ columns | join(', ') }} from kept_links
    {%- endif %}

)

select * from final
{% endmacro %}
