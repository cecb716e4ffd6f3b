{% test has_no_rows(model) %}
    {#- Fails (or warns, per the test's severity) on every row of the model. -#}
    select * from {{ model }}
{% endtest %}
