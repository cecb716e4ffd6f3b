{% macro landed_raw_rows(relation) %}
    {#- Every row of a raw table with the row itself as JSON (for quarantine) and
        when it landed (var cdcflow_landed_at). -#}
    select
        *,
        to_json(struct(*)) as _cdcflow_raw_row,
        {{ var('cdcflow_landed_at') }} as _cdcflow_landed_at
    from {{ relation }}
{%- endmacro %}
