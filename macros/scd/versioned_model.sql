{% macro versioned_model(table_name) %}
    {#- Body of int_<table>__versioned: the chain of every change of every key
        (versions and deletes), with validity, written incrementally.

        Layout (insert_overwrite): partitioned by closed_run_date, the date of the
        run that first saw a link closed; null = open links (one per key: the
        current version, or the delete that ended the key). A run rewrites the
        open partition, today's partition, and only the old partitions holding a
        link that a late change re-opens; a closed link never moves partition.
        One run-marker row (null key) in the open partition keeps the partition
        written even when every key got deleted, and records the run.
        Late changes: every link a new change can affect (valid_to_change_order
        >= the key's first new change_order, or open) is re-opened and the chain
        recomputed from those links plus the new changes. -#}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    {%- set strategy = cdcflow.incremental_strategy() -%}
    {{ config(
        materialized='incremental',
        incremental_strategy=strategy,
        partition_by=(['closed_run_date'] if strategy == 'insert_overwrite' else none),
        unique_key=(cfg.key + ['change_order'] if strategy == 'merge' else none),
        on_schema_change='fail'
    ) }}
    {%- set key = cfg.key -%}
    {%- set event_columns = cfg.column_names + [
        'operation', 'change_order', 'committed_at', 'transaction_id',
        'changed_columns', 'present_columns'
    ] -%}
    {%- set columns = cdcflow.version_columns(cfg) -%}

with

new_changes as (

    select {{ event_columns | join(', ') }}
    from {{ ref('int_' ~ table_name ~ '__changes_logged') }}
    {%- if is_incremental() %}
    where loaded_at > (
        -- the run marker of the last run that wrote this table
        select coalesce(max(loaded_at), timestamp'1900-01-01 00:00:00')
        from {{ this }}
        where closed_run_date is null
    )
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

    -- partitions that can hold a link the new changes re-open: open links, and
    -- links closed on or after the day before the oldest new change (a link is
    -- closed by a later change, which cannot land before it was committed)
    select *
    from {{ this }}
    where
        change_order is not null
        and (
            closed_run_date is null
            or closed_run_date >= (
                select
                    least(
                        {{ cdcflow.run_date() }},
                        case
                            when count_if(committed_at is null) > 0 then date'0001-01-01'
                            else date_sub(to_date(min(committed_at)), 1)
                        end
                    )
                from new_changes
            )
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
        cast(null as date) as previous_closed_run_date,
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
        closed_run_date as previous_closed_run_date,
        0 as source_priority
    from reopened_links
    {%- endif %}

),

unique_changes as (

    -- a change already in the table wins over a second delivery of it
    {{ cdcflow.latest_per_key('changes', key + ['change_order'], 'source_priority') }}

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
                then coalesce(previous_closed_run_date, {{ cdcflow.run_date() }})
        end as closed_run_date
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
        cast(null as date) as closed_run_date

),
{%- if is_incremental() and strategy == 'insert_overwrite' %}

kept_links as (

    -- links of the partitions being rewritten that the new changes leave alone
    select link.*
    from candidate_links as link
    left anti join reopened_links as reopened
        on {{ cdcflow.key_match('link', 'reopened', key) }}
        and link.change_order = reopened.change_order
    where
        link.closed_run_date is null
        or link.closed_run_date = {{ cdcflow.run_date() }}
        or link.closed_run_date in (
            select closed_run_date from reopened_links where closed_run_date is not null
        )

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
