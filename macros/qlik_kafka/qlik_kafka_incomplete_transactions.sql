{% macro qlik_kafka_incomplete_transactions(messages, landed_filter=none) %}
    {#- The transactions not yet complete among the data messages landed within
        `landed_filter` (SQL over landed_at) in `messages` (the relation
        base_qlik_kafka__parsed_messages: every qlik_kafka landing table, all
        tables of the task, not only the configured ones): no
        transactionLastEvent record yet, or fewer distinct
        transactionEventCounter values than the last event's counter. Columns
        transaction_id, first_landed_at. -#}
    select
        message.headers.transactionId as transaction_id,
        min(landed_at) as first_landed_at
    from {{ messages }}
    where
        parse_error is null
        and message_type = 'DT'
        and message.headers.transactionId is not null
        and message.headers.transactionEventCounter is not null
        {%- if landed_filter %}
        and {{ landed_filter }}
        {%- endif %}
    group by message.headers.transactionId
    having not coalesce(
        count(distinct message.headers.transactionEventCounter)
        >= max(case when message.headers.transactionLastEvent then message.headers.transactionEventCounter end),
        false
    )
{%- endmacro %}
