{% macro stg_dirxml_events(table_name) %}
    {{ return(adapter.dispatch('stg_dirxml_events', 'cdcflow')(table_name)) }}
{% endmacro %}

{% macro default__stg_dirxml_events(table_name) %}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'dirxml') -%}
    {%- set log = source(cfg.source, cfg.raw_table) -%}
    {%- set names = [cfg.source_table | lower] -%}
    {%- if cfg.source_schema -%}{%- do names.append((cfg.source_schema ~ '.' ~ cfg.source_table) | lower) -%}{%- endif -%}
    {%- set all_columns = cdcflow.string_array(cfg.column_names) -%}
    {%- set data_columns = cdcflow.string_array(cfg.data_columns) -%}
    {%- set key_names = [] -%}
    {%- for column in cfg.key -%}{%- do key_names.append(cfg.table_key_names[column]) -%}{%- endfor -%}
    {%- set driver_user = var('cdcflow_dirxml_driver_user', 'IDMDRIVER') -%}
    {#- the source table query-back events read: none configured (query_back_table: null),
        or one that does not exist when the run starts, makes query-back events errors -#}
    {%- set source_relation = source(cfg.source, cfg.query_back_table) if cfg.query_back_table else none -%}
    {#- a table whose configuration does not fit its source table: no events this run
        (its change log fails with the problem; outcomes and quarantine leave it out) -#}
    {%- set problem = cdcflow.dirxml_table_problem(table_name) -%}
    {%- set can_query_back = problem is none and source_relation is not none and (
        not execute or model.resource_type == 'unit_test'
        or cdcflow.landed_columns(source_relation) | length > 0
    ) -%}

with

events as (

    -- the rows landed within the group's range of this run (from the beginning when
    -- a model of the group is built from scratch): the change log, the outcomes and
    -- the quarantine read them from here
    select *
    from ({{ cdcflow.dirxml_event_log(log, cfg.event_log_columns) }}) as event_log
    where {{ cdcflow.landed_for_readers(table_name) }}

),

table_events as (

    -- this table's new events (status is case-sensitive; the others are already processed)
    select
        *,
        {{ cdcflow.dirxml_table_key_pairs('table_key') }} as parsed_key,
        case when event_type in (1, 2, 3, 7, 8) then lower(column_name) end as field
    from events
    where status = 'N' and lower(table_name) in ('{{ names | join("', '") }}')
    {%- if problem %}
        and false  -- {{ problem | replace('\n', ' ') }}
    {%- endif %}

),

key_parsed as (

    -- keys the Spark SQL parser took, and the others parsed by the Python UDF, which
    -- says why a key is malformed: every row goes to it, with a null key (parsed at
    -- once) where Spark SQL parsed it, a null table_key as '' (a union of the rows
    -- parsed and the others would evaluate the grammar in both branches' filters)
    select
        * except (parsed_key, field),
        coalesce(
            parsed_key,
            cdcflow_parse_table_key(case when parsed_key is null then coalesce(table_key, '') end)
        ) as parsed_key,
        field
    from table_events

),

keyed as (

    select
        *,
        {%- for column in cfg.key %}
        {{ cdcflow.text_as_type("key_text['" ~ cfg.table_key_names[column] ~ "']", cfg.columns[column]) }}
            as {{ column }},
        {%- endfor %}
        {{ cdcflow.dirxml_event_type_name('event_type') }} as event_type_name
    from (
        select
            *,
            map_from_entries(transform(parsed_key.pairs, pair -> struct(lower(pair.name), pair.value))) as key_text
        from key_parsed
    ) as parsed

),

source_rows as (
    {%- if can_query_back %}

    {{ cdcflow.dirxml_source_rows(source_relation, cfg) }}
    {%- else %}

    select
        {%- for column, data_type in cfg.columns.items() %}
        cast(null as {{ data_type }}) as {{ column }}{{ ',' if not loop.last }}
        {%- endfor %}
    where false
    {%- endif %}

),

queried as (

    -- query-back events read the row as the source table has it now
    select
        event.*,
        {%- for column in cfg.data_columns %}
        source_row.{{ column }} as queried_{{ column }},
        {%- endfor %}
        source_row.{{ cfg.key[0] }} is not null as row_exists
    from keyed as event
    left join source_rows as source_row
        on event.event_type between 5 and 8
        and {{ cdcflow.key_match('event', 'source_row', cfg.key) | replace('<=>', '=') }}

),

valued as (

    select
        *,
        {%- for column, data_type in cfg.columns.items() if column not in cfg.key %}
        case
            when event_type in (1, 2, 3) and field = '{{ column | lower }}'
                then {{ cdcflow.text_as_type('new_value', data_type) }}
            when event_type in (5, 6) or event_type in (7, 8) and field = '{{ column | lower }}'
                then queried_{{ column }}
        end as {{ column }},
        {%- endfor %}
        case
            when event_type in (5, 6) then {{ data_columns }}
            when event_type in (1, 2, 3, 7, 8) then filter({{ data_columns }}, name -> lower(name) = field)
            else cast(array() as array<string>)
        end as data_present,
        -- a field update whose old and new value are the same text changed nothing
        case
            when event_type in (2, 3) and old_value <=> new_value then cast(array() as array<string>)
            when event_type in (1, 2, 3, 7, 8) then filter({{ data_columns }}, name -> lower(name) = field)
            when event_type in (5, 6) then {{ data_columns }}
            else cast(array() as array<string>)
        end as data_changed
    from queried

)

select
    * {%- if cfg.data_columns %} except (
        {%- for column in cfg.data_columns %}queried_{{ column }}{{ ', ' if not loop.last }}{% endfor -%}
    ){%- endif %},
    {%- if can_query_back %}
    cast(null as string) as query_back_error
    {%- elif source_relation is none %}
    'no query_back_table is configured for {{ cfg.name }}' as query_back_error
    {%- else %}
    'the source table {{ source_relation }} does not exist' as query_back_error
    {%- endif %}
from valued
{% endmacro %}
