{% macro stg_qlik_kafka_parsed_messages() %}
    {{ return(adapter.dispatch('stg_qlik_kafka_parsed_messages', 'cdcflow')()) }}
{% endmacro %}

{% macro default__stg_qlik_kafka_parsed_messages() %}
    {{ config(materialized='cdcflow_table', file_format=cdcflow.table_format()) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- if not cdcflow.enabled_for_format('qlik_kafka') -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set relations = cdcflow.landing_relations('qlik_kafka') -%}
    {%- set tables = cdcflow.tables_of_format('qlik_kafka') -%}
    {%- set ranges = [] -%}
    {%- set readers = ['int_qlik_kafka__table_versions', 'qlik_kafka_quarantine'] -%}
    {%- for table_name in tables -%}
        {%- do ranges.append(cdcflow.processing_range(table_name)) -%}
        {%- do readers.append(cdcflow.table_model_name(table_name, 'changes_logged')) -%}
    {%- endfor -%}
    {%- set from_start = cdcflow.any_built_from_scratch(readers) %}

with
{%- for landing in relations %}

{{ landing.name }}_messages as (

    select
        '{{ landing.name }}' as raw_table,
        parsed.*
    from ({{ cdcflow.qlik_kafka_parsed_messages(landing.relation) }}) as parsed
    where {{ cdcflow.landed_in_range(ranges, from_start) }}

),
{%- endfor %}

final as (
    {%- for landing in relations %}

    select * from {{ landing.name }}_messages
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}

)

select * from final
{% endmacro %}
