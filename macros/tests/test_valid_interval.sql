{% test valid_interval(model) %}
    {#- Fails on every closed version that does not end strictly after it starts in
        the total order, or whose valid_to is before its valid_from. Timestamps may
        be equal (several changes in one commit): such a version is empty in time
        but still kept (DESIGN.md section 5). -#}
    select *
    from {{ model }}
    where
        valid_to_change_order is not null
        and (
            valid_to_change_order <= change_order
            or valid_to < valid_from
            or is_current
        )
{% endtest %}
