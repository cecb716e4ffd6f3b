{% macro default__merged_current_model(table_name) %}
    {#- Body of <table>_current on Delta Lake and Iceberg: the open link of each
        key of int_<table>__versioned, a row of materialization cdcflow_current's
        table, with its loaded_at (when the chain last wrote it) and
        cdcflow_removed (a delete without `deletes: flag`: the key leaves the
        table), which the materialization reads and does not store. With
        `deletes: flag`, a deleted key stays: is_deleted true and deleted_at the
        delete's commit time. -#}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    {{ config(
        materialized='cdcflow_current',
        file_format=cdcflow.table_format(),
        unique_key=cfg.key,
        pre_hook=["{{ cdcflow.follow_configured_columns(this, '" ~ table_name ~ "', 'current', check_dropped=false) }}"]
    ) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- set flag = cfg.deletes == 'flag' %}
select
    {{ cdcflow.current_row_columns(cfg) }},
    {%- if flag %}
    operation = 'D' as is_deleted,
    case when operation = 'D' then valid_from end as deleted_at,
    {%- endif %}
    loaded_at,
    {{ 'false' if flag else "operation = 'D'" }} as cdcflow_removed
from {{ ref(cdcflow.table_model_name(table_name, 'versioned')) }}
where valid_to_change_order is null
{%- endmacro %}
