{% macro default__partitioned_current_model(table_name) %}
    {#- Body of <table>_current on parquet: a view of the open partitions of
        int_<table>__versioned (their open links and touches), less the links a
        later run superseded (versioned_valid_links). -#}
    {{ config(materialized='cdcflow_view') }}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    {%- set flag = cfg.deletes == 'flag' -%}
    {%- set versioned = ref(cdcflow.table_model_name(table_name, 'versioned')) -%}
    {%- set open_links = "(select * from " ~ versioned
        ~ " where written_in_run >= 'open' and change_order is not null and "
        ~ ("valid_to_change_order is null)" if flag else "is_current)") %}
select
    {{ cdcflow.current_row_columns(cfg) }}
    {%- if flag %},
    operation = 'D' as is_deleted,
    case when operation = 'D' then valid_from end as deleted_at
    {%- endif %}
from (
    {{ cdcflow.versioned_valid_links(open_links, '(' ~ cdcflow.versioned_touches(versioned, cfg.key) ~ ')', cfg.key) }}
) as current_links
{%- endmacro %}
