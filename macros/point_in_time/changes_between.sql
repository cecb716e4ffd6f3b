{% macro changes_between(table_name, from_at, to_at) %}
    {{ return(adapter.dispatch('changes_between', 'cdcflow')(table_name, from_at, to_at)) }}
{% endmacro %}

{% macro default__changes_between(table_name, from_at, to_at) %}
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
