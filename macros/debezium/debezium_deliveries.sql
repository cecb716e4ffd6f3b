{% macro debezium_deliveries(table_name, cfg, group_range) %}
    {#- Every canonical change the run read for a Debezium table, one per event
        (not de-duplicated), with its topic, kafka_partition and kafka_offset:
        what conflicting_deliveries compares. -#}
    select *
    from {{ cdcflow.table_model_ref(cdcflow.table_model_name(table_name, 'events')) }}
    where invalid_reason is null and {{ cdcflow.landed_in_range(group_range) }}
{%- endmacro %}
