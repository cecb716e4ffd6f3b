{% macro qlik_kafka_format() %}
    {#- Entry point of Qlik Replicate Kafka messages (see source_format). -#}
    {{ return({
        'name': 'qlik_kafka',
        'default_raw_table': 'qlik_kafka_messages',
        'raw_table_settings': ['raw_table'],
        'may_omit_columns': true,
        'shared_models': [
            'stg_qlik_kafka__parsed_messages', 'int_qlik_kafka__table_versions', 'qlik_kafka_quarantine'
        ],
        'required_models': ['stg_qlik_kafka__parsed_messages', 'int_{table}__messages_decoded'],
        'held_back_from': cdcflow.qlik_kafka_held_back_from,
    }) }}
{% endmacro %}
