{% macro debezium_parsed_events(relation) %}
    {#- Every message of a raw Kafka landing table (topic, partition, offset,
        timestamp, key, value) parsed as a Debezium change event (reference 002)
        with from_json: `schema` + `payload`, or the payload alone (schemas
        disabled). `before`/`after` stay JSON text (typed per column later);
        `field_schemas` maps each lower-cased column name to its Connect type,
        logical name and parameters (null without a schema). Tombstones (null
        value) are dropped; `parse_error` says why an event cannot be read. -#}
    {%- set envelope_fields = 'envelope.schema.fields' %}
    select
        topic,
        kafka_partition,
        kafka_offset,
        kafka_timestamp,
        payload,
        {{ cdcflow.lowered_map_keys('row_schema') }} as field_schemas,
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
            ) as payload,
            -- the Connect schema of the row (of the envelope's `before` or `after`
            -- field, whichever comes first), by column name
            map_from_arrays(
                row_fields.field, arrays_zip(row_fields.type, row_fields.name, row_fields.parameters)
            ) as row_schema
        from (
            select
                *,
                element_at(
                    {{ envelope_fields }},
                    cast(least(
                        nullif(array_position({{ envelope_fields }}.field, 'before'), 0),
                        nullif(array_position({{ envelope_fields }}.field, 'after'), 0)
                    ) as int)
                ).fields as row_fields
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
        ) as with_row_fields
    ) as parsed
{%- endmacro %}
