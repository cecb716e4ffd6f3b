{% macro current_row_columns(cfg) %}
    {#- The select list of a <table>_current row from a version of the chain (a
        link of int_<table>__versioned or a row of <table>_history): the
        columns, then last_operation, last_change_order, last_changed_at and
        last_transaction_id. scd1_current and as_of share it. -#}
    {{ cfg.column_names | join(',\n    ') }},
    operation as last_operation,
    change_order as last_change_order,
    valid_from as last_changed_at,
    transaction_id as last_transaction_id
{%- endmacro %}
