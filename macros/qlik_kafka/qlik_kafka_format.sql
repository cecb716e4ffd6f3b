{% macro qlik_kafka_format() %}
    {#- Entry point of Qlik Replicate Kafka messages (see source_format):
        what only its macros can say; its data are in format_registry. -#}
    {{ return({
        'name': 'qlik_kafka',
        'held_back_from': cdcflow.qlik_kafka_held_back_from,
    }) }}
{% endmacro %}
