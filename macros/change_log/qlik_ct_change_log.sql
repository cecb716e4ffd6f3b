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

    {{ cdcflow.pair_before_images('changes', cfg.key) }}

),

cdc_changes as (

    select
        *,
        change_oper as operation,
        change_seq as base_order,
        {{ all_columns }} as present_columns
    from paired

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

    {{ cdcflow.split_key_changes('cdc_changes', cfg) }}

),

{#- the end of this run's processing range: the newest raw row it read, valid or
    not (before images and rejected rows are read, not logged) #}
{{ cdcflow.append_new_changes(cfg, 'canonical', 'qlik_ct', "(
            select max(landed_at)
            from (
                select landed_at from landed"
                ~ ("
                union all
                select landed_at from full_load" if cfg.full_load_table else "")
                ~ "
            ) as read_rows
        )") }}
{% endmacro %}
