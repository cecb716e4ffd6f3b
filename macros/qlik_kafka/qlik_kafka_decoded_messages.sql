{% macro qlik_kafka_decoded_messages(table_name) %}
    {#- Body of int_<table>__messages_decoded for a Qlik Kafka source (reference
        000): each of the table's messages (its staging) with the metadata
        message in effect (matching externalSchemaId, else the latest metadata
        message before it in message order, from int_qlik_kafka__table_versions),
        values typed by that metadata, changeMask/columnMask decoded by its
        ordinals (bit 0 = ordinal 1), and a reason when the message cannot be
        applied. One row per message of the run's range, written once per run:
        the change log applies them, the quarantine lists the bad ones with their
        landed message. -#}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'qlik_kafka') -%}
    {%- set configured = cdcflow.string_array(cfg.column_names) -%}
    {%- set operations = {'REFRESH': 'L', 'INSERT': 'I', 'UPDATE': 'U', 'DELETE': 'D'} -%}

with

table_messages as (

    select * from {{ ref('stg_qlik_kafka__' ~ table_name ~ '_messages') }}

),

table_versions as (

    -- every metadata message of the table, oldest first (few rows: one per DDL)
    select
        array_sort(
            collect_list(struct(
                table_version, kafka_timestamp, kafka_offset, topic, kafka_partition, schema_id,
                column_names_by_ordinal, column_types, key_columns
            )),
            (left_version, right_version) -> case
                when struct(left_version.table_version, left_version.kafka_timestamp, left_version.kafka_offset)
                    < struct(right_version.table_version, right_version.kafka_timestamp, right_version.kafka_offset)
                    then -1
                when struct(left_version.table_version, left_version.kafka_timestamp, left_version.kafka_offset)
                    > struct(right_version.table_version, right_version.kafka_timestamp, right_version.kafka_offset)
                    then 1
                else 0
            end
        ) as versions
    from {{ ref('int_qlik_kafka__table_versions') }}
    where
        raw_table = '{{ cfg.raw_table }}'
        and {{ cdcflow.qlik_kafka_names_table('source_schema', 'source_table', cfg) }}

),

with_metadata as (

    select
        table_messages.*,
        transform_keys(message.data, (name, value) -> lower(name)) as data_values,
        transform_keys(message.beforeData, (name, value) -> lower(name)) as before_values,
        coalesce(
            try_element_at(filter(table_versions.versions, v -> v.schema_id = message.headers.externalSchemaId), -1),
            try_element_at(
                filter(
                    table_versions.versions,
                    v -> case
                        when v.topic = table_messages.topic and v.kafka_partition = table_messages.kafka_partition
                            then v.kafka_offset < table_messages.kafka_offset
                        else v.kafka_timestamp <= table_messages.kafka_timestamp
                    end
                ),
                -1
            )
        ) as metadata
    from table_messages
    cross join table_versions

),

decoded as (

    select
        *,
        case message.headers.operation
            {%- for name, operation in operations.items() %}
            when '{{ name }}' then '{{ operation }}'
            {%- endfor %}
        end as operation,
        unhex(message.headers.changeMask) as change_mask,
        unhex(message.headers.columnMask) as column_mask,
        filter(
            {{ cdcflow.decode_change_mask('unhex(message.headers.columnMask)', 'metadata.column_names_by_ordinal') }},
            name -> array_contains({{ configured }}, name)
        ) as masked_present_columns,
        filter(
            {{ cdcflow.decode_change_mask('unhex(message.headers.changeMask)', 'metadata.column_names_by_ordinal') }},
            name -> array_contains({{ configured }}, name)
        ) as masked_changed_columns
    from with_metadata

),

typed as (

    select
        *,
        -- a column absent per columnMask is not present (keeps its previous value);
        -- without columnMask, the columns the message carries are present
        coalesce(
            masked_present_columns, filter({{ configured }}, name -> map_contains_key(data_values, name))
        ) as present_columns
    from decoded

),

valued as (

    select
        *,
        {%- for column, data_type in cfg.columns.items() %}
        {{ cdcflow.qlik_kafka_typed_value("data_values['" ~ column ~ "']", "metadata.column_types['" ~ column ~ "']", data_type) }}
            as {{ column }},
        {%- endfor %}
        {%- for column in cfg.key %}
        {{ cdcflow.qlik_kafka_typed_value("before_values['" ~ column ~ "']", "metadata.column_types['" ~ column ~ "']", cfg.columns[column]) }}
            as before_{{ column }},
        {%- endfor %}
        coalesce(masked_changed_columns, present_columns) as changed_columns
    from typed

),

validated as (

    select
        topic,
        kafka_partition,
        kafka_offset,
        {%- for column in cfg.column_names %}
        case when array_contains(present_columns, '{{ column }}') then {{ column }} end as {{ column }},
        {%- endfor %}
        {%- for column in cfg.key %}
        before_{{ column }},
        {%- endfor %}
        operation,
        case
            when operation = 'L' then repeat('0', 54)
            else concat(
                message.headers.changeSequence,
                lpad(cast(coalesce(message.headers.transactionEventCounter, 0) as string), 19, '0')
            )
        end as base_order,
        case
            when operation <> 'L' then coalesce(
                try_cast(message.headers.timestamp as timestamp),
                {{ cdcflow.qlik_change_seq_committed_at('message.headers.changeSequence') }}
            )
        end as committed_at,
        message.headers.transactionId as transaction_id,
        message.headers.transactionEventCounter as transaction_event_counter,
        message.headers.transactionLastEvent as is_transaction_last_event,
        changed_columns,
        present_columns,
        operation = 'U'
        {%- for column in cfg.key %}
        and before_{{ column }} is not null and before_{{ column }} <> {{ column }}
        {%- endfor %} as is_key_change_candidate,
        case
            when parse_error is not null then parse_error
            when operation is null
                then concat('unknown operation ', coalesce(concat('''', message.headers.operation, ''''), 'null'))
            when metadata is null
                then 'no metadata message in effect for {{ cfg.source_table }} (none landed before this data message)'
            when operation <> 'L' and not coalesce(message.headers.changeSequence rlike '^[0-9]{35}$', false)
                then concat(
                    'malformed changeSequence ', coalesce(concat('''', message.headers.changeSequence, ''''), 'null'),
                    ': expected 35 digits, YYYYMMDDHHmmSShh then a 19-digit change number'
                )
            when message.headers.changeMask is not null and change_mask is null
                or message.headers.columnMask is not null and column_mask is null
                then 'changeMask/columnMask is not a hex string'
            when not coalesce({{ cdcflow.change_mask_fits('change_mask', 'size(metadata.column_names_by_ordinal)') }}, true)
                then concat(
                    'changeMask ', message.headers.changeMask, ' sets a bit beyond the ',
                    size(metadata.column_names_by_ordinal), ' columns of table version ', metadata.table_version
                )
            when not coalesce({{ cdcflow.change_mask_fits('column_mask', 'size(metadata.column_names_by_ordinal)') }}, true)
                then concat(
                    'columnMask ', message.headers.columnMask, ' sets a bit beyond the ',
                    size(metadata.column_names_by_ordinal), ' columns of table version ', metadata.table_version
                )
            when not (metadata.key_columns <=> {{ cdcflow.string_array(cfg.key) }})
                then concat(
                    'the metadata message gives the primary key (', array_join(metadata.key_columns, ', '),
                    '), configured key is ({{ cfg.key | join(", ") }})'
                )
            {%- for column in cfg.key %}
            when {{ column }} is null then 'null key column {{ column }}'
            {%- endfor %}
            {%- for column, data_type in cfg.columns.items() %}
            when array_contains(present_columns, '{{ column }}') and data_values['{{ column }}'] is not null
                and {{ column }} is null
                then concat(
                    'value ''', data_values['{{ column }}'], ''' of column {{ column }} (',
                    coalesce(metadata.column_types['{{ column }}'], 'not in the metadata'), ') does not cast to {{ data_type }}'
                )
            {%- endfor %}
        end as invalid_reason,
        raw_row,
        landed_at
    from valued

),

final as (

    select
        * except (is_key_change_candidate, raw_row, landed_at),
        coalesce(is_key_change_candidate, false) as is_key_change,
        raw_row,
        landed_at
    from validated

)

{{ cdcflow.with_raw_row_for_quarantine('final') }}
{% endmacro %}
