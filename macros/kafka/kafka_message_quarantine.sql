{% macro kafka_message_quarantine(source_format, messages_role, parsed_messages, deliveries, ordering) %}
    {#- Body of <format>_quarantine for a format landed from Kafka (qlik_kafka,
        debezium: the table's model of role `messages_role` holds its typed
        messages with their invalid_reason, and
        parsed_messages(relation) gives a landing table's parsed messages with a
        parse_error; deliveries(table_name, cfg, group_range) a table's canonical
        changes as read, one per message, and `ordering` names the format's
        ordering value): every message that cannot be applied, or that
        conflicts with the change applied (conflicting_deliveries), with the raw message
        (JSON of the landed row: topic, partition, offset, timestamp, key, value)
        and the reason. A configured table's bad messages come from that model.
        A message no table can read (unparsable JSON: it names no table) is
        listed under each table of its topic: the tables whose messages the run
        read on that topic, or whose entry names it (`topic:`), so the run
        summary and each table's quarantine query show it; with no such table,
        under a null source_table. Reads the same processing ranges as the
        change logs. Append-only. -#}
    {{ config(
        materialized='cdcflow_incremental', file_format=cdcflow.table_format(), incremental_strategy='append', on_schema_change='fail',
        post_hook=["{{ cdcflow.drop_incremental_temp_view(this) }}"]
    ) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- if not cdcflow.enabled_for_format(source_format) -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set tables = cdcflow.tables_with_new_rows(source_format) -%}
    {%- set ranges = {} -%}
    {%- set topics = {} %}
{%- set topic_tables = {} %}

with
{%- for table_name in tables %}
{%- set cfg = cdcflow.table_config(table_name, source_format) %}
{%- set group_range = cdcflow.processing_range(table_name) %}
{%- do ranges.setdefault(cfg.raw_table, []).append(group_range) %}
{%- do topics.setdefault(cfg.raw_table, []).append(cfg.topic) %}
{%- do topic_tables.setdefault(cfg.raw_table, []).append(table_name ~ '_topics') %}

{{ table_name }}_topics as (

    -- the topics this table's messages came on in the range, and its configured one
    select distinct topic, '{{ table_name }}' as source_table
    from {{ cdcflow.table_model_ref(cdcflow.table_model_name(table_name, messages_role)) }}
    where {{ cdcflow.landed_in_range(group_range) }}
    {%- if cfg.topic %}

    union

    select {{ cdcflow.sql_string(cfg.topic) }} as topic, '{{ table_name }}' as source_table
    {%- endif %}

),

{{ table_name }}_deliveries as (

    {{ deliveries(table_name, cfg, group_range) }}

),

{{ table_name }}_conflicts as (

    {{ cdcflow.conflicting_deliveries(
        cfg, table_name, table_name ~ '_deliveries', ['topic', 'kafka_partition', 'kafka_offset']
    ) }}

),

{{ table_name }}_rejected as (

    select
        '{{ table_name }}' as source_table,
        '{{ cfg.raw_table }}' as raw_table,
        topic,
        kafka_partition,
        kafka_offset,
        invalid_reason as reason,
        landed_at
    from {{ cdcflow.table_model_ref(cdcflow.table_model_name(table_name, messages_role)) }}
    where
        invalid_reason is not null
        and {{ cdcflow.landed_in_range(group_range) }}

    union all

    select
        '{{ table_name }}' as source_table,
        '{{ cfg.raw_table }}' as raw_table,
        topic,
        kafka_partition,
        kafka_offset,
        {{ cdcflow.conflict_reason(ordering) }} as reason,
        landed_at
    from {{ table_name }}_conflicts

),
{%- endfor %}
{%- for landing in cdcflow.landing_relations(source_format, tables) %}
{%- set claimed_topics = topics[landing.name] | reject('none') | list %}

{{ landing.name }}_unclaimed as (

    -- unreadable messages of the landing table that no table's messages claim:
    -- under each table of their topic, else under none
    select
        topic_table.source_table,
        '{{ landing.name }}' as raw_table,
        parsed.topic,
        parsed.kafka_partition,
        parsed.kafka_offset,
        parsed.parse_error as reason,
        parsed.landed_at
    from ({{ parsed_messages(landing.relation) }}) as parsed
    left join (
        {{- cdcflow.union_all(topic_tables.get(landing.name, [])) }}
    ) as topic_table
        on parsed.topic = topic_table.topic
    where
        parsed.parse_error is not null
        {%- if claimed_topics %}
        and not coalesce(parsed.topic in ('{{ claimed_topics | join("', '") }}'), false)
        {%- endif %}
        and {{ cdcflow.landed_in_range(ranges[landing.name]) }}

),
{%- endfor %}

{%- set rejected = [] %}
{%- for table_name in tables %}{% do rejected.append(table_name ~ '_rejected') %}{% endfor %}
{%- for landing in cdcflow.landing_relations(source_format, tables) %}{% do rejected.append(landing.name ~ '_unclaimed') %}{% endfor %}

rejected as (
    {{- cdcflow.union_all(rejected) }}

),

-- the landed rows of the rejected messages, read back (landed_kafka_raw_rows)
{%- set raw_rows = [] %}
{%- for landing in cdcflow.landing_relations(source_format, tables) %}
{%- do raw_rows.append(landing.name ~ '_raw_rows') %}

{{ landing.name }}_raw_rows as (

    select
        '{{ landing.name }}' as raw_table,
        *
    from ({{ cdcflow.landed_kafka_raw_rows(
        landing.relation,
        "(select * from rejected where raw_table = '" ~ landing.name ~ "')",
        cdcflow.landed_in_range(ranges[landing.name])
    ) }}) as raw_rows

),
{%- endfor %}

raw_rows as (
    {{- cdcflow.union_all(raw_rows) }}

),

rejected_with_raw_rows as (

    select
        rejected.*,
        raw_rows.raw_row
    from rejected
    left join raw_rows
        on rejected.raw_table = raw_rows.raw_table
        and rejected.topic <=> raw_rows.topic
        and rejected.kafka_partition <=> raw_rows.kafka_partition
        and rejected.kafka_offset <=> raw_rows.kafka_offset
        and rejected.landed_at <=> raw_rows.landed_at

),

{{ cdcflow.append_new_rejections('rejected_with_raw_rows', [
    'source_table', 'raw_table', 'topic', 'kafka_partition', 'kafka_offset', 'reason', 'raw_row', 'landed_at'
]) }}
{% endmacro %}
