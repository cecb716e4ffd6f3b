{% macro debezium_quarantine() %}
    {{ return(adapter.dispatch('debezium_quarantine', 'cdcflow')()) }}
{% endmacro %}

{% macro default__debezium_quarantine() %}
    {{ cdcflow.kafka_message_quarantine(
        'debezium', 'events', cdcflow.debezium_landed_parsed_events,
        cdcflow.debezium_deliveries, 'commit_lsn, change_lsn and event_serial_no'
    ) }}
{% endmacro %}
