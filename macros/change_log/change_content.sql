{% macro change_content(cfg) %}
    {#- A canonical change's content as JSON text, all but where and when it
        landed: what two deliveries of one change must agree on (conflicting_deliveries). -#}
    to_json(named_struct(
        {%- for column in cfg.column_names %}
        '{{ column }}', {{ column }},
        {%- endfor %}
        'operation', operation,
        'change_order', change_order,
        'committed_at', committed_at,
        'transaction_id', transaction_id,
        'changed_columns', changed_columns,
        'present_columns', present_columns
    ))
{%- endmacro %}
