{% macro stg_debezium_events(table_name) %}
    {{ return(adapter.dispatch('stg_debezium_events', 'cdcflow')(table_name)) }}
{% endmacro %}

{% macro default__stg_debezium_events(table_name) %}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'debezium') -%}
    {%- set operations = {'c': 'I', 'u': 'U', 'd': 'D', 'r': 'L'} -%}
    {%- set decimal_columns = [] -%}
    {%- for column, data_type in cfg.columns.items() -%}
        {%- if (data_type | lower).startswith('decimal') -%}{%- do decimal_columns.append(column) -%}{%- endif -%}
    {%- endfor -%}
    {%- set lsn_pattern = "'^[0-9a-fA-F]{8}:[0-9a-fA-F]{8}:[0-9a-fA-F]{4}$'" -%}

with

events as (

    -- the run's events of the table's landing table, parsed once for every reader
    {{ cdcflow.debezium_landed_parsed_events(source(cfg.source, cfg.raw_table)) }}

),

table_events as (

    -- this table's events: by the source block's schema/table, or by topic
    select *
    from events
    where
        {%- if cfg.topic %}
        topic = '{{ cfg.topic }}'
        {%- else %}
        parse_error is null and lower(payload.source.table) = lower('{{ cfg.source_table }}')
        {%- if cfg.source_schema %}
        and lower(payload.source.schema) = lower('{{ cfg.source_schema }}')
        {%- endif %}
        {%- endif %}

),

schemas as (

    -- each distinct Connect schema of the events, its row fields parsed once
    select
        schema_json,
        {{ cdcflow.debezium_field_schemas('schema_json') }} as field_schemas
    from (select distinct schema_json from table_events where schema_json is not null) as distinct_schemas

),

row_values as (

    -- only what the next steps read (each step copies its rows)
    select /*+ broadcast(schemas) */
        table_events.topic,
        table_events.kafka_partition,
        table_events.kafka_offset,
        struct(payload.op as op, payload.source as source, payload.transaction as transaction) as payload,
        schemas.field_schemas,
        table_events.parse_error,
        table_events.landed_at,
        case payload.op
            {%- for name, operation in operations.items() %}
            when '{{ name }}' then '{{ operation }}'
            {%- endfor %}
        end as operation,
        -- the row the event describes: `after`, or `before` for a delete
        {{ cdcflow.lowered_map_keys("if(payload.op = 'd', payload.before, payload.after)") }}
            as row_text,
        {{ cdcflow.lowered_map_keys('payload.before') }} as before_text
    from table_events
    left join schemas
        on table_events.schema_json = schemas.schema_json

),

texts as (

    -- each column's text and Connect schema, looked up once
    select
        *,
        {%- for column in cfg.column_names %}
        row_text['{{ column }}'] as {{ column }}__text,
        field_schemas['{{ column }}'] as {{ column }}__schema,
        {%- endfor %}
        {%- for column in decimal_columns %}
        hex(try_to_binary(row_text['{{ column }}'], 'base64')) as {{ column }}__base64_digits,
        {%- endfor %}
        {{ cdcflow.names_where(cfg.column_names, 'map_contains_key(row_text, {name})') }} as present_columns
    from row_values

),

typed as (

    select
        *,
        {%- for column, data_type in cfg.columns.items() %}
        {{ cdcflow.debezium_typed_value(
            column ~ "__text", column ~ "__schema", data_type,
            cfg.connect_types.get(column), cfg.decimal_handling_mode,
            column ~ "__base64_digits" if column in decimal_columns else none
        ) }} as {{ column }}
        {{- ',' if not loop.last }}
        {%- endfor %}
    from texts

),

validated as (

    select
        topic,
        kafka_partition,
        kafka_offset,
        {%- for column in cfg.column_names %}
        {{ column }},
        {%- endfor %}
        operation,
        case
            when operation = 'L' then repeat('0', 59)
            else concat(
                lower(replace(payload.source.commit_lsn, ':', '')),
                lower(replace(payload.source.change_lsn, ':', '')),
                lpad(payload.source.event_serial_no, 19, '0')
            )
        end as change_order,
        case when operation <> 'L' then timestamp_millis(payload.source.ts_ms) end as committed_at,
        coalesce(payload.transaction.id, payload.source.commit_lsn) as transaction_id,
        case operation
            when 'D' then {{ cdcflow.string_array(cfg.key) }}
            when 'U' then {{ cdcflow.names_where(
                cfg.column_names,
                'map_contains_key(row_text, {name}) and (before_text is null or not (row_text[{name}] <=> before_text[{name}]))'
            ) }}
            else present_columns
        end as changed_columns,
        present_columns,
        case
            when parse_error is not null then parse_error
            when operation is null
                then concat('unknown operation ', coalesce(concat('''', payload.op, ''''), 'null'))
            when row_text is null
                then concat('op ''', payload.op, ''' without its ', case when payload.op = 'd' then 'before' else 'after' end, ' row')
            when operation <> 'L' and not (
                coalesce(payload.source.commit_lsn rlike {{ lsn_pattern }}, false)
                and coalesce(payload.source.change_lsn rlike {{ lsn_pattern }}, false)
                and coalesce(payload.source.event_serial_no rlike '^[0-9]{1,19}$', false)
            )
                then concat(
                    'malformed source position (commit_lsn ', coalesce(payload.source.commit_lsn, 'null'),
                    ', change_lsn ', coalesce(payload.source.change_lsn, 'null'),
                    ', event_serial_no ', coalesce(payload.source.event_serial_no, 'null'),
                    '): expected xxxxxxxx:xxxxxxxx:xxxx LSNs and a serial number'
                )
            when operation <> 'L' and payload.source.ts_ms is null then 'no source.ts_ms (commit time)'
            {%- for column in cfg.key %}
            when {{ column }} is null then 'null key column {{ column }}'
            {%- endfor %}
            {%- for column, data_type in cfg.columns.items() %}
            when {{ column }}__text is not null and {{ column }} is null
                then concat(
                    'value ', {{ column }}__text, ' of column {{ column }} (',
                    coalesce({{ column }}__schema.name, {{ column }}__schema.type, 'no schema'),
                    ') does not decode as {{ data_type }}'
                )
            {%- endfor %}
        end as invalid_reason,
        landed_at
    from typed

)

select * from validated
{% endmacro %}
