{% macro stg_debezium_parsed_events() %}
    {{ return(adapter.dispatch('stg_debezium_parsed_events', 'cdcflow')()) }}
{% endmacro %}

{% macro default__stg_debezium_parsed_events() %}
    {{ config(materialized='cdcflow_table', file_format=cdcflow.table_format()) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- if not cdcflow.enabled_for_format('debezium') -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set relations = cdcflow.landing_relations('debezium') -%}
    {%- set ranges = [] -%}
    {%- set readers = ['debezium_quarantine'] -%}
    {%- for table_name in cdcflow.tables_of_format('debezium') -%}
        {%- do ranges.append(cdcflow.processing_range(table_name)) -%}
        {%- do readers.append(cdcflow.table_model_name(table_name, 'changes_logged')) -%}
    {%- endfor -%}
    {%- set from_start = cdcflow.any_built_from_scratch(readers) %}

with
{%- for landing in relations %}

{{ landing.name }}_events as (

    select
        '{{ landing.name }}' as raw_table,
        parsed.*
    from ({{ cdcflow.debezium_parsed_events(landing.relation) }}) as parsed
    where {{ cdcflow.landed_in_range(ranges, from_start) }}

),
{%- endfor %}

final as (
    {%- for landing in relations %}

    select * from {{ landing.name }}_events
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}

)

select * from final
{% endmacro %}
