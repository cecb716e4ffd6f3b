{% macro qlik_ct_table_problem(table_name) %}
    {#- Why a qlik_ct table cannot be read when a model runs, or none: one of
        its raw tables does not exist (on-run-start then recorded its group
        ERROR), its change table lacks a configured column
        (change_table_layout), or its full-load table lacks one
        that the change table lacks too (one the source gained after the full
        load is null in the baseline).
        Read with DESCRIBE when a model of a run that processes the table
        runs; none otherwise (parse time, unit tests, `dbt compile` and
        `docs`, which may run before the raw tables exist). The table's change log fails with it (its staging raises it); the
        shared qlik_ct_quarantine leaves the table out, so one table's mistake
        does not stop the others' rows from being quarantined. -#}
    {%- if not execute or model.resource_type == 'unit_test' or table_name not in cdcflow.cdc_groups_in_run() -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'qlik_ct') -%}
    {%- set change_table_columns = [] -%}
    {%- for setting in ['change_table', 'full_load_table'] -%}
        {%- set raw = cdcflow.raw_table_relation(cfg, setting) -%}
        {%- set relation = raw.relation if raw else none -%}
        {%- if raw and relation is none -%}
            {{ return("cdcflow: table '" ~ table_name ~ "': its raw table " ~ raw.name
                ~ " (vars.cdcflow_tables." ~ table_name ~ "." ~ setting ~ ") does not exist: a misspelt name,"
                ~ " or not landed yet (the next run reads it once it has landed).") }}
        {%- elif relation is not none and setting == 'change_table' -%}
            {%- for col in cdcflow.landed_columns(relation) -%}
                {%- do change_table_columns.append(col.name | lower) -%}
            {%- endfor -%}
            {%- set problem = cdcflow.change_table_layout(relation, cfg).problem -%}
            {%- if problem -%}
                {{ return(problem) }}
            {%- endif -%}
        {%- elif relation is not none -%}
            {%- set landed = cdcflow.landed_columns(relation) -%}
            {%- set names = landed | map(attribute='name') | map('lower') | list -%}
            {%- set missing = [] -%}
            {#- a column the source gained after the full load is only in the change table -#}
            {%- for column in cfg.column_names
                if column | lower not in names and column | lower not in change_table_columns -%}
                {%- do missing.append("'" ~ column ~ "'") -%}
            {%- endfor -%}
            {%- if missing -%}
                {{ return("cdcflow: table '" ~ table_name ~ "': no column " ~ missing | join(', ') ~ " in "
                    ~ relation ~ " (vars.cdcflow_tables." ~ table_name ~ ".columns); its columns are: "
                    ~ landed | map(attribute='name') | join(', ') ~ ".") }}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(none) }}
{% endmacro %}
