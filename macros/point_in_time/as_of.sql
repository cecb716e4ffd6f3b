{% macro as_of(table_name, at) %}
    {{ return(adapter.dispatch('as_of', 'cdcflow')(table_name, at)) }}
{% endmacro %}

{% macro default__as_of(table_name, at) %}
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
