{% macro qlik_kafka_change_log(table_name) %}
    {{ return(adapter.dispatch('qlik_kafka_change_log', 'cdcflow')(table_name)) }}
{% endmacro %}

{% macro default__qlik_kafka_change_log(table_name) %}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'qlik_kafka') -%}
    {{ cdcflow.change_log_config(table_name) }}
    {%- if cdcflow.has_nothing_new() -%}{{ return(cdcflow.nothing_new_query()) }}{%- endif -%}
    {%- set group_range = cdcflow.processing_range(table_name) -%}
    {%- set hold_transactions = var('cdcflow_qlik_kafka_transaction_consistency', true) -%}

with

landed as (

    select *
    from {{ ref(cdcflow.table_model_name(table_name, 'messages_decoded')) }}
    where {{ cdcflow.landed_in_range(group_range) }}

),
{%- if hold_transactions %}

incomplete_transactions as (

    -- incomplete transactions with records of this table still to log; one
    -- already logged was complete then (re-read partly through the overlap)
    select incomplete.transaction_id, incomplete.first_landed_at
    from (
        {{ cdcflow.qlik_kafka_incomplete_transactions(
            ref('base_qlik_kafka__parsed_messages'), cdcflow.landed_in_range(group_range)
        ) }}
    ) as incomplete
    left semi join landed
        on incomplete.transaction_id = landed.transaction_id and landed.invalid_reason is null
    {%- if cdcflow.is_incremental_run() %}
    left anti join (
        select distinct transaction_id
        from {{ this }}
        where coalesce(change_date, date'0001-01-01') >= (select min(to_date(committed_at)) from landed)
    ) as logged
        on incomplete.transaction_id = logged.transaction_id
    {%- endif %}

),
{%- endif %}

changes as (

    select landed.*
    from landed
    {%- if hold_transactions %}
    left anti join incomplete_transactions
        on landed.transaction_id = incomplete_transactions.transaction_id
    {%- endif %}
    where landed.invalid_reason is null

),

canonical as (

    {{ cdcflow.split_key_changes('changes', cfg) }}

),

{{ cdcflow.append_new_changes(cfg, 'canonical', 'qlik_kafka', group_range) }}
{% endmacro %}
