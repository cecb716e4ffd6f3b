{% macro base_qlik_kafka_parsed_messages() %}
    {{ return(adapter.dispatch('base_qlik_kafka_parsed_messages', 'cdcflow')()) }}
{% endmacro %}

{% macro default__base_qlik_kafka_parsed_messages() %}
    {{ config(materialized='cdcflow_table', file_format=cdcflow.run_table_format()) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- if not cdcflow.enabled_for_format('qlik_kafka') -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {{ return(cdcflow.parsed_kafka_landings(
        'qlik_kafka', cdcflow.qlik_kafka_parsed_messages, 'messages'
    )) }}
{% endmacro %}
