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

published as (

    -- an event landed twice is one event (dirxml_judged_events rejects a
    -- delivery whose content differs from the first one)
    {{ cdcflow.latest_per_key('landed_published', ['record_id'], 'landed_at desc') }}

),

kinds as (

    select
        *,
        case
            when event_type in (1, 7) then 'field insert'
            when event_type in (2, 3, 8) then 'field update'
            else concat('row event ', record_id)
        end as change_kind
    from published

),

ranked as (

    -- each event's rank in record_id order among the table's events, computed in
    -- parallel (a window ordered over every event would sort them all in one
    -- task): events counted per block of 2^20 record ids, the blocks' counts
    -- summed in order (one row per block), then numbered within their block
    select
        kinds.*,
        block.events_before + row_number() over (
            partition by kinds.record_id div 1048576 order by kinds.record_id
        ) as event_rank
    from kinds
    inner join (
        select
            record_block,
            coalesce(
                sum(block_events) over (order by record_block rows between unbounded preceding and 1 preceding), 0
            ) as events_before
        from (
            select record_id div 1048576 as record_block, count(*) as block_events
            from kinds
            group by record_id div 1048576
        ) as blocks
    ) as block
        on kinds.record_id div 1048576 = block.record_block

),

islands as (

    -- runs of consecutive events (record_id order) of one key, one kind and one
    -- event_time, named by their first record_id: an event continues the run of
    -- its key's previous event when that one is the table's previous event
    select
        *,
        max(case when starts_island then record_id end) over (
            partition by {{ cfg.key | join(', ') }} order by record_id rows between unbounded preceding and current row
        ) as island
    from (
        select
            *,
            not coalesce(
                lag(event_rank) over by_key = event_rank - 1
                and lag(change_kind) over by_key = change_kind
                and lag(event_time) over by_key = event_time,
                false
            ) as starts_island
        from ranked
        window by_key as (partition by {{ cfg.key | join(', ') }} order by record_id)
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

parts as (

    -- within a run, a field named again starts the next change (in the island
    -- going on with the change logged last, a field that change named too)
    select
        part.record_id,
        part.part
    from (
        select
            explode(
                aggregate(
                    array_sort(collect_list(struct(record_id, field))),
                    named_struct(
                        'part', 0,
                        {%- if cdcflow.is_incremental_run() %}
                        'fields', coalesce(first(continued.logged_fields), cast(array() as array<string>)),
                        {%- else %}
                        'fields', cast(array() as array<string>),
                        {%- endif %}
                        'parts', cast(array() as array<struct<record_id: bigint, part: int>>)
                    ),
                    (acc, event) -> case
                        when array_contains(acc.fields, event.field)
                            then named_struct(
                                'part', acc.part + 1,
                                'fields', array(event.field),
                                'parts', array_append(
                                    acc.parts, named_struct('record_id', cast(event.record_id as bigint), 'part', acc.part + 1)
                                )
                            )
                        else named_struct(
                            'part', acc.part,
                            'fields', case
                                when event.field is null then acc.fields else array_append(acc.fields, event.field)
                            end,
                            'parts', array_append(
                                acc.parts, named_struct('record_id', cast(event.record_id as bigint), 'part', acc.part)
                            )
                        )
                    end
                ).parts
            ) as part
        from islands
        {%- if cdcflow.is_incremental_run() %}
        left join continued on islands.island = continued.island
        {%- endif %}
        group by islands.island
    ) as exploded

),

grouped as (

    select
        {%- for column in cfg.key %}
        first(island_event.{{ column }}) as {{ column }},
        {%- endfor %}
        {%- for column in cfg.data_columns %}
        first(
            case
                when array_contains(island_event.data_present, '{{ column }}')
                    then named_struct('value', island_event.{{ column }})
            end,
            true
        ).value as {{ column }},
        {%- endfor %}
        first(island_event.change_kind) as change_kind,
        min(island_event.event_type) as event_type,
        min(island_event.record_id) as first_record_id,
        max(island_event.event_time) as committed_at,
        array_distinct(flatten(collect_list(island_event.data_present))) as fields_present,
        array_distinct(flatten(collect_list(island_event.data_changed))) as fields_changed,
        max(island_event.landed_at) as landed_at,
        island_event.island,
        parts.part
    from islands as island_event
    inner join parts on island_event.record_id = parts.record_id
    group by island_event.island, parts.part

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
