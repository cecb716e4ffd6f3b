{% macro dirxml_judged_events(table_name) %}
    {#- Body of int_<table>__events_judged for a DirXML event log (reference 003):
        each of the table's new events (its staging) with the outcome the
        publisher would record (S, W, E, F) and why, and whether it is published
        (part of a change) or rejected (quarantined). Loop-back events (by var
        cdcflow_dirxml_driver_user) are not published unless var
        cdcflow_dirxml_allow_loopback is true. Read by the change log,
        dirxml_event_outcomes and dirxml_quarantine (inlined: a few expressions
        over the staging table). -#}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'dirxml') -%}
    {%- set key_names = [] -%}
    {%- for column in cfg.key -%}{%- do key_names.append(cfg.table_key_names[column]) -%}{%- endfor -%}
    {%- set driver_user = var('cdcflow_dirxml_driver_user', 'IDMDRIVER') %}

with

events as (

    select * from {{ ref('stg_dirxml__' ~ table_name ~ '_events') }}

),

judged as (

    select
        *,
        {%- if not var('cdcflow_dirxml_allow_loopback', false) and driver_user %}
        -- the publisher skips the driver's own changes (a null perpetrator is another user)
        coalesce(lower(perpetrator) = lower('{{ driver_user }}'), false) as is_loopback,
        {%- else %}
        false as is_loopback,
        {%- endif %}
        (event_type is null or event_type not between 1 and 8) as is_unknown_type,
        case
            when event_type is null or event_type not between 1 and 8
                then concat('unknown event_type ', coalesce(event_type_text, 'null'), ' (the reference defines 1 to 8)')
            when record_id is null or record_id <= 0
                then 'record_id is not a positive integer'
            when event_time is null then 'event_time is empty (the reference requires a value)'
            when parsed_key.error is not null then concat('malformed table_key: ', parsed_key.error)
            when not (
                size(key_text) = {{ cfg.key | length }}
                {%- for name in key_names %}
                and map_contains_key(key_text, '{{ name }}')
                {%- endfor %}
            )
                then concat(
                    'table_key names ', array_join(parsed_key.pairs.name, ', '),
                    '; the key of {{ cfg.source_table }} is {{ key_names | join(", ") }}'
                )
            {%- for column in cfg.key %}
            when {{ column }} is null
                then concat(
                    'table_key value ''', key_text['{{ cfg.table_key_names[column] }}'],
                    ''' of {{ column }} is not a valid {{ cfg.columns[column] }}'
                )
            {%- endfor %}
            when event_type between 5 and 8 and query_back_error is not null
                then concat(event_type_name, ' cannot read the row: ', query_back_error)
            when event_type in (1, 2, 3, 7, 8) and coalesce(column_name, '') = ''
                then concat('event_type ', event_type_text, ' (', event_type_name, ') without column_name')
            when event_type in (1, 2, 3, 7, 8) and not array_contains({{ cdcflow.string_array(cfg.column_names | map('lower') | list) }}, field)
                then concat(
                    'column ', column_name, ' is not a column of {{ cfg.source_table }} ',
                    '({{ cfg.column_names | join(", ") }})'
                )
            {%- for column in cfg.key %}
            when event_type in (1, 2, 3) and field = '{{ column | lower }}'
                and not ({{ cdcflow.text_as_type('new_value', cfg.columns[column]) }} <=> {{ column }})
                then concat(
                    'event changes key column {{ column }} from ', key_text['{{ cfg.table_key_names[column] }}'],
                    ' to ', coalesce(new_value, 'null'),
                    ': log a key change as a row delete (4) of the old key and an insert of the new one'
                )
            {%- endfor %}
            {%- for column, data_type in cfg.columns.items() if column not in cfg.key %}
            when event_type in (1, 2, 3) and field = '{{ column | lower }}' and new_value is not null
                and {{ column }} is null
                then concat(
                    'new_value ''', new_value, ''' of column {{ column }} is not ',
                    {%- if data_type | lower == 'binary' %}
                    'valid Base64 (binary column)'
                    {%- else %}
                    'a valid {{ data_type }}'
                    {%- endif %}
                )
            {%- endfor %}
        end as invalid_reason
    from events

),

validated as (

    select
        record_id,
        event_type,
        event_type_name,
        event_time,
        perpetrator,
        table_name,
        table_key,
        column_name,
        {%- for column in cfg.column_names %}
        {{ column }},
        {%- endfor %}
        field,
        data_present,
        data_changed,
        case
            when is_loopback then 'S'
            when is_unknown_type then 'F'
            when invalid_reason is not null then 'E'
            when event_type between 5 and 8 and not row_exists then 'W'
            else 'S'
        end as outcome_status,
        case
            when is_loopback
                then 'loop-back event of the driver user {{ driver_user }}: not published '
                    || '(var cdcflow_dirxml_allow_loopback is false)'
            when invalid_reason is not null then invalid_reason
            when event_type between 5 and 8 and not row_exists
                then concat(
                    event_type_name, ': the row ', table_key, ' is no longer in {{ cfg.source_table }}; ',
                    'the publisher ignores a query-back event whose row was deleted'
                )
            else concat('published: ', event_type_name, coalesce(concat(' of ', column_name), ''))
        end as outcome_reason,
        not is_loopback and invalid_reason is null and (event_type not between 5 and 8 or row_exists)
            as is_published,
        not is_loopback and invalid_reason is not null as is_rejected,
        raw_row,
        landed_at
    from judged

)

select * from validated
{% endmacro %}
