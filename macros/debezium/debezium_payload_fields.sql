{% macro debezium_payload_fields() %}
    {#- The fields of a Debezium SQL Server event payload (reference 002) as
        (name, Spark type) pairs, for from_json. `before`/`after` are read as
        maps of column name to value text. event_serial_no is read as text: the
        reference's own example writes it as a string although its schema says
        int64. -#}
    {{- return([
        ('before', 'map<string, string>'),
        ('after', 'map<string, string>'),
        ('source', 'struct<version: string, connector: string, name: string, ts_ms: bigint, '
            ~ 'snapshot: string, db: string, schema: string, table: string, '
            ~ 'change_lsn: string, commit_lsn: string, event_serial_no: string>'),
        ('op', 'string'),
        ('ts_ms', 'bigint'),
        ('transaction', 'struct<id: string>'),
    ]) -}}
{% endmacro %}
