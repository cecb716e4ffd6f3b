{% macro dirxml_change_log(table_name) %}
    {{ return(adapter.dispatch('dirxml_change_log', 'cdcflow')(table_name)) }}
{% endmacro %}

{% macro default__dirxml_change_log(table_name) %}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'dirxml') -%}
    {%- set problem = cdcflow.dirxml_table_problem(table_name) -%}
    {%- if problem -%}
        {{ exceptions.raise_compiler_error(problem) }}
    {%- endif -%}
    {{ cdcflow.change_log_config(table_name) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- set group_range = cdcflow.processing_range(table_name) -%}
    {#- the decided events: this run's (an event is decided once: one an earlier run decided,
        read again by the landing overlap, is not among them; redoing a range, the run that
        did not end's are decided again), and earlier runs' for the change logged last -#}
    {%- set decided = ref(cdcflow.table_model_name(table_name, 'events_decided')) -%}
    {%- set key = cfg.key -%}
    {%- if cdcflow.is_incremental_run() -%}
        {#- the change earlier runs logged last: this run's first events may go on with it -#}
        {%- set last = cdcflow.dirxml_last_logged_change(cfg, this, decided, group_range) -%}
    {%- endif %}
with

landed as (

    -- (within the range: the group's staging reads every landed row when another of
    -- its models is built from scratch, and those before the range are logged)
    select *
    from {{ decided }}
    where {{ cdcflow.appended_in_this_run() }} and {{ cdcflow.landed_in_range(group_range) }}

),

landed_published as (

    select * from landed where is_published

),
{%- if cdcflow.is_incremental_run() %}

last_logged as (

    -- the change earlier runs logged last, its newest row, with the fields and the
    -- kind of its events and its last event (looked up before this query:
    -- dirxml_last_logged_change)
    select
        logged.*,
        {{ last.logged_fields }} as logged_fields,
        {{ last.logged_kind }} as logged_kind,
        {{ last.last_record_id }} as last_record_id
    from (
        select *
        from {{ this }}
        where
            {{ last.row }}
            {%- if group_range.reprocessing == 'true' %}
            and loaded_at < {{ group_range.last_ended_at }}
            {%- endif %}
        order by loaded_at desc
        limit 1
    ) as logged

),
{%- endif %}

blocks as (

    -- the record_id before each block of 2^20 record ids: the last published one
    -- of the blocks below it (one row per block)
    select
        record_block,
        max(last_record_id) over (
            order by record_block rows between unbounded preceding and 1 preceding
        ) as record_id_before
    from (
        select record_id div 1048576 as record_block, max(record_id) as last_record_id
        from landed_published
        group by record_id div 1048576
    ) as block_ends

),

sequenced as (

    -- each delivery with the record_id of the row before it in record_id order,
    -- the latest landed first, computed in parallel per block (a window ordered
    -- over every event would sort them all in one task)
    select
        *,
        lag(record_id) over (
            partition by record_id div 1048576 order by record_id asc, landed_at desc
        ) as record_id_of_row_before
    from landed_published

),

published as (

    -- an event landed twice is one event, its latest delivery (dirxml_judged_events
    -- rejects a delivery whose content differs from the first one), with the
    -- record_id of the table's event before it
    select /*+ broadcast(block) */
        sequenced.* except (record_id_of_row_before),
        case
            when event_type in (1, 7) then 'field insert'
            when event_type in (2, 3, 8) then 'field update'
            else concat('row event ', record_id)
        end as change_kind,
        coalesce(sequenced.record_id_of_row_before, block.record_id_before) as previous_record_id
    from sequenced
    inner join blocks as block
        on sequenced.record_id div 1048576 = block.record_block
    where not sequenced.record_id_of_row_before <=> sequenced.record_id

),

islands as (

    -- runs of consecutive events (record_id order) of one key, one kind and one
    -- event_time, named by their first record_id: an event continues the run of
    -- its key's previous event when that one is the table's previous event
    select
        *,
        max(case when starts_island then record_id end) over (
            partition by {{ key | join(', ') }} order by record_id rows between unbounded preceding and current row
        ) as island
    from (
        select
            *,
            not coalesce(
                lag(record_id) over by_key = previous_record_id
                and lag(change_kind) over by_key = change_kind
                and lag(event_time) over by_key = event_time,
                false
            ) as starts_island
        from published
        window by_key as (partition by {{ key | join(', ') }} order by record_id)
    ) as marked

),
{%- if cdcflow.is_incremental_run() %}

continued as (

    -- the island starting with this run's first event after the change logged
    -- last (no event of the table between them; late events before it do not
    -- count) when it goes on with that change: the same key, kind and event_time
    select
        first_event.island,
        last_logged.* except (logged_kind, last_record_id)
    from (
        select *
        from islands
        where record_id > {{ last.last_record_id }}
        order by record_id
        limit 1
    ) as first_event
    inner join last_logged
        on {{ cdcflow.key_match('first_event', 'last_logged', key) }}
        and first_event.change_kind = last_logged.logged_kind
        and first_event.event_time = last_logged.committed_at
    where first_event.island = first_event.record_id

),
{%- endif %}

island_events as (

    -- each island's events in record_id order (grouped by key too: the rows are
    -- already shuffled by key, so neither this nor the grouping below shuffles them)
    select
        {%- for column in key %}
        islands.{{ column }},
        {%- endfor %}
        islands.island,
        array_sort(collect_list(struct(
            islands.record_id,
            islands.field,
            islands.change_kind,
            islands.event_type,
            islands.event_time,
            islands.landed_at,
            islands.data_present,
            islands.data_changed
            {%- for column in cfg.data_columns %},
            islands.{{ column }}
            {%- endfor %}
        ))) as events,
        {%- if cdcflow.is_incremental_run() %}
        coalesce(first(continued.logged_fields), cast(array() as array<string>)) as fields_before
        {%- else %}
        cast(array() as array<string>) as fields_before
        {%- endif %}
    from islands
    {%- if cdcflow.is_incremental_run() %}
    left join continued on islands.island = continued.island
    {%- endif %}
    group by {% for column in key %}islands.{{ column }}, {% endfor %}islands.island

),

parts as (

    -- within a run, a field named again starts the next change (in the island
    -- going on with the change logged last, a field that change named too)
    select
        {%- for column in key %}
        {{ column }},
        {%- endfor %}
        island,
        island_event.event.*,
        island_event.part
    from island_events
    lateral view explode(zip_with(
        events,
        aggregate(
            events,
            named_struct('part', 0, 'fields', fields_before, 'parts', cast(array() as array<int>)),
            (acc, event) -> case
                when array_contains(acc.fields, event.field)
                    then named_struct(
                        'part', acc.part + 1,
                        'fields', array(event.field),
                        'parts', array_append(acc.parts, acc.part + 1)
                    )
                else named_struct(
                    'part', acc.part,
                    'fields', case
                        when event.field is null then acc.fields else array_append(acc.fields, event.field)
                    end,
                    'parts', array_append(acc.parts, acc.part)
                )
            end
        ).parts,
        (event, part) -> named_struct('event', event, 'part', part)
    )) exploded as island_event

),

grouped as (

    select
        {%- for column in key %}
        {{ column }},
        {%- endfor %}
        {%- for column in cfg.data_columns %}
        first(
            case
                when array_contains(data_present, '{{ column }}') then named_struct('value', {{ column }})
            end,
            true
        ).value as {{ column }},
        {%- endfor %}
        first(change_kind) as change_kind,
        min(event_type) as event_type,
        min(record_id) as first_record_id,
        max(event_time) as committed_at,
        array_distinct(flatten(collect_list(data_present))) as fields_present,
        array_distinct(flatten(collect_list(data_changed))) as fields_changed,
        max(landed_at) as landed_at,
        island,
        part
    from parts
    group by {% for column in key %}{{ column }}, {% endfor %}island, part

),
{%- if cdcflow.is_incremental_run() %}

amended as (

    -- the part going on with the change logged last becomes that change, whole:
    -- its fields over the logged ones, under the logged change_order
    select
        {%- for column in cfg.key %}
        part_change.{{ column }},
        {%- endfor %}
        {%- for column in cfg.data_columns %}
        case
            when continued.island is null or array_contains(part_change.fields_present, '{{ column }}')
                then part_change.{{ column }}
            else continued.{{ column }}
        end as {{ column }},
        {%- endfor %}
        part_change.change_kind,
        part_change.event_type,
        coalesce(cast(left(continued.change_order, 19) as bigint), part_change.first_record_id) as first_record_id,
        part_change.committed_at,
        case
            when continued.island is null then part_change.fields_present
            else array_union(continued.present_columns, part_change.fields_present)
        end as fields_present,
        case
            when continued.island is null then part_change.fields_changed
            else array_union(continued.changed_columns, part_change.fields_changed)
        end as fields_changed,
        part_change.landed_at,
        continued.island is not null as amends_logged
    from grouped as part_change
    left join continued
        on part_change.island = continued.island and part_change.part = 0

),
{%- endif %}

changes as (

    select
        {%- for column in cfg.column_names %}
        {{ column }},
        {%- endfor %}
        case
            when change_kind = 'field insert' or event_type = 5 then 'I'
            when change_kind = 'field update' or event_type = 6 then 'U'
            when event_type = 4 then 'D'
        end as operation,
        concat(lpad(cast(first_record_id as string), 19, '0'), '0') as change_order,
        committed_at,
        cast(null as string) as transaction_id,
        case
            when event_type = 4 then {{ cdcflow.string_array(cfg.key) }}
            when change_kind = 'field insert' or event_type = 5 then {{ cdcflow.string_array(cfg.column_names) }}
            else {{ cdcflow.names_where(cfg.data_columns, 'array_contains(fields_changed, {name})') }}
        end as changed_columns,
        case
            when event_type = 4 then {{ cdcflow.string_array(cfg.column_names) }}
            else {{ cdcflow.names_where(
                cfg.column_names,
                'array_contains(' ~ cdcflow.string_array(cfg.key) ~ ', {name}) or array_contains(fields_present, {name})'
            ) }}
        end as present_columns,
        landed_at,
        {%- if cdcflow.is_incremental_run() %}
        amends_logged
    from amended
        {%- else %}
        false as amends_logged
    from grouped
        {%- endif %}

),

{#- a change's commit time is its last event's event_time: none is before the landed events' -#}
{{ cdcflow.append_new_changes(
    cfg, 'changes', 'dirxml', group_range, amends_logged='amends_logged',
    changes_since='select min(to_date(event_time)) from landed'
) }}
{% endmacro %}
