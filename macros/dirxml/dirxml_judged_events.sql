{% macro dirxml_judged_events(table_name) %}
    {{ return(adapter.dispatch('dirxml_judged_events', 'cdcflow')(table_name)) }}
{% endmacro %}

{% macro default__dirxml_judged_events(table_name) %}
    {{ config(
        materialized='cdcflow_incremental', file_format=cdcflow.table_format(), incremental_strategy='append', on_schema_change='append_new_columns',
        post_hook=["{{ cdcflow.drop_incremental_temp_view(this) }}"]
    ) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'dirxml') -%}
    {%- set key_names = [] -%}
    {%- for column in cfg.key -%}{%- do key_names.append(cfg.table_key_names[column]) -%}{%- endfor -%}
    {%- set driver_user = var('cdcflow_dirxml_driver_user', 'IDMDRIVER') %}
    {#- the events earlier runs decided (this model's rows; redoing a range, those decided
        before the run that did not end: its events are decided again): an event landed
        again is not decided twice, a record_id delivered again is compared with them -#}
    {%- set decided_before = none -%}
    {#- the table's columns follow the configured ones: one configured since is added
        (on_schema_change), one no longer configured (dropped or renamed) is null in the
        rows appended from now on. Nothing reads the typed columns of earlier runs' rows
        (the change log reads the run's: appended_in_this_run) -#}
    {%- set unconfigured_columns = [] -%}
    {%- if cdcflow.is_incremental_run() -%}
        {%- set known = (cfg.column_names + [
            'record_id', 'event_type', 'event_type_name', 'event_time', 'perpetrator', 'table_name',
            'table_key', 'column_name', 'field', 'data_present', 'data_changed', 'outcome_status',
            'outcome_reason', 'is_published', 'is_rejected', 'raw_row', 'landed_at', 'loaded_at'
        ]) | map('lower') | list -%}
        {%- for column in adapter.get_columns_in_relation(this) if column.name | lower not in known -%}
            {%- do unconfigured_columns.append(column) -%}
        {%- endfor -%}
        {%- set group_range = cdcflow.processing_range(table_name) -%}
        {%- set decided_before = 'loaded_at < ' ~ (
            group_range.last_ended_at if group_range.reprocessing == 'true' else cdcflow.run_loaded_at()
        ) -%}
    {%- endif %}
{%- set staged %}
with

staged as (

    select *, {{ cdcflow.dirxml_event_content('raw_row') }} as event_content
    from {{ ref(cdcflow.table_model_name(table_name, 'events')) }}

)
{%- endset %}
{#- the decided events this run's may repeat: those of its record_ids (Delta Lake's and
    Iceberg's file statistics skip the others) -#}
{%- set decided_ids = cdcflow.dirxml_record_id_bounds(staged, 'staged') if decided_before else 'false' %}
{{ staged }},
{%- if decided_before %}

decided_again as (

    -- the events decided before under this run's record_ids (delivered again)
    select
        decided.record_id,
        {{ cdcflow.dirxml_event_content('decided.raw_row') }} as event_content,
        decided.landed_at
    from (
        select record_id, raw_row, landed_at from {{ this }} where {{ decided_ids }} and {{ decided_before }}
    ) as decided
    left semi join staged
        on decided.record_id = staged.record_id

),
{%- endif %}

events as (

    -- the run's events less those decided before, landed again (the landing overlap,
    -- a replay): an event is its content under its record_id (its raw row, when it has
    -- none); a record_id decided with another content stays, to be judged a conflict
    select staged.*
    from staged
    {%- if decided_before %}
    left anti join decided_again
        on staged.record_id = decided_again.record_id
        and staged.event_content = decided_again.event_content
    left anti join (
        select raw_row
        from {{ this }}
        where record_id is null and {{ decided_before }}
    ) as decided_without_id
        on staged.record_id is null
        and staged.raw_row = decided_without_id.raw_row
    {%- endif %}

),

first_deliveries as (

    -- each record_id delivered more than once (in this run, or decided by an
    -- earlier run) with its first delivery, the one applied: the one decided,
    -- else the first landed (ties by content, as the change log takes it)
    select
        record_id,
        min_by(
            named_struct('content', event_content, 'landed_at', landed_at),
            named_struct('is_new', is_new, 'landed_at', landed_at, 'tie', xxhash64(event_content))
        ) as first_delivery
    from (
        select record_id, event_content, landed_at, true as is_new
        from events
        where record_id is not null
        {%- if decided_before %}

        union all

        select record_id, event_content, landed_at, false as is_new
        from decided_again
        {%- endif %}
    ) as deliveries
    group by record_id
    having count(*) > 1

),

events_with_first as (

    select events.*, first_deliveries.first_delivery
    from events
    left join first_deliveries
        on events.record_id = first_deliveries.record_id

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
            when first_delivery.content <> event_content
                then concat(
                    'conflicts with the event applied under the same record_id (landed ',
                    coalesce(cast(first_delivery.landed_at as string), 'at an unknown time'),
                    '), whose content differs: ', first_delivery.content
                )
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
            {#- a column of except_columns is the source's: its events are read, their values not kept #}
            when event_type in (1, 2, 3, 7, 8) and not array_contains(
                {{ cdcflow.string_array((cfg.column_names + cfg.except_columns) | map('lower') | list) }}, field
            )
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
    from events_with_first

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
        {%- for column in unconfigured_columns %}
        cast(null as {{ column.data_type }}) as {{ column.name }},
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
        landed_at,
        {{ cdcflow.run_loaded_at() }} as loaded_at
    from judged

)

select * from validated
{% endmacro %}
