{% macro qlik_kafka_format() %}
    {#- Entry point of Qlik Replicate Kafka messages (see source_format). -#}
    {{ return({
        'name': 'qlik_kafka',
        'default_raw_table': 'qlik_kafka_messages',
        'raw_table_settings': ['raw_table'],
        'may_omit_columns': true,
        'relogs_changes': false,
        'relogs_other_operation': false,
        'held_back_from': cdcflow.qlik_kafka_held_back_from,
    }) }}
{% endmacro %}
