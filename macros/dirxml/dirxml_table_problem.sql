{% macro dirxml_table_problem(table_name) %}
    {#- Why a DirXML table's events cannot be read when a model of a run that
        processes it runs, or none: its query-back source table lacks a
        configured column (query-back events read the row from there). Its
        change log fails with it; its staging gives no events; the shared
        dirxml_event_outcomes and dirxml_quarantine leave it out, so its events
        stay unprocessed (status N, no outcome) for the run that reads its range
        again, and the other tables' events are judged. None at parse time, in
        unit tests, `dbt compile` and `docs`. (A source table that does not
        exist makes query-back events errors, E, by the reference.) -#}
    {%- if not execute or model.resource_type == 'unit_test' or table_name not in cdcflow.cdc_groups_in_run() -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'dirxml') -%}
    {%- set raw = cdcflow.raw_table_relation(cfg, 'query_back_table') -%}
    {%- if raw and raw.relation is not none -%}
        {%- set relation = raw.relation -%}
        {%- set names = cdcflow.landed_columns(relation) | map(attribute='name') | map('lower') | list -%}
        {%- for column in cfg.column_names if column | lower not in names -%}
            {{ return("cdcflow: column '" ~ column ~ "' of table '" ~ cfg.name ~ "' is not in its source table "
                ~ relation ~ " (its columns: " ~ names | join(', ') ~ "); query-back events read the row "
                ~ "from there (set query_back_table if it has another name).") }}
        {%- endfor -%}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}
