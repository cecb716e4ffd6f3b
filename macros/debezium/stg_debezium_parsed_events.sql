{% macro stg_debezium_parsed_events() %}
    {#- Body of stg_debezium__parsed_events: the events of every debezium landing
        table landed within this run's processing ranges (their union), parsed
        once (debezium_parsed_events), with the landing table's name. Rebuilt by
        every run: the tables' staging and the quarantine read it instead of
        parsing the JSON again. It reads from the beginning when one of them is
        built from scratch (a first run, --full-refresh). -#}
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
