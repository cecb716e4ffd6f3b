{% macro dirxml_quarantine() %}
    {{ return(adapter.dispatch('dirxml_quarantine', 'cdcflow')()) }}
{% endmacro %}

{% macro default__dirxml_quarantine() %}
    {{ config(
        materialized='cdcflow_incremental', file_format=cdcflow.table_format(), incremental_strategy='append', on_schema_change='fail',
        post_hook=["{{ cdcflow.drop_incremental_temp_view(this) }}"]
    ) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- if not cdcflow.enabled_for_format('dirxml') -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set tables = cdcflow.tables_with_new_rows('dirxml') %}

with
{%- for table_name in tables %}
{%- set cfg = cdcflow.table_config(table_name, 'dirxml') %}

{{ table_name }}_rejected as (

    select
        '{{ table_name }}' as source_table,
        '{{ cfg.raw_table }}' as raw_table,
        record_id,
        outcome_status as status,
        outcome_reason as reason,
        raw_row,
        landed_at
    from {{ cdcflow.table_model_ref(cdcflow.table_model_name(table_name, 'events_decided')) }}
    where is_rejected and {{ cdcflow.appended_in_this_run() }}

),
{%- endfor %}
{%- set rejected = [] %}
{%- for table_name in tables %}{% do rejected.append(table_name ~ '_rejected') %}{% endfor %}

rejected as (
    {{- cdcflow.union_all(rejected) }}

),

{{ cdcflow.append_new_rejections(
    'rejected', ['source_table', 'raw_table', 'record_id', 'status', 'reason', 'raw_row', 'landed_at']
) }}
{% endmacro %}
