{% test has_no_unresolved_rows(model, resolved, columns=['source_table', 'raw_table', 'raw_row']) %}
    {#- Fails (or warns, per the test's severity) on every row of the model that
        `resolved` (a relation listing the rows whose cause was resolved later)
        does not hold, matched on `columns` (null-safe). -#}
    select entry.*
    from {{ model }} as entry
    left anti join {{ resolved }} as resolved
        on
        {%- for column in columns %}
        entry.{{ column }} <=> resolved.{{ column }}{{ ' and' if not loop.last }}
        {%- endfor %}
{% endtest %}
