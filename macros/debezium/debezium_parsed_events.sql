{% macro debezium_parsed_events(relation) %}
    {#- Every message of a raw Kafka landing table (topic, partition, offset,
        timestamp, key, value) parsed as a Debezium change event (reference 002)
        with from_json: `schema` + `payload`, or the payload alone (schemas
        disabled). `before`/`after` stay JSON text (typed per column later);
        `field_schemas` maps each lower-cased column name to its Connect type,
        logical name and parameters (null without a schema). Tombstones (null
        value) are dropped; `parse_error` says why an event cannot be read. -#}
    select
        topic,
        kafka_partition,
        kafka_offset,
        kafka_timestamp,
        payload,
        map_from_entries(
            transform(
                try_element_at(filter(envelope.schema.fields, f -> f.field in ('after', 'before')), 1).fields,
                f -> struct(lower(f.field), struct(f.type as type, f.name as name, f.parameters as parameters))
            )
        ) as field_schemas,
        case
            when envelope._corrupt_record is not null or payload._corrupt_record is not null
                then 'unparsable JSON'
            when payload.op is null then 'not a Debezium change event (no payload.op)'
        end as parse_error,
        raw_row,
        landed_at
    from (
        select
            *,
            from_json(
                coalesce(envelope.payload, value),
                '{{ cdcflow.debezium_payload_schema() }}'
            ) as payload
        from (
            select
                *,
                from_json(
                    value,
                    'struct<schema: struct<fields: array<struct<field: string, fields: array<struct<'
                    || 'field: string, type: string, name: string, parameters: map<string, string>>>>>>, '
                    || 'payload: string, _corrupt_record: string>'
                ) as envelope
            from ({{ cdcflow.landed_kafka_messages(relation) }}) as landed
        ) as enveloped
    ) as parsed
{%- endmacro %}
