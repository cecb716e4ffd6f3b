{% macro delivery_order(cfg) %}
    {#- The order in which the deliveries of one key and change_order are taken,
        the first one being the change (append_new_changes) and any other one
        whose content differs a conflict (conflicting_deliveries): the first
        landed, ties broken by a hash of the content; a baseline row (operation
        L: a full load or a snapshot, which a reload replaces) the last landed. -#}
    case when operation = 'L' then landed_at end desc,
    landed_at asc,
    xxhash64(
        operation, committed_at, transaction_id,
        {%- for column in cfg.column_names %} {{ column }},{% endfor %}
        changed_columns, present_columns
    ) asc
{%- endmacro %}
