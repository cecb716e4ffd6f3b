{% macro history_view(table_name) %}
    {#- Body of <table>_history: one row per version of each key (SCD2). -#}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    select
        {{ cfg.column_names | join(',\n        ') }},
        operation,
        change_order,
        valid_from,
        valid_to,
        valid_to_change_order,
        closed_by_operation,
        is_current,
        transaction_id,
        changed_columns
    from {{ ref('int_' ~ table_name ~ '__versioned') }}
    where change_order is not null and operation <> 'D'
{%- endmacro %}
