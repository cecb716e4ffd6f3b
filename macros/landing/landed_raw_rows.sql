{% macro landed_raw_rows(relation) %}
    {#- Every row of a raw table with the row itself as JSON (for quarantine) and
        when it landed (see landed_at_expression). -#}
    select
        *,
        to_json(struct(*)) as _cdcflow_raw_row,
        {{ cdcflow.landed_at_expression(relation) }} as _cdcflow_landed_at
    from {{ relation }}
{%- endmacro %}
