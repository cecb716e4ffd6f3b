{% macro qlik_kafka_parsed_messages(relation) %}
    {#- Every message of a raw Kafka landing table (topic, partition, offset,
        timestamp, key, value) parsed as a Qlik message (reference 000) by one
        from_json: the Replicate envelope ({"magic": "atMSG", "type": "MD"|"DT",
        "message": {...}}) or a bare message (its fields at the top level).
        `message_type` is MD (metadata) or DT (data); `parse_error` says why a
        message cannot be read; tombstones (null value) are dropped. The landed
        row is not kept: a quarantine reads it back (landed_kafka_raw_rows). -#}
    {%- set fields = [] -%}
    {%- for name, type in cdcflow.qlik_kafka_message_fields() -%}
        {%- do fields.append('`' ~ name ~ '`: ' ~ type) -%}
    {%- endfor %}
    select
        topic,
        kafka_partition,
        kafka_offset,
        kafka_timestamp,
        message,
        case
            when envelope.magic = 'atMSG' then envelope.type
            when message.lineage is not null then 'MD'
            when message.headers is not null then 'DT'
        end as message_type,
        case
            when envelope._corrupt_record is not null then 'unparsable JSON'
            when coalesce(envelope.type, 'DT') not in ('MD', 'DT')
                then concat('unknown Replicate envelope type ''', envelope.type, '''')
            when message.lineage is null and message.headers is null
                then 'not a Qlik metadata or data message (no lineage, no headers)'
        end as parse_error,
        landed_at
    from (
        select
            *,
            case
                when envelope.magic = 'atMSG' then envelope.message
                else named_struct(
                    {%- for name, type in cdcflow.qlik_kafka_message_fields() %}
                    '{{ name }}', envelope.`{{ name }}`{{ ',' if not loop.last }}
                    {%- endfor %}
                )
            end as message
        from (
            select
                topic,
                kafka_partition,
                kafka_offset,
                kafka_timestamp,
                landed_at,
                from_json(
                    value,
                    'struct<magic: string, type: string, message: struct<{{ fields | join(", ") }}>, '
                    || '{{ fields | join(", ") }}, _corrupt_record: string>'
                ) as envelope
            from ({{ cdcflow.landed_kafka_messages(relation) }}) as landed
        ) as read
    ) as parsed
{%- endmacro %}
