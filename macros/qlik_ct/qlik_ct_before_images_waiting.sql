{% macro qlik_ct_before_images_waiting(table_name) %}
    {{ return(adapter.dispatch('qlik_ct_before_images_waiting', 'cdcflow')(table_name)) }}
{% endmacro %}

{% macro default__qlik_ct_before_images_waiting(table_name) %}
    {{ config(
        materialized='cdcflow_incremental', file_format=cdcflow.table_format(), incremental_strategy='append', on_schema_change='fail',
        post_hook=["{{ cdcflow.drop_incremental_temp_view(this) }}"]
    ) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'qlik_ct') -%}
    {%- set staged_changes = ref(cdcflow.table_model_name(table_name, 'changes')) -%}
    {%- if execute and cdcflow.qlik_ct_table_problem(table_name) %}

select
    cast(null as string) as change_seq,
    {%- for column in cfg.key %}
    cast(null as {{ cfg.columns[column] }}) as {{ column }},
    {%- endfor %}
    cast(null as string) as raw_row,
    cast(null as timestamp) as landed_at,
    {{ cdcflow.run_loaded_at() }} as loaded_at
where false
    {%- else %}
    {%- set group_range = cdcflow.processing_range(table_name) %}
    {%- set in_range = cdcflow.landed_in_range(group_range) %}

with

valid_changes as (

    select *
    from {{ staged_changes }}
    where invalid_reason is null and {{ in_range }}

),

orphans as (

    select change_seq, {{ cfg.key | join(', ') }}, landed_at
    from ({{ cdcflow.orphan_before_images('valid_changes') }}) as orphan
    {%- if group_range.settled %}
    -- one landed after the next run's start (within the overlap before this run
    -- listed the raw tables) waits: the next run reads it again, with its
    -- UPDATE if that landed in the next batch
    where landed_at is null or landed_at <= {{ group_range.settled }}
    {%- endif %}

),

landed_rows as (

    -- the orphans' rows as landed (staging keeps no raw row for a valid one)
    {{ cdcflow.orphan_before_image_raw_rows(cfg, 'valid_changes', in_range) }}

),

found as (

    -- one row per orphan (a before image landed twice is one)
    select
        orphan.change_seq,
        {%- for column in cfg.key %}
        first(orphan.{{ column }}) as {{ column }},
        {%- endfor %}
        first(landed_row.raw_row) as raw_row,
        max(orphan.landed_at) as landed_at
    from orphans as orphan
    left join landed_rows as landed_row
        on orphan.change_seq = landed_row.change_seq
        and orphan.landed_at <=> landed_row.landed_at
    group by orphan.change_seq

),

final as (

    select
        found.*,
        {{ cdcflow.run_loaded_at() }} as loaded_at
    from found
    {%- if cdcflow.is_incremental_run() %}
    -- found by an earlier run (the landing overlap read it again)
    left anti join {{ this }} as recorded
        on found.change_seq = recorded.change_seq
    {%- endif %}

)

select * from final
    {%- endif %}
{% endmacro %}
