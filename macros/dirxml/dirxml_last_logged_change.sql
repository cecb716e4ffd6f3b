{% macro dirxml_last_logged_change(cfg, change_log, decided, group_range) %}
    {#- The change that earlier runs logged last in a DirXML change log (the
        greatest change_order), looked up once before the change-log model runs,
        as SQL for that model: 'row' (a condition selecting its rows in the change
        log, 'false' when nothing is logged yet; its partition named as text: a
        date literal compared with change_date goes to the Hive metastore as a
        filter, which the embedded Derby one may fail on,
        INTERNAL_ERROR_HIVE_METASTORE_PARTITION_FILTER), 'logged_fields' (the
        lowercased fields of its events, an array), 'logged_kind' ('field insert', 'field
        update' or null) and 'last_record_id' (its last event, or null). Earlier
        runs: not the run that did not end (reprocessing: its changes are re-read
        whole). -#}
    {%- set nothing = {
        'row': 'false',
        'logged_fields': 'cast(array() as array<string>)',
        'logged_kind': 'cast(null as string)',
        'last_record_id': 'cast(null as bigint)',
    } -%}
    {%- if not execute -%}{{ return(nothing) }}{%- endif -%}
    {%- set logged_before = 'loaded_at < ' ~ group_range.last_ended_at
        if group_range.reprocessing == 'true' else 'true' -%}
    {%- set query -%}
        with logged as (
            select change_order, change_date
            from {{ change_log }}
            where {{ logged_before }}
            order by change_order desc
            limit 1
        )
        select
            logged.change_order,
            date_format(logged.change_date, 'yyyy-MM-dd'),
            to_json(logged_events.logged_fields),
            logged_events.logged_kind,
            logged_events.last_record_id
        from logged
        cross join (
            select
                collect_set(lower(column_name)) as logged_fields,
                case
                    when bool_and(event_type in (1, 7)) then 'field insert'
                    when bool_and(event_type in (2, 3, 8)) then 'field update'
                end as logged_kind,
                max(record_id) as last_record_id
            from {{ decided }}
            where
                is_published
                and loaded_at < {{ cdcflow.run_loaded_at() }}
                {%- if group_range.reprocessing == 'true' %}
                and loaded_at < {{ group_range.last_ended_at }}
                {%- endif %}
                and record_id >= (select cast(left(max(change_order), 19) as bigint) from logged)
        ) as logged_events
    {%- endset -%}
    {%- set rows = run_query(query) -%}
    {%- if rows | length == 0 -%}{{ return(nothing) }}{%- endif -%}
    {%- set row = rows[0] -%}
    {%- set fields = [] -%}
    {%- for field in (fromjson(row[2]) if row[2] is not none else []) -%}
        {%- do fields.append(cdcflow.sql_string(field)) -%}
    {%- endfor -%}
    {{ return({
        'row': ("cast(change_date as string) = '" ~ row[1] ~ "'" if row[1] is not none else 'change_date is null')
            ~ ' and change_order = ' ~ cdcflow.sql_string(row[0]),
        'logged_fields': 'array(' ~ fields | join(', ') ~ ')' if fields else nothing.logged_fields,
        'logged_kind': cdcflow.sql_string(row[3]) if row[3] is not none else nothing.logged_kind,
        'last_record_id': row[4] | string if row[4] is not none else nothing.last_record_id,
    }) }}
{% endmacro %}
