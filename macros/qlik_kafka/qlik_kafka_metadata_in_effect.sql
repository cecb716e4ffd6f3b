{% macro qlik_kafka_metadata_in_effect(messages, cfg, versions=none) %}
    {#- CTEs ending in `messages_with_metadata`: every row of `messages` (a Qlik
        Kafka table's data messages) with `metadata`, the metadata message in
        effect for it (reference 000), null when there is none: the one whose
        schemaId is the message's externalSchemaId, else the latest metadata
        message before it in message order — by offset in the message's own
        topic partition, by Kafka timestamp in the others. "Latest" is by table
        version, then timestamp, then offset. `metadata` holds the version's
        table_version, column_names_by_ordinal, column_types, key_columns, and
        column_bits: each configured column's change-mask bit in that version
        (-1 when it has none), computed once per version, not per message. The metadata messages are few (one
        per DDL): each rule is a lookup of a range on them, joined by broadcast,
        so that no lambda function keeps Spark from compiling the stage.
        `versions`: the metadata messages (default int_qlik_kafka__table_versions;
        integration_tests/tests/assert_kafka_metadata_lookups_agree.sql passes
        generated ones). -#}

table_versions as (

    -- the table's metadata messages, 1 = the latest
    select
        topic,
        kafka_partition,
        kafka_offset,
        kafka_timestamp,
        schema_id,
        struct(
            table_version,
            column_names_by_ordinal,
            -- the configured columns' change-mask bits (-1: not in this version)
            array(
                {%- for column in cfg.column_names %}
                cast(array_position(column_names_by_ordinal, '{{ column }}') as int) - 1
                {{- ',' if not loop.last }}
                {%- endfor %}
            ) as column_bits,
            column_types,
            key_columns
        ) as metadata,
        row_number() over (order by table_version desc, kafka_timestamp desc, kafka_offset desc) as recency
    from {{ versions if versions is not none else ref('int_qlik_kafka__table_versions') }}
    where
        raw_table = '{{ cfg.raw_table }}'
        and {{ cdcflow.qlik_kafka_names_table('source_schema', 'source_table', cfg) }}

),

by_schema_id as (

    select
        schema_id,
        min(recency) as recency
    from table_versions
    where schema_id is not null
    group by schema_id

),

by_offset as (

    -- in a topic partition holding metadata messages: from each one's offset
    -- (exclusive) to the next one's (inclusive), the latest landed so far there
    select
        topic,
        kafka_partition,
        kafka_offset as after_offset,
        lead(kafka_offset) over (partition by topic, kafka_partition order by kafka_offset) as until_offset,
        min(recency) over (
            partition by topic, kafka_partition order by kafka_offset rows between unbounded preceding and current row
        ) as recency
    from table_versions
    where topic is not null and kafka_partition is not null and kafka_offset is not null

),

version_partitions as (

    select distinct
        topic,
        kafka_partition
    from table_versions
    where topic is not null and kafka_partition is not null

),

timestamp_steps as (

    -- per topic partition holding metadata messages, and for every other one
    -- (null): the metadata messages of the other partitions, per timestamp
    select
        message_partitions.topic as message_topic,
        message_partitions.kafka_partition as message_partition,
        table_versions.kafka_timestamp,
        min(table_versions.recency) as recency
    from (
        select * from version_partitions
        union all
        select cast(null as string) as topic, cast(null as int) as kafka_partition
    ) as message_partitions
    inner join table_versions
        on not coalesce(
            message_partitions.topic = table_versions.topic
            and message_partitions.kafka_partition = table_versions.kafka_partition,
            false
        )
    where table_versions.kafka_timestamp is not null
    group by message_partitions.topic, message_partitions.kafka_partition, table_versions.kafka_timestamp

),

by_timestamp as (

    -- from each timestamp (inclusive) to the next (exclusive), the latest so far
    select
        message_topic,
        message_partition,
        kafka_timestamp as from_timestamp,
        lead(kafka_timestamp) over (
            partition by message_topic, message_partition order by kafka_timestamp
        ) as until_timestamp,
        min(recency) over (
            partition by message_topic, message_partition order by kafka_timestamp
            rows between unbounded preceding and current row
        ) as recency
    from timestamp_steps

),

messages_ranked as (

    select /*+ broadcast(by_schema_id, by_offset, known_partition, by_timestamp) */
        messages.*,
        coalesce(by_schema_id.recency, least(by_offset.recency, by_timestamp.recency)) as metadata_recency
    from {{ messages }} as messages
    left join by_schema_id
        on messages.message.headers.externalSchemaId = by_schema_id.schema_id
    left join by_offset
        on messages.topic = by_offset.topic
        and messages.kafka_partition = by_offset.kafka_partition
        and messages.kafka_offset > by_offset.after_offset
        and (by_offset.until_offset is null or messages.kafka_offset <= by_offset.until_offset)
    left join version_partitions as known_partition
        on messages.topic = known_partition.topic
        and messages.kafka_partition = known_partition.kafka_partition
    left join by_timestamp
        on known_partition.topic <=> by_timestamp.message_topic
        and known_partition.kafka_partition <=> by_timestamp.message_partition
        and messages.kafka_timestamp >= by_timestamp.from_timestamp
        and (by_timestamp.until_timestamp is null or messages.kafka_timestamp < by_timestamp.until_timestamp)

),

messages_with_metadata as (

    select /*+ broadcast(table_versions) */
        messages_ranked.* except (metadata_recency),
        table_versions.metadata
    from messages_ranked
    left join table_versions
        on messages_ranked.metadata_recency = table_versions.recency

)
{%- endmacro %}
