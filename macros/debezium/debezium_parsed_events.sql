{% macro debezium_parsed_events(relation) %}
    {#- Every message of a raw Kafka landing table (topic, partition, offset,
        timestamp, key, value) parsed as a Debezium change event (reference 002)
        by one from_json: `schema` + `payload`, or the payload's fields at the
        top level (schemas disabled). `before`/`after` are maps of column name to
        value text (typed per column later); `schema_json` is the Connect schema
        as text (null without one): a table's staging parses each distinct one
        once (debezium_field_schemas), not the schema of every event.
        Tombstones (null value) are dropped; `parse_error` says why an event
        cannot be read. The landed row is not kept: a quarantine reads it back
        (landed_kafka_raw_rows). -#}
    {%- set payload_fields = cdcflow.debezium_payload_fields() %}
    select
        topic,
        kafka_partition,
        kafka_offset,
        kafka_timestamp,
        payload,
        event.schema as schema_json,
        case
            when event._corrupt_record is not null then 'unparsable JSON'
            when payload.op is null then 'not a Debezium change event (no payload.op)'
        end as parse_error,
        landed_at
    from (
        select
            *,
            -- the envelope's payload, or the event itself when schemas are disabled
            coalesce(
                event.payload,
                named_struct(
                    {%- for name, type in payload_fields %}
                    '{{ name }}', event.{{ name }}{{ ',' if not loop.last }}
                    {%- endfor %}
                )
            ) as payload
        from (
            select
                topic,
                kafka_partition,
                kafka_offset,
                kafka_timestamp,
                landed_at,
                from_json(value, '{{ cdcflow.debezium_event_schema() }}') as event
            from ({{ cdcflow.landed_kafka_messages(relation) }}) as landed
        ) as read
    ) as parsed
{%- endmacro %}
