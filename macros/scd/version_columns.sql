{% macro version_columns(cfg) %}
    {#- Column order of the int_<table>__versioned tables; the layout's own
        columns last (on parquet, the partition column written_in_run). -#}
    {%- set columns = cfg.column_names + [
        'operation', 'change_order', 'valid_from', 'valid_to', 'valid_to_change_order',
        'closed_by_operation', 'is_current', 'transaction_id', 'changed_columns',
        'present_columns', 'loaded_at'
    ] -%}
    {{ return(columns + cdcflow.layout_macro('chain_columns')()) }}
{% endmacro %}
