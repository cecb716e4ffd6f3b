{% macro debezium_payload_schema() %}
    {#- The from_json schema of a Debezium SQL Server event payload (reference 002).
        event_serial_no is read as text: the reference's own example writes it as
        a string although its schema says int64. -#}
    {{- return(
        'struct<before: string, after: string, '
        ~ 'source: struct<version: string, connector: string, name: string, ts_ms: bigint, '
        ~ 'snapshot: string, db: string, schema: string, table: string, '
        ~ 'change_lsn: string, commit_lsn: string, event_serial_no: string>, '
        ~ 'op: string, ts_ms: bigint, transaction: struct<id: string>, _corrupt_record: string>'
    ) -}}
{% endmacro %}
