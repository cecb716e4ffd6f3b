{% macro qlik_kafka_decoded_messages(table_name) %}
    {{ return(adapter.dispatch('qlik_kafka_decoded_messages', 'cdcflow')(table_name)) }}
{% endmacro %}

{% macro default__qlik_kafka_decoded_messages(table_name) %}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'qlik_kafka') -%}
    {%- set operations = {'REFRESH': 'L', 'INSERT': 'I', 'UPDATE': 'U', 'DELETE': 'D'} -%}

with

{{ cdcflow.qlik_kafka_metadata_in_effect(ref(cdcflow.table_model_name(table_name, 'messages')), cfg) }},

decoded as (

    -- only what the next steps read: each step is a row copied, and the message
    -- with its two maps is most of a row
    select
        topic,
        kafka_partition,
        kafka_offset,
        message.headers,
        metadata,
        parse_error,
        landed_at,
        {{ cdcflow.lowered_map_keys('message.data') }} as data_values,
        {{ cdcflow.lowered_map_keys('message.beforeData') }} as before_values,
        case message.headers.operation
            {%- for name, operation in operations.items() %}
            when '{{ name }}' then '{{ operation }}'
            {%- endfor %}
        end as operation,
        unhex(message.headers.changeMask) as change_mask,
        unhex(message.headers.columnMask) as column_mask
    from messages_with_metadata

),

typed as (

    select
        * except (data_values, before_values),
        {{ cdcflow.decode_change_mask_by_names(
                'change_mask', cfg.column_names, 'metadata.column_bits', 'metadata.column_names_by_ordinal'
            ) }}
            as masked_changed_columns,
        -- a column absent per columnMask is not present (keeps its previous value);
        -- without columnMask, the columns the message carries are present
        coalesce(
            {{ cdcflow.decode_change_mask_by_names(
                'column_mask', cfg.column_names, 'metadata.column_bits', 'metadata.column_names_by_ordinal'
            ) }},
            {{ cdcflow.names_where(cfg.column_names, 'map_contains_key(data_values, {name})') }}
        ) as present_columns,
        -- each value's text, looked up once
        {%- for column in cfg.column_names %}
        data_values['{{ column }}'] as {{ column }}__text,
        {%- endfor %}
        {%- for column in cfg.key %}
        before_values['{{ column }}'] as {{ column }}__before_text
        {{- ',' if not loop.last }}
        {%- endfor %}
    from decoded

),

valued as (

    select
        *,
        {%- for column, data_type in cfg.columns.items() %}
        {{ cdcflow.qlik_kafka_typed_value(column ~ "__text", "metadata.column_types['" ~ column ~ "']", data_type) }}
            as {{ column }},
        array_contains(present_columns, '{{ column }}') as {{ column }}__is_present,
        {%- endfor %}
        {%- for column in cfg.key %}
        {{ cdcflow.qlik_kafka_typed_value(column ~ "__before_text", "metadata.column_types['" ~ column ~ "']", cfg.columns[column]) }}
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
        case when {{ column }}__is_present then {{ column }} end as {{ column }},
        {%- endfor %}
        {%- for column in cfg.key %}
        before_{{ column }},
        {%- endfor %}
        operation,
        case
            when operation = 'L' then repeat('0', 54)
            else concat(
                headers.changeSequence,
                lpad(cast(coalesce(headers.transactionEventCounter, 0) as string), 19, '0')
            )
        end as base_order,
        case
            when operation <> 'L' then coalesce(
                try_cast(headers.timestamp as timestamp),
                {{ cdcflow.qlik_change_seq_committed_at('headers.changeSequence') }}
            )
        end as committed_at,
        headers.transactionId as transaction_id,
        headers.transactionEventCounter as transaction_event_counter,
        headers.transactionLastEvent as is_transaction_last_event,
        changed_columns,
        present_columns,
        operation = 'U'
        {%- for column in cfg.key %}
        and before_{{ column }} is not null and before_{{ column }} <> {{ column }}
        {%- endfor %} as is_key_change_candidate,
        case
            when parse_error is not null then parse_error
            when operation is null
                then concat('unknown operation ', coalesce(concat('''', headers.operation, ''''), 'null'))
            when metadata is null
                then 'no metadata message in effect for {{ cfg.source_table }} (none landed before this data message)'
            when operation <> 'L' and not coalesce(headers.changeSequence rlike '^[0-9]{35}$', false)
                then concat(
                    'malformed changeSequence ', coalesce(concat('''', headers.changeSequence, ''''), 'null'),
                    ': expected 35 digits, YYYYMMDDHHmmSShh then a 19-digit change number'
                )
            when headers.changeMask is not null and change_mask is null
                or headers.columnMask is not null and column_mask is null
                then 'changeMask/columnMask is not a hex string'
            when not coalesce({{ cdcflow.change_mask_fits('change_mask', 'size(metadata.column_names_by_ordinal)') }}, true)
                then concat(
                    'changeMask ', headers.changeMask, ' sets a bit beyond the ',
                    size(metadata.column_names_by_ordinal), ' columns of table version ', metadata.table_version
                )
            when not coalesce({{ cdcflow.change_mask_fits('column_mask', 'size(metadata.column_names_by_ordinal)') }}, true)
                then concat(
                    'columnMask ', headers.columnMask, ' sets a bit beyond the ',
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
            when {{ column }}__is_present and {{ column }}__text is not null
                and {{ column }} is null
                then concat(
                    'value ''', {{ column }}__text, ''' of column {{ column }} (',
                    coalesce(metadata.column_types['{{ column }}'], 'not in the metadata'), ') does not cast to {{ data_type }}'
                )
            {%- endfor %}
        end as invalid_reason,
        landed_at
    from valued

),

final as (

    select
        * except (is_key_change_candidate, landed_at),
        coalesce(is_key_change_candidate, false) as is_key_change,
        landed_at
    from validated

)

select * from final
{% endmacro %}
