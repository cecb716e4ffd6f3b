{% macro debezium_quarantine() %}
    {#- Body of debezium_quarantine: the Debezium events that cannot be applied
        (kafka_message_quarantine), from the events the run parsed. -#}
    {{ cdcflow.kafka_message_quarantine(
        'debezium', 'events', cdcflow.debezium_landed_parsed_events,
        cdcflow.debezium_deliveries, 'commit_lsn, change_lsn and event_serial_no'
    ) }}
{% endmacro %}
