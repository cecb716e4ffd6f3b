{% macro dirxml_event_outcomes() %}
    {{ return(adapter.dispatch('dirxml_event_outcomes', 'cdcflow')()) }}
{% endmacro %}

{% macro default__dirxml_event_outcomes() %}
    {{ config(
        materialized='cdcflow_incremental', file_format=cdcflow.table_format(), incremental_strategy='append', on_schema_change='fail',
        post_hook=["{{ cdcflow.drop_incremental_temp_view(this) }}"]
    ) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- if not cdcflow.enabled_for_format('dirxml') -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set tables = cdcflow.tables_with_new_rows('dirxml') -%}
    {%- set ranges = {} -%}
    {%- set claimed = {} -%}
    {%- set log_columns = {} %}
{%- set new_outcomes %}
with
{%- for table_name in tables %}
{%- set cfg = cdcflow.table_config(table_name, 'dirxml') %}
{%- set group_range = cdcflow.processing_range(table_name) %}
{%- do ranges.setdefault(cfg.raw_table, []).append(group_range) %}
{%- do claimed.setdefault(cfg.raw_table, []).append(cfg.source_table | lower) %}
{%- if cfg.source_schema %}
{%- do claimed[cfg.raw_table].append((cfg.source_schema ~ '.' ~ cfg.source_table) | lower) %}
{%- endif %}
{%- do log_columns.setdefault(cfg.raw_table, cfg.event_log_columns) %}

{{ table_name }}_outcomes as (

    select
        '{{ cfg.raw_table }}' as raw_table,
        record_id,
        outcome_status as status,
        outcome_reason as reason,
        event_type,
        table_name,
        table_key,
        column_name,
        '{{ table_name }}' as source_table,
        raw_row,
        landed_at
    from {{ cdcflow.table_model_ref(cdcflow.table_model_name(table_name, 'events_decided')) }}
    where {{ cdcflow.appended_in_this_run() }}

),
{%- endfor %}
{%- for landing in cdcflow.landing_relations('dirxml', tables) %}

{{ landing.name }}_unclaimed as (

    -- new events of tables no configured table claims
    select
        '{{ landing.name }}' as raw_table,
        record_id,
        'W' as status,
        concat(
            'table ', coalesce(table_name, 'null'), ' is not configured (vars.cdcflow_tables): not published'
        ) as reason,
        event_type,
        table_name,
        table_key,
        column_name,
        cast(null as string) as source_table,
        raw_row,
        landed_at
    from ({{ cdcflow.dirxml_event_log(landing.relation, log_columns[landing.name]) }}) as event
    where
        status = 'N'
        and not coalesce(lower(table_name) in ('{{ claimed[landing.name] | join("', '") }}'), false)
        and {{ cdcflow.landed_in_range(ranges[landing.name]) }}

),
{%- endfor %}

{%- set outcomes = [] %}
{%- for table_name in tables %}{% do outcomes.append(table_name ~ '_outcomes') %}{% endfor %}
{%- for landing in cdcflow.landing_relations('dirxml', tables) %}{% do outcomes.append(landing.name ~ '_unclaimed') %}{% endfor %}

outcomes as (
    {{- cdcflow.union_all(outcomes) }}

)
{%- endset %}
{#- the events recorded before that this run's may repeat: those of its record_ids
    (Delta Lake's and Iceberg's file statistics skip the others) -#}
{%- set recorded_ids = cdcflow.dirxml_record_id_bounds(new_outcomes, 'outcomes')
    if cdcflow.is_incremental_run() else 'true' %}
{{ new_outcomes }},

deduplicated as (

    -- an event landed twice has one outcome
    {{ cdcflow.latest_per_key('outcomes', ['raw_table', 'record_id', 'raw_row'], 'landed_at desc') }}

),

final as (

    select
        new_outcome.raw_table,
        new_outcome.record_id,
        new_outcome.status,
        new_outcome.reason,
        new_outcome.event_type,
        new_outcome.table_name,
        new_outcome.table_key,
        new_outcome.column_name,
        new_outcome.source_table,
        new_outcome.raw_row,
        new_outcome.landed_at,
        {{ cdcflow.run_loaded_at() }} as loaded_at
    from deduplicated as new_outcome
    {%- if cdcflow.is_incremental_run() %}
    -- record_id identifies an event (the raw row, when it is missing): the ids are
    -- matched alone, and the raw rows recorded are read only where an id is missing
    left anti join (
        select raw_table, record_id
        from {{ this }}
        where {{ recorded_ids }}
    ) as recorded
        on
            new_outcome.raw_table = recorded.raw_table
            and new_outcome.record_id = recorded.record_id
    left anti join (
        select raw_table, raw_row
        from {{ this }}
        where record_id is null
    ) as recorded_without_id
        on
            new_outcome.record_id is null
            and new_outcome.raw_table = recorded_without_id.raw_table
            and new_outcome.raw_row = recorded_without_id.raw_row
    {%- endif %}

)

select * from final
{% endmacro %}
