{% macro qlik_kafka_quarantine() %}
    {#- Body of qlik_kafka_quarantine: the Qlik Kafka messages that cannot be
        applied (kafka_message_quarantine), from the messages the run parsed. -#}
    {{ cdcflow.kafka_message_quarantine(
        'qlik_kafka', 'messages_decoded', cdcflow.qlik_kafka_landed_parsed_messages,
        cdcflow.qlik_kafka_deliveries, 'changeSequence and transactionEventCounter'
    ) }}
{% endmacro %}
