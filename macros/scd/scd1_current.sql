{% macro scd1_current(table_name) %}
    {#- Body of <table>_current (SCD1): one row per live key, its latest version.
        Reads only the open partition of int_<table>__versioned. -#}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    select
        {{ cfg.column_names | join(',\n        ') }},
        operation as last_operation,
        change_order as last_change_order,
        valid_from as last_changed_at,
        transaction_id as last_transaction_id
    from {{ ref('int_' ~ table_name ~ '__versioned') }}
    where closed_in_run is null and change_order is not null and is_current
{%- endmacro %}
