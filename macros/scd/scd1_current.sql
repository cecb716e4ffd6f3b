{% macro scd1_current(table_name) %}
    {#- Body of <table>_current (SCD1): one row per live key, its latest version.
        Reads only the open partitions of int_<table>__versioned (their open links
        and touches), less the links a later run superseded. With the table's
        `deletes: flag`, a deleted key stays: its open link is the delete, with
        the values the key had before it, is_deleted true and deleted_at the
        delete's commit time (is_deleted false and deleted_at null for the
        others). On Delta Lake and Iceberg, a table a run merges into
        (merged_current_model). -#}
    {%- if cdcflow.incremental_strategy() == 'merge' -%}{{ return(cdcflow.merged_current_model(table_name)) }}{%- endif -%}
    {{ config(materialized='cdcflow_view') }}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    {%- set flag = cfg.deletes == 'flag' -%}
    {%- set versioned = ref('int_' ~ table_name ~ '__versioned') -%}
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
