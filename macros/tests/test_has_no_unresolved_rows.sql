{% test has_no_unresolved_rows(model, resolved, columns=['source_table', 'raw_table', 'raw_row']) %}
    {#- Fails (or warns, per the test's severity) on every row of the model that
        `resolved` (a relation listing the rows whose cause was resolved later)
        does not hold, matched on `columns` (null-safe). When neither changed in
        this run (test_has_nothing_new), `model` reads no row and `resolved` is
        not read. -#}
    with entry as (select * from {{ model }})

    select entry.*
    from entry
    {%- if not cdcflow.test_has_nothing_new() %}
    left anti join {{ resolved }} as resolved
        on
        {%- for column in columns %}
        entry.{{ column }} <=> resolved.{{ column }}{{ ' and' if not loop.last }}
        {%- endfor %}
    {%- endif %}
{% endtest %}
