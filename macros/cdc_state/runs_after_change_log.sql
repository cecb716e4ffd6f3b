{% macro runs_after_change_log(table_name) -%}
    {#- A `-- depends_on:` line making the calling model run after the group's
        change log without reading it: a model that reads a table's landed rows
        beside its change log (a quarantine) runs after it: a run that fails in
        the change log writes no quarantine rows of the range it did not log. -#}
    -- depends_on: {{ ref('int_' ~ table_name ~ '__changes_logged') }} (order only)
{% endmacro %}
