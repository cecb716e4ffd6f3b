{% macro landed_kafka_messages(relation) %}
    {#- The messages of a raw Kafka landing table (topic, partition, offset,
        timestamp, key, value, as a sink writes them) with their Kafka
        coordinates renamed, the landed row as JSON (raw_row, for quarantine) and
        when it landed; tombstones (null value) are left out. The timestamp
        and value are read as the sink typed them (kafka_landing_columns). -#}
    {%- set columns = cdcflow.kafka_landing_columns(relation) %}
    select
        topic,
        `partition` as kafka_partition,
        `offset` as kafka_offset,
        {{ columns.timestamp }} as kafka_timestamp,
        {{ columns.value ~ ' as value' if columns.value != 'value' else 'value' }},
        _cdcflow_raw_row as raw_row,
        _cdcflow_landed_at as landed_at
    from ({{ cdcflow.landed_raw_rows(relation) }}) as landed
    where value is not null
{%- endmacro %}
