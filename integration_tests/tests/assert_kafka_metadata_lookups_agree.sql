{{ config(tags=['exhaustive']) }}
-- The Qlik Kafka metadata message in effect (reference 000), found by
-- qlik_kafka_metadata_in_effect with range lookups, is the one the rule names
-- (written here as the rule reads, with lambda functions): the latest metadata
-- message whose schemaId is the message's externalSchemaId, else the latest
-- before the message (by offset in its own topic partition, by timestamp in
-- the others); latest = by table version, then timestamp, then offset. Five
-- generated streams of 8 metadata messages and 600 data messages over three
-- topic partitions, with equal timestamps, null table versions and schema ids.
-- Returns the messages where the two disagree.
{%- set cfg = {'raw_table': 'generated', 'source_table': 'T', 'source_schema': none, 'column_names': ['a']} %}

{%- for seed in range(5) %}

select {{ seed }} as seed, * from (

    with

    generated_versions as (

        select
            'generated' as raw_table,
            cast(null as string) as source_schema,
            'T' as source_table,
            case when pmod(hash({{ seed }}, v, 1), 5) > 0 then pmod(hash({{ seed }}, v, 2), 3) end as table_version,
            case when pmod(hash({{ seed }}, v, 3), 4) > 0 then concat('s', pmod(hash({{ seed }}, v, 4), 4)) end as schema_id,
            array(concat('v', v)) as column_names_by_ordinal,
            map('a', 'INT4') as column_types,
            array('a') as key_columns,
            element_at(array('data', 'data', 'meta'), pmod(hash({{ seed }}, v, 5), 3) + 1) as topic,
            cast(pmod(hash({{ seed }}, v, 5), 3) % 2 as int) as kafka_partition,
            -- distinct offsets per partition
            cast(v * 4 + pmod(hash({{ seed }}, v, 6), 4) as bigint) as kafka_offset,
            timestamp'2024-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, pmod(hash({{ seed }}, v, 7), 8), 0)
                as kafka_timestamp
        from (select explode(sequence(0, 7)) as v) as versions

    ),

    generated_messages as (

        select
            m as message_id,
            element_at(array('data', 'data', 'other'), pmod(hash({{ seed }}, m, 8), 3) + 1) as topic,
            cast(pmod(hash({{ seed }}, m, 8), 3) % 2 as int) as kafka_partition,
            cast(pmod(hash({{ seed }}, m, 9), 36) as bigint) as kafka_offset,
            timestamp'2024-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, pmod(hash({{ seed }}, m, 10), 10), 0)
                as kafka_timestamp,
            named_struct(
                'headers', named_struct(
                    'externalSchemaId',
                    case when pmod(hash({{ seed }}, m, 11), 3) > 0 then concat('s', pmod(hash({{ seed }}, m, 12), 6)) end
                )
            ) as message
        from (select explode(sequence(0, 599)) as m) as messages

    ),

    {{ cdcflow.qlik_kafka_metadata_in_effect('generated_messages', cfg, versions='generated_versions') }},

    by_rule as (

        select
            message_id,
            coalesce(
                try_element_at(filter(sorted.versions, v -> v.schema_id = m.message.headers.externalSchemaId), -1),
                try_element_at(
                    filter(
                        sorted.versions,
                        v -> case
                            when v.topic = m.topic and v.kafka_partition = m.kafka_partition
                                then v.kafka_offset < m.kafka_offset
                            else v.kafka_timestamp <= m.kafka_timestamp
                        end
                    ),
                    -1
                )
            ).column_names_by_ordinal as column_names_by_ordinal
        from generated_messages as m
        cross join (
            select
                array_sort(
                    collect_list(struct(
                        table_version, kafka_timestamp, kafka_offset, topic, kafka_partition, schema_id,
                        column_names_by_ordinal
                    ))
                ) as versions
            from generated_versions
        ) as sorted

    )

    select
        by_rule.message_id,
        by_rule.column_names_by_ordinal as by_rule,
        found.metadata.column_names_by_ordinal as found
    from by_rule
    inner join messages_with_metadata as found
        on by_rule.message_id = found.message_id
    where not (by_rule.column_names_by_ordinal <=> found.metadata.column_names_by_ordinal)

) as disagreements
{%- if not loop.last %}

union all
{%- endif %}
{%- endfor %}
