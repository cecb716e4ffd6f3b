{% macro qlik_kafka_table_versions() %}
    {{ return(adapter.dispatch('qlik_kafka_table_versions', 'cdcflow')()) }}
{% endmacro %}

{% macro default__qlik_kafka_table_versions() %}
    {{ config(
        materialized='cdcflow_incremental', file_format=cdcflow.table_format(), incremental_strategy='append', on_schema_change='fail',
        post_hook=["{{ cdcflow.drop_incremental_temp_view(this) }}"]
    ) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- if not cdcflow.enabled_for_format('qlik_kafka') -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set ranges = [] -%}
    {%- for table_name in cdcflow.tables_of_format('qlik_kafka') -%}
        {%- do ranges.append(cdcflow.processing_range(table_name)) -%}
    {%- endfor %}

with

messages as (

    select *
    from {{ ref('base_qlik_kafka__parsed_messages') }}
    where {{ cdcflow.landed_in_range(ranges) }}

),

metadata as (

    select
        raw_table,
        message.lineage.schema as source_schema,
        message.lineage.table as source_table,
        message.lineage.tableVersion as table_version,
        message.schemaId as schema_id,
        -- columns by ordinal: array position i holds ordinal i + 1 (null in a gap)
        transform(
            sequence(1, array_max(map_values(transform_values(message.tableStructure.tableColumns, (n, c) -> c.ordinal)))),
            ordinal -> try_element_at(
                map_keys(map_filter(message.tableStructure.tableColumns, (n, c) -> c.ordinal = ordinal)), 1
            )
        ) as column_names_by_ordinal,
        map_from_entries(
            transform(map_entries(message.tableStructure.tableColumns), c -> struct(lower(c.key), upper(c.value.type)))
        ) as column_types,
        transform(
            array_sort(
                filter(
                    transform(
                        map_entries(message.tableStructure.tableColumns),
                        c -> struct(c.value.primaryKeyPosition as position, lower(c.key) as name)
                    ),
                    c -> c.position > 0
                )
            ),
            c -> c.name
        ) as key_columns,
        topic,
        kafka_partition,
        kafka_offset,
        kafka_timestamp,
        landed_at
    from messages
    where
        parse_error is null
        and message_type = 'MD'
        and message.lineage.table is not null
        and size(message.tableStructure.tableColumns) > 0

),

new_versions as (

    select
        raw_table,
        source_schema,
        source_table,
        table_version,
        schema_id,
        transform(column_names_by_ordinal, name -> lower(name)) as column_names_by_ordinal,
        column_types,
        key_columns,
        topic,
        kafka_partition,
        kafka_offset,
        kafka_timestamp,
        landed_at
    from metadata
    {%- if cdcflow.is_incremental_run() %}
    left anti join {{ this }} as known
        on metadata.raw_table = known.raw_table
        and metadata.topic <=> known.topic
        and metadata.kafka_partition <=> known.kafka_partition
        and metadata.kafka_offset <=> known.kafka_offset
    {%- endif %}

),

final as (

    select
        *,
        (select max(landed_at) from messages) as landed_until,
        {{ cdcflow.run_loaded_at() }} as loaded_at
    from new_versions

)

select * from final
{% endmacro %}
