{% macro as_of(table_name, at) %}
    {#- The table `table_name` (its vars.cdcflow_tables name) as it was at commit
        time `at` (a SQL expression of a timestamp, e.g. "timestamp'2026-03-01
        08:00:00'"), from <table>_history: each key's version valid then
        (valid_from <= at < valid_to; a full-load baseline from the beginning),
        with the columns of <table>_current. The changes of one transaction share
        its commit time, so the transaction is seen whole or not at all. Returns a
        subquery, for after `from`:
        select * from {{ cdcflow.as_of('customers', "timestamp'2026-03-01 08:00:00'") }} -#}
    {%- set cfg = cdcflow.table_config(table_name) -%}
(
    select
        {{ cdcflow.current_row_columns(cfg) }}
    from {{ ref(cdcflow.table_model_name(table_name, 'history')) }}
    where
        operation <> 'D'  -- a delete's version (deletes: flag) is a key not in the table
        and (valid_from is null or valid_from <= {{ at }})
        and (valid_to is null or valid_to > {{ at }})
)
{%- endmacro %}
