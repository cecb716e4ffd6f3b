{% macro debezium_change_log(table_name) %}
    {{ return(adapter.dispatch('debezium_change_log', 'cdcflow')(table_name)) }}
{% endmacro %}

{% macro default__debezium_change_log(table_name) %}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'debezium') -%}
    {{ cdcflow.change_log_config(table_name) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- set group_range = cdcflow.processing_range(table_name) -%}

with

landed as (

    select *
    from {{ ref(cdcflow.table_model_name(table_name, 'events')) }}
    where {{ cdcflow.landed_in_range(group_range) }}

),

changes as (

    select * from landed where invalid_reason is null

),

{{ cdcflow.append_new_changes(cfg, 'changes', 'debezium', group_range) }}
{% endmacro %}
