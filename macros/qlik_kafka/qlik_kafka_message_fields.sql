{% macro qlik_kafka_message_fields() %}
    {#- The fields of a Qlik message (reference 000) as (name, Spark type) pairs,
        for from_json: data message fields (schema, table, data, beforeData,
        headers) and metadata message fields (schemaId, lineage,
        tableStructure). Values in `data`/`beforeData` stay text, typed later
        from the metadata message in effect. -#}
    {{- return([
        ('schema', 'string'),
        ('table', 'string'),
        ('data', 'map<string, string>'),
        ('beforeData', 'map<string, string>'),
        ('headers', 'struct<operation: string, changeSequence: string, timestamp: string, '
            ~ 'streamPosition: string, transactionId: string, changeMask: string, columnMask: string, '
            ~ 'externalSchemaId: string, transactionEventCounter: bigint, transactionLastEvent: boolean>'),
        ('schemaId', 'string'),
        ('lineage', 'struct<server: string, task: string, schema: string, table: string, '
            ~ 'tableVersion: int, timestamp: string>'),
        ('tableStructure', 'struct<tableColumns: map<string, struct<ordinal: int, type: string, '
            ~ 'length: int, precision: int, scale: int, primaryKeyPosition: int>>>'),
    ]) -}}
{% endmacro %}
