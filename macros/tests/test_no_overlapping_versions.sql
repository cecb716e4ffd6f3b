{% test no_overlapping_versions(model, key_columns) %}
    {#- Fails on every version that is still open, or ends after the next version
        of its key starts, in the total order (change_order). -#}
    with ordered as (
        select
            {{ key_columns | join(', ') }},
            change_order,
            valid_to_change_order,
            lead(change_order) over (
                partition by {{ key_columns | join(', ') }} order by change_order
            ) as next_change_order
        from {{ model }}
    )
    select *
    from ordered
    where
        next_change_order is not null
        and (valid_to_change_order is null or valid_to_change_order > next_change_order)
{% endtest %}
