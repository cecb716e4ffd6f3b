{% macro landing_watermark(relation, where=none) %}
    {#- Scalar subquery: newest `landed_at` already processed into `relation`, less the
        landing overlap (var cdcflow_landing_overlap_minutes). Rows landed at or after
        it are read again; the models de-duplicate them. -#}
    {%- set overlap = var('cdcflow_landing_overlap_minutes', 60) | int -%}
    (
        select coalesce(max(landed_at), timestamp'1900-01-01 00:00:00') - interval {{ overlap }} minutes
        from {{ relation }}
        {%- if where %}
        where {{ where }}
        {%- endif %}
    )
{%- endmacro %}
