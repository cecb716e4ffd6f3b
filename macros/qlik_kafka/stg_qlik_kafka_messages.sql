{% macro stg_qlik_kafka_messages(table_name) %}
    {{ return(adapter.dispatch('stg_qlik_kafka_messages', 'cdcflow')(table_name)) }}
{% endmacro %}

{% macro default__stg_qlik_kafka_messages(table_name) %}
    {%- if not cdcflow.enabled_for_table() -%}{{ return('select 1 as disabled') }}{%- endif -%}
    {%- set cfg = cdcflow.table_config(table_name, 'qlik_kafka') -%}

with

messages as (

    -- the run's messages of the table's landing table, parsed once for every reader
    select * except (raw_table)
    from {{ ref('base_qlik_kafka__parsed_messages') }}
    where raw_table = '{{ cfg.raw_table }}'

),

table_messages as (

    -- this table's data messages: by the message's schema/table, or by topic when
    -- the data messages carry no table name; unreadable messages of its topic
    select *
    from messages
    where
        {%- if cfg.topic %}
        topic = '{{ cfg.topic }}' and (parse_error is not null or message_type = 'DT' and (
            message.table is null or {{ cdcflow.qlik_kafka_names_table('message.schema', 'message.table', cfg) }}
        ))
        {%- else %}
        parse_error is null and message_type = 'DT' and {{ cdcflow.qlik_kafka_names_table('message.schema', 'message.table', cfg) }}
        {%- endif %}

)

select * from table_messages
{% endmacro %}
