{% macro qlik_kafka_deliveries(table_name, cfg, group_range) %}
    {#- Every canonical change the run read for a Qlik Kafka table, one per
        message (not de-duplicated), with its topic, kafka_partition and
        kafka_offset: what conflicting_deliveries compares. -#}
    {{ cdcflow.split_key_changes(
        '(select * from ' ~ cdcflow.table_model_ref(cdcflow.table_model_name(table_name, 'messages_decoded'))
        ~ ' where invalid_reason is null and ' ~ cdcflow.landed_in_range(group_range) ~ ') as decoded',
        cfg, ['topic', 'kafka_partition', 'kafka_offset']
    ) }}
{%- endmacro %}
