"""The simulated change stream (testkit/workload.py ``events``) written the way
each vendor lands it, as Spark DataFrames of raw rows:

* Qlik Kafka messages (reference 000): a metadata message, REFRESH messages for
  the full load, then one data message per change with its change and column
  masks (bit 0 = ordinal 1) and its place in the transaction;
* Debezium SQL Server events (reference 002) with their Connect schema: snapshot
  reads, then create / update / delete events and a tombstone after each delete;
  a primary-key update is a delete of the old key and a create of the new one
  (same change LSN, serials 1 and 2);
* the DirXML JDBC event log (reference 003): a field insert (1) per non-null
  column of an insert (the full load too: the log has none), a field update (2)
  per changed column, a row delete (4); a primary-key update is a row delete of
  the old key and field inserts of the new one.

Each function returns the frame and the columns ordering its rows in the files."""

from __future__ import annotations

import json

from testkit.vendors import LANDING_COLUMNS, debezium_envelope_schema, mask_hex_sql, qlik_table_columns

KAFKA_SCHEMA, KAFKA_TABLE = "BENCH", "ITEMS"
DEBEZIUM_TOPIC = "server1.dbo.bench_items"
SNAPSHOT_LSN = "00000100:00000000:0001"


def _text(column: str, data_type: str) -> str:
    """The column as the text a log or a Qlik Kafka message carries."""
    if data_type == "timestamp":
        return f"date_format({column}, 'yyyy-MM-dd HH:mm:ss.SSSSSS')"
    return f"cast({column} as string)"


def qlik_kafka_messages(spark, workload, stream, *, with_metadata: bool):
    columns = workload.table_columns
    names = list(columns)
    stream.createOrReplaceTempView("_bench_kafka_stream")
    metadata = {
        "magic": "atMSG",
        "type": "MD",
        "headers": None,
        "messageSchemaId": None,
        "messageSchema": None,
        "message": {
            "schemaId": f"{KAFKA_TABLE}-1",
            "lineage": {
                "server": "replicate",
                "task": "bench",
                "schema": KAFKA_SCHEMA,
                "table": KAFKA_TABLE,
                "tableVersion": 1,
                "timestamp": "2025-12-31T23:00:00.000",
            },
            "tableStructure": {"tableColumns": qlik_table_columns(columns, ["id"])},
            "dataSchema": "{}",
        },
    }

    def image(prefix: str) -> str:
        return (
            "named_struct("
            + ", ".join(
                f"'{name.upper()}', {_text(prefix + name if name != 'id' else prefix + 'id', t)}"
                for name, t in columns.items()
            )
            + ")"
        )

    after, before = image(""), image("before_").replace("before_id", "old_id")
    changed_flags = ["op = 'K'", *(f"changed_flags[{i}]" for i in range(len(names) - 1))]
    change_mask = mask_hex_sql(changed_flags)
    all_set = mask_hex_sql(["true"] * len(names))
    ts = workload.transaction_size
    refresh = f"""
        named_struct(
            'magic', 'atMSG', 'type', 'DT', 'headers', cast(null as string),
            'messageSchemaId', cast(null as string), 'messageSchema', cast(null as string),
            'message', named_struct(
                'schema', '{KAFKA_SCHEMA}', 'table', '{KAFKA_TABLE}', 'data', {after},
                'beforeData', cast(null as string), 'headers', named_struct('operation', 'REFRESH')
            )
        )
    """
    change = f"""
        named_struct(
            'magic', 'atMSG', 'type', 'DT', 'headers', cast(null as string),
            'messageSchemaId', cast(null as string), 'messageSchema', cast(null as string),
            'message', named_struct(
                'schema', '{KAFKA_SCHEMA}', 'table', '{KAFKA_TABLE}',
                'data', {after},
                'beforeData', case when op in ('U', 'K', 'D') then {before} end,
                'headers', named_struct(
                    'operation', case op when 'I' then 'INSERT' when 'D' then 'DELETE' else 'UPDATE' end,
                    'changeSequence', {CHANGE_SEQ},
                    'timestamp', date_format(committed_at, "yyyy-MM-dd'T'HH:mm:ss.SSS"),
                    'streamPosition', concat('0000', lpad(hex(seq + 1), 12, '0')),
                    'transactionId', lpad(hex(tx + 1), 32, '0'),
                    'changeMask', case when op in ('I', 'D') then {all_set} else {change_mask} end,
                    'columnMask', {all_set},
                    'transactionEventCounter', cast(pmod(seq, {ts}) + 1 as int),
                    'transactionLastEvent', pmod(seq, {ts}) = {ts} - 1 or seq = {workload.changes} - 1
                )
            )
        )
    """
    offset = f"case when op = 'L' then slot + 1 else {workload.key_slots} + 1 + seq end"
    rows = spark.sql(f"""
        select
            '{KAFKA_SCHEMA.lower()}.{KAFKA_TABLE.lower()}' as topic,
            0 as partition,
            {offset} as offset,
            coalesce(committed_at, timestamp'2025-12-31 23:00:00') as timestamp,
            cast(id as string) as key,
            case
                when op = 'L' then to_json({refresh}, map('ignoreNullFields', 'false'))
                else to_json({change}, map('ignoreNullFields', 'false'))
            end as value,
            {offset} as _order
        from _bench_kafka_stream
    """)
    if with_metadata:
        md = spark.createDataFrame(
            [("bench.items.metadata", 0, 0, None, KAFKA_TABLE, json.dumps(metadata), -(10**12))],
            "topic string, partition int, offset bigint, timestamp timestamp, key string, value string, "
            "_order bigint",
        ).selectExpr(
            *LANDING_COLUMNS[:3], "timestamp'2025-12-31 23:00:00' as timestamp", "key", "value", "_order"
        )
        rows = md.unionByName(rows)
    return rows, ["_order"]


CHANGE_SEQ = (
    "concat(date_format(committed_at, 'yyyyMMddHHmmss'), "
    "lpad(cast(floor(date_part('SECOND', committed_at) * 100) % 100 as string), 2, '0'), "
    "lpad(cast(seq + 1 as string), 19, '0'))"
)


def _connect_field(name: str, data_type: str) -> tuple[dict, str]:
    """The Connect schema of a column and the SQL giving its payload value."""
    base = data_type.split("(")[0]
    if base == "decimal":
        scale = data_type.split(",")[1].rstrip(")")
        schema = {
            "type": "bytes",
            "name": "org.apache.kafka.connect.data.Decimal",
            "parameters": {
                "scale": scale,
                "connect.decimal.precision": data_type.split("(")[1].split(",")[0],
            },
        }
        # big-endian two's complement of the unscaled value, 8 bytes
        value = f"base64(unhex(lpad(hex(cast({name} * {10 ** int(scale)} as bigint)), 16, '0')))"
        return schema, value
    if base == "date":
        return {"type": "int32", "name": "io.debezium.time.Date"}, f"datediff({name}, date'1970-01-01')"
    if base == "timestamp":
        return {"type": "int64", "name": "io.debezium.time.MicroTimestamp"}, f"unix_micros({name})"
    connect = {
        "int": "int32",
        "bigint": "int64",
        "string": "string",
        "double": "float64",
        "boolean": "boolean",
    }
    return {"type": connect[base]}, name


def debezium_events(spark, workload, stream):
    columns = workload.table_columns
    stream.createOrReplaceTempView("_bench_debezium_stream")
    fields = [{**_connect_field(n, t)[0], "optional": n != "id", "field": n} for n, t in columns.items()]
    envelope = debezium_envelope_schema(fields, DEBEZIUM_TOPIC)

    def image(prefix: str) -> str:
        values = ", ".join(
            f"'{n}', {_connect_field((prefix + n) if n != 'id' else ('old_id' if prefix else 'id'), t)[1]}"
            for n, t in columns.items()
        )
        return f"named_struct({values})"

    ts = workload.transaction_size
    commit = "concat('00000100:', lower(lpad(hex(tx + 1), 8, '0')), ':ffff')"
    change = (
        "concat('00000100:', lower(lpad(hex(tx + 1), 8, '0')), ':', "
        f"lower(lpad(hex(pmod(seq, {ts}) + 1), 4, '0')))"
    )
    ts_ms = "unix_millis(committed_at)"
    # one row per event: (event kind, which image is before / after, serial)
    spark.sql("""
        select *, explode(case
            when op = 'L' then array(named_struct('op', 'r', 'serial', 0, 'part', 0))
            when op = 'I' then array(named_struct('op', 'c', 'serial', 1, 'part', 0))
            when op = 'U' then array(named_struct('op', 'u', 'serial', 2, 'part', 0))
            when op = 'D' then array(named_struct('op', 'd', 'serial', 1, 'part', 0),
                                     named_struct('op', 'tombstone', 'serial', 1, 'part', 1))
            else array(named_struct('op', 'd', 'serial', 1, 'part', 0),
                       named_struct('op', 'tombstone', 'serial', 1, 'part', 1),
                       named_struct('op', 'c', 'serial', 2, 'part', 2))
        end) as event
        from _bench_debezium_stream
    """).createOrReplaceTempView("_bench_debezium_parts")
    schema_json = json.dumps(envelope, separators=(",", ":"))
    payload = f"""
        named_struct(
            'before', case when event.op in ('u', 'd') then {image("before_")} end,
            'after', case when event.op in ('r', 'c', 'u') then {image("")} end,
            'source', named_struct(
                'version', '2.7.0.Final', 'connector', 'sqlserver', 'name', 'server1',
                'ts_ms', coalesce({ts_ms}, 1767222000000),
                'snapshot', case when event.op = 'r' then 'true' else 'false' end,
                'db', 'benchDB', 'schema', 'dbo', 'table', 'bench_items',
                'change_lsn', case when event.op <> 'r' then {change} end,
                'commit_lsn', case when event.op = 'r' then '{SNAPSHOT_LSN}' else {commit} end,
                'event_serial_no', case when event.op <> 'r' then event.serial end
            ),
            'op', event.op,
            'ts_ms', coalesce({ts_ms}, 1767222000000) + 1500
        )
    """
    offset = f"case when op = 'L' then slot else {workload.key_slots} + seq * 3 + event.part end"
    rows = spark.sql(f"""
        select
            '{DEBEZIUM_TOPIC}' as topic,
            0 as partition,
            cast({offset} as bigint) as offset,
            coalesce(committed_at, timestamp'2025-12-31 23:00:00') as timestamp,
            cast(case when event.op = 'c' or op <> 'K' then id else old_id end as string) as key,
            case when event.op <> 'tombstone' then concat(
                '{{"schema":', '{schema_json}', ',"payload":',
                to_json({payload}, map('ignoreNullFields', 'false')), '}}'
            ) end as value,
            cast({offset} as bigint) as _order
        from _bench_debezium_parts
    """)
    return rows, ["_order"]


DIRXML_LOG_COLUMNS = [
    "record_id",
    "status",
    "event_type",
    "event_time",
    "perpetrator",
    "table_name",
    "table_key",
    "column_name",
    "old_value",
    "new_value",
]


def dirxml_event_log(spark, workload, stream):
    data = workload.data_columns
    stream.createOrReplaceTempView("_bench_dirxml_stream")
    fields = ", ".join(
        f"named_struct('i', {i}, 'name', '{n}', 'changed', changed_flags[{i}], "
        f"'old', {_text('before_' + n, t)}, 'new', {_text(n, t)})"
        for i, (n, t) in enumerate(data.items())
    )
    no_field = "cast(null as struct<i: int, name: string, changed: boolean, old: string, new: string>)"
    # per change: (event_type, key, field) rows; record ids follow the change order
    spark.sql(f"""
        select *, posexplode(case
            when op in ('L', 'I') then transform(filter(fields, f -> f.new is not null),
                f -> named_struct('type', 1, 'id', id, 'f', f))
            when op = 'U' then transform(filter(fields, f -> f.changed),
                f -> named_struct('type', 2, 'id', id, 'f', f))
            when op = 'D' then array(named_struct('type', 4, 'id', id, 'f', {no_field}))
            else concat(
                array(named_struct('type', 4, 'id', old_id, 'f', {no_field})),
                transform(
                    filter(fields, f -> f.new is not null), f -> named_struct('type', 1, 'id', id, 'f', f)
                )
            )
        end) as (position, event)
        from (select *, array({fields}) as fields from _bench_dirxml_stream)
    """).createOrReplaceTempView("_bench_dirxml_events")
    rows = spark.sql("""
        select
            case when op = 'L' then slot * 64 + position + 1
                 else 1000000000000 + seq * 64 + position end as record_id,
            'N' as status,
            event.type as event_type,
            coalesce(committed_at, timestamp'2025-12-31 23:00:00') as event_time,
            'app' as perpetrator,
            'bench_items' as table_name,
            concat('id=', cast(event.id as string)) as table_key,
            event.f.name as column_name,
            case when event.type = 2 then event.f.old end as old_value,
            case when event.type in (1, 2) then event.f.new end as new_value
        from _bench_dirxml_events
    """)
    return rows, ["record_id"]
