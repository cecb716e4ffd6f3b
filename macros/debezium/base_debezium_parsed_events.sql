{% macro base_debezium_parsed_events() %}
    {{ return(adapter.dispatch('base_debezium_parsed_events', 'cdcflow')()) }}
{% endmacro %}

{% macro default__base_debezium_parsed_events() %}
    {{ config(materialized='cdcflow_table', file_format=cdcflow.run_table_format()) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- if not cdcflow.enabled_for_format('debezium') -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {{ return(cdcflow.parsed_kafka_landings(
        'debezium', cdcflow.debezium_parsed_events, 'events'
    )) }}
{% endmacro %}
