{% macro qlik_ct_change_log(table_name) %}
    {#- Body of int_<table>__changes_logged for a Qlik `__ct` source: the canonical
        change log (append-only). Full-load rows are the baseline (operation L);
        each U is paired with its before image, and a U that changes the primary
        key becomes a delete of the old key and an insert of the new one; rows
        already logged (landing overlap, replays) are skipped. -#}
    {%- set cfg = cdcflow.table_config(table_name, 'qlik_ct') -%}
    {{ config(
        materialized='incremental',
        incremental_strategy='append',
        partition_by=['change_date'],
        on_schema_change='fail'
    ) }}
    {%- set key = cfg.key -%}
    {%- if is_incremental() -%}
        {%- set watermark = cdcflow.landing_watermark(this, column='landed_until') -%}
    {%- endif -%}
    {%- set all_columns = cdcflow.string_array(cfg.column_names) -%}

with

landed as (

    -- every raw row of the processing range: landed after the last range read
    select *
    from {{ ref('stg_qlik_ct__' ~ table_name ~ '_changes') }}
    {%- if is_incremental() %}
    where {{ cdcflow.landed_after(watermark) }}
    {%- endif %}

),

changes as (

    select * from landed where invalid_reason is null

),
{%- if cfg.full_load_table %}

full_load as (

    select *
    from {{ ref('stg_qlik_ct__' ~ table_name ~ '_full_load') }}
    where
        invalid_reason is null
        {%- if is_incremental() %}
        and {{ cdcflow.landed_after(watermark) }}
        {%- endif %}

),
{%- endif %}

paired as (

    {{ cdcflow.pair_before_images('changes', key) }}

),

canonical as (
    {%- if cfg.full_load_table %}

    -- the full load: the baseline, before every change (change_order of zeros)
    select
        {{ cfg.column_names | join(', ') }},
        'L' as operation,
        repeat('0', 36) as change_order,
        cast(null as timestamp) as committed_at,
        cast(null as string) as transaction_id,
        {{ all_columns }} as changed_columns,
        {{ all_columns }} as present_columns,
        landed_at
    from full_load

    union all
    {%- endif %}

    -- inserts, deletes, and updates that keep their key
    select
        {{ cfg.column_names | join(', ') }},
        change_oper as operation,
        concat(change_seq, '0') as change_order,
        committed_at,
        transaction_id,
        changed_columns,
        {{ all_columns }} as present_columns,
        landed_at
    from paired
    where not is_key_change

    union all

    -- primary-key update, 1 of 2: the old key (from the before image) is deleted
    select
        {%- for column in cfg.column_names %}
        {%- if column in key %}
        before_{{ column }} as {{ column }},
        {%- else %}
        cast(null as {{ cfg.columns[column] }}) as {{ column }},
        {%- endif %}
        {%- endfor %}
        'D' as operation,
        concat(change_seq, '1') as change_order,
        committed_at,
        transaction_id,
        {{ cdcflow.string_array(key) }} as changed_columns,
        {{ all_columns }} as present_columns,
        landed_at
    from paired
    where is_key_change

    union all

    -- primary-key update, 2 of 2: the new key is inserted with the whole row
    select
        {{ cfg.column_names | join(', ') }},
        'I' as operation,
        concat(change_seq, '2') as change_order,
        committed_at,
        transaction_id,
        {{ all_columns }} as changed_columns,
        {{ all_columns }} as present_columns,
        landed_at
    from paired
    where is_key_change

),

deduplicated as (

    {{ cdcflow.latest_per_key('canonical', key + ['change_order'], 'landed_at desc') }}

),
{%- if is_incremental() %}

already_logged as (

    select {{ key | join(', ') }}, change_order
    from {{ this }}
    where
        -- prunes to the partitions the new rows can fall in (null: the full load)
        coalesce(change_date, date'0001-01-01') >= (
            select
                case
                    when count_if(committed_at is null) > 0 then date'0001-01-01'
                    else min(to_date(committed_at))
                end
            from deduplicated
        )

),
{%- endif %}

final as (

    select
        {%- for column in cfg.column_names %}
        new_change.{{ column }},
        {%- endfor %}
        new_change.operation,
        new_change.change_order,
        new_change.committed_at,
        new_change.transaction_id,
        new_change.changed_columns,
        new_change.present_columns,
        'qlik_ct' as source_format,
        new_change.landed_at,
        -- the end of this run's processing range: the newest raw row it read,
        -- valid or not (before images and rejected rows are read, not logged)
        (
            select max(landed_at)
            from (
                select landed_at from landed
                {%- if cfg.full_load_table %}
                union all
                select landed_at from full_load
                {%- endif %}
            ) as read_rows
        ) as landed_until,
        {{ cdcflow.run_loaded_at() }} as loaded_at,
        to_date(new_change.committed_at) as change_date
    from deduplicated as new_change
    {%- if is_incremental() %}
    left anti join already_logged
        on {{ cdcflow.key_match('new_change', 'already_logged', key) }}
        and new_change.change_order = already_logged.change_order
    {%- endif %}

)

select * from final
{% endmacro %}
