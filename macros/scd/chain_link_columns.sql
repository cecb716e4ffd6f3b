{% macro chain_link_columns(cfg) %}
    {#- The columns of a link of the version chain, from the CTE chained, this
        run's loaded_at last. -#}
        {{ cfg.column_names | join(', ') }},
        operation,
        change_order,
        valid_from,
        valid_to,
        valid_to_change_order,
        closed_by_operation,
        valid_to_change_order is null and operation <> 'D' as is_current,
        transaction_id,
        changed_columns,
        present_columns,
        {{ cdcflow.run_loaded_at() }} as loaded_at
{%- endmacro %}
