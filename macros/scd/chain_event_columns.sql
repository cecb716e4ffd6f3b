{% macro chain_event_columns(cfg) %}
    {#- The change-log columns a version chain reads of each change. -#}
    {{ return(cfg.column_names + [
        'operation', 'change_order', 'committed_at', 'transaction_id',
        'changed_columns', 'present_columns'
    ]) }}
{% endmacro %}
