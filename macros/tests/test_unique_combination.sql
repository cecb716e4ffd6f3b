{% test unique_combination(model, columns) %}
    {#- Fails on every combination of `columns` that occurs more than once. -#}
    select {{ columns | join(', ') }}, count(*) as occurrences
    from {{ model }}
    group by {{ columns | join(', ') }}
    having count(*) > 1
{% endtest %}
