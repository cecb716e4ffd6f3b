{% macro dirxml_event_log(relation, columns) %}
    {#- Every row of a landed DirXML event-log table (reference 003) under the
        reference's column names (`columns` maps them to the table's own names,
        which the reference lets a site rename), typed leniently, with the landed
        row as JSON (raw_row, for quarantine) and when it landed. -#}
    {%- set names = {} -%}
    {%- for name in ['record_id', 'status', 'event_type', 'event_time', 'perpetrator', 'table_name',
                     'table_key', 'column_name', 'old_value', 'new_value'] -%}
        {%- do names.update({name: adapter.quote(columns.get(name, name))}) -%}
    {%- endfor %}
    select
        try_cast({{ names.record_id }} as bigint) as record_id,
        cast({{ names.status }} as string) as status,
        try_cast({{ names.event_type }} as int) as event_type,
        cast({{ names.event_type }} as string) as event_type_text,
        try_cast({{ names.event_time }} as timestamp) as event_time,
        cast({{ names.perpetrator }} as string) as perpetrator,
        cast({{ names.table_name }} as string) as table_name,
        cast({{ names.table_key }} as string) as table_key,
        cast({{ names.column_name }} as string) as column_name,
        cast({{ names.old_value }} as string) as old_value,
        cast({{ names.new_value }} as string) as new_value,
        _cdcflow_raw_row as raw_row,
        _cdcflow_landed_at as landed_at
    from ({{ cdcflow.landed_raw_rows(relation) }}) as landed
{%- endmacro %}
