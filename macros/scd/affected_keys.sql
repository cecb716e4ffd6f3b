{% macro affected_keys(key) %}
    {#- Body of a chain's CTE affected_keys: each key with new changes, and its
        first new change_order (from the CTE new_changes). -#}
    select
        {{ key | join(', ') }},
        min(change_order) as first_new_change_order
    from new_changes
    group by {{ key | join(', ') }}
{%- endmacro %}
