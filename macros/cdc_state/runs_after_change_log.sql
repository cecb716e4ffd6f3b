{% macro runs_after_change_log(table_name) -%}
    {#- A `-- depends_on:` line making the calling model run after the group's
        change log without reading it: a model that reads a table's landed rows
        beside its change log (a quarantine, the DirXML outcomes) runs after it,
        which the DirXML change log needs (it reads the outcomes of earlier runs
        only). -#}
    -- depends_on: {{ ref('int_' ~ table_name ~ '__changes_logged') }} (order only)
{% endmacro %}
