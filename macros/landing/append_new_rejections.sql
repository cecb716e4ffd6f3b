{% macro append_new_rejections(relation, columns) %}
    {#- The closing CTEs of a quarantine model: the rejected raw rows in `relation`
        (with `columns`, among them source_table, raw_table, raw_row, landed_at),
        once each, less those already quarantined, with this run's loaded_at.
        Starts with a CTE name: call it after the comma of the caller's last CTE. -#}

deduplicated as (

    {{ cdcflow.latest_per_key(relation, ['source_table', 'raw_table', 'raw_row'], 'landed_at desc') }}

),

final as (

    select
        {%- for column in columns %}
        new_row.{{ column }},
        {%- endfor %}
        {{ cdcflow.run_loaded_at() }} as loaded_at
    from deduplicated as new_row
    {%- if cdcflow.is_incremental_run() %}
    left anti join {{ this }} as quarantined
        on new_row.source_table <=> quarantined.source_table
        and new_row.raw_table = quarantined.raw_table
        and new_row.raw_row = quarantined.raw_row
    {%- endif %}

)

select * from final
{%- endmacro %}
