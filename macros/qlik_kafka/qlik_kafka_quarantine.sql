{% macro qlik_kafka_quarantine() %}
    {{ return(adapter.dispatch('qlik_kafka_quarantine', 'cdcflow')()) }}
{% endmacro %}

{% macro default__qlik_kafka_quarantine() %}
    {{ cdcflow.kafka_message_quarantine(
        'qlik_kafka', 'messages_decoded', cdcflow.qlik_kafka_landed_parsed_messages,
        cdcflow.qlik_kafka_deliveries, 'changeSequence and transactionEventCounter'
    ) }}
{% endmacro %}
