{% macro qlik_kafka_held_back_from(table_name, state) %}
    {#- For a qlik_kafka group with var cdcflow_qlik_kafka_transaction_consistency:
        the landing position (micros) just before the first record of a transaction
        its change log held back in this run (not completely landed: counted over
        every qlik_kafka landing table within the run's range, and not logged), so
        the next range starts there and reads it whole; none when nothing is held
        back. The range cannot end there instead: the rows of one landed file share
        a landing time, so it would hold back every complete transaction beside it. -#}
    {%- set cfg = cdcflow.table_config(table_name) -%}
    {%- if cfg.format != 'qlik_kafka' or not var('cdcflow_qlik_kafka_transaction_consistency', true)
        or state['current_end_at'] is none -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set change_log = cdcflow.model_relation(cdcflow.table_model_name(table_name, 'changes_logged')) -%}
    {#- the messages this run parsed (a model of the run: the hook runs after it) -#}
    {%- set messages = cdcflow.model_relation('base_qlik_kafka__parsed_messages') -%}
    {%- if messages is none -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set group_range = cdcflow.processing_range(table_name) -%}
    {%- set landed_filter = "landed_at <= " ~ group_range.end -%}
    {%- if group_range.start is not none -%}
        {%- set landed_filter = landed_filter ~ " and landed_at > " ~ group_range.start -%}
    {%- endif -%}
    {%- set query -%}
        select unix_micros(min(incomplete.first_landed_at)) - 1
        from ({{ cdcflow.qlik_kafka_incomplete_transactions(messages, landed_filter) }}) as incomplete
        {%- if change_log is not none %}
        left anti join (select distinct transaction_id from {{ change_log }}) as logged
            on incomplete.transaction_id = logged.transaction_id
        {%- endif %}
    {%- endset -%}
    {{ return(run_query(query).columns[0].values()[0]) }}
{% endmacro %}
