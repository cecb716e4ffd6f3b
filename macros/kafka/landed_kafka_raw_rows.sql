{% macro landed_kafka_raw_rows(relation, wanted, landed_filter='true') %}
    {#- The landed rows of the Kafka landing table `relation` that `wanted` (a
        relation with topic, kafka_partition, kafka_offset, landed_at) names, as
        JSON (raw_row), with those coordinates. The parsed messages keep no
        landed row, because only the few a quarantine lists need one: `wanted` is
        broadcast and semi-joined before the JSON is built, and when it is empty
        Spark's adaptive execution drops the join without scanning the table.
        `landed_filter` (on landed_at) prunes the files read. -#}
    select /*+ broadcast(wanted) */
        landed.topic,
        landed.kafka_partition,
        landed.kafka_offset,
        landed.landed_at,
        landed.raw_row
    from ({{ cdcflow.landed_kafka_messages(relation) }}) as landed
    left semi join {{ wanted }} as wanted
        on landed.topic <=> wanted.topic
        and landed.kafka_partition <=> wanted.kafka_partition
        and landed.kafka_offset <=> wanted.kafka_offset
        and landed.landed_at <=> wanted.landed_at
    where {{ landed_filter }}
{%- endmacro %}
