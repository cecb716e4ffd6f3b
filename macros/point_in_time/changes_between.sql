{% macro changes_between(table_name, from_at, to_at) %}
    {#- The changes of table `table_name` committed after `from_at` and up to
        `to_at` (SQL expressions of timestamps), from <table>_history: every
        insert and update as the version it opened (operation I or U, the
        values after it; a primary-key update is the delete of the old key and
        the insert of the new), every delete as the version it closed (operation
        D, the values before it). Applied in change_order to
        as_of(table_name, from_at), they give as_of(table_name, to_at). Columns:
        the table's, operation, change_order, committed_at, transaction_id (null
        for a delete: the history does not keep it), changed_columns (null for
        a delete). Returns a subquery, for after `from`. -#}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    {%- set history = ref(cdcflow.table_model_name(table_name, 'history')) -%}
(
    select
        {{ cfg.column_names | join(',\n        ') }},
        operation,
        change_order,
        valid_from as committed_at,
        transaction_id,
        changed_columns
    from {{ history }}
    -- a delete's own version (deletes: flag) is listed below, from the version it closed
    where operation <> 'D' and valid_from > {{ from_at }} and valid_from <= {{ to_at }}

    union all

    select
        {{ cfg.column_names | join(',\n        ') }},
        'D' as operation,
        valid_to_change_order as change_order,
        valid_to as committed_at,
        cast(null as string) as transaction_id,
        cast(null as array<string>) as changed_columns
    from {{ history }}
    where
        closed_by_operation = 'D'
        and valid_to > {{ from_at }}
        and valid_to <= {{ to_at }}
)
{%- endmacro %}
