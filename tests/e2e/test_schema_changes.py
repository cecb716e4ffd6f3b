"""Schema changes mid-stream (issue "Nothing lost", item 4), in every format: the
source table gains a column `tier` after a first run. Replicate adds it to the
`__ct` table (a new change-mask bit; the full-load table stays without it) and
sends a new metadata message on Kafka; Debezium's events gain a schema field;
the DirXML log starts naming it. Once the configuration lists it (and `cdcflow
onboard` has run again), the next run keeps going without a full refresh:
versions before the change have null there, later ones carry it, the marts and
their contracts gain it. A column then dropped from the configuration stops
each change log with a message saying what to do."""

import json
from datetime import datetime

import pytest
import yaml

from launcher import onboard
from testkit import change_history as ch
from testkit.vendors import KAFKA_LANDING, debezium_envelope_schema, qlik_table_columns
from tests.e2e.helpers import append_rows, as_text, invoke_dbt_in, make_project, run_dbt

pytestmark = pytest.mark.spark

SCHEMA = "e2e_schema_change"
RAW = f"{SCHEMA}_raw"
BEFORE = {"id": "int", "name": "string"}
AFTER = {**BEFORE, "tier": "string"}
T1, T2 = datetime(2024, 5, 1, 8, 0, 0), datetime(2024, 5, 1, 9, 0, 0)
# (op, key, row after (or before, for a delete), changed columns, commit time)
BATCH_1 = [
    ("U", 2, {"id": 2, "name": "b2"}, ["name"], T1),
]
BATCH_2 = [
    ("U", 1, {"id": 1, "name": "a2", "tier": "gold"}, ["name", "tier"], T2),
    ("I", 3, {"id": 3, "name": "c", "tier": "silver"}, ["id", "name", "tier"], T2.replace(minute=1)),
]
BASELINE = [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]
BEFORE_ROWS = {1: {"id": 1, "name": "a"}, 2: {"id": 2, "name": "b"}}
HISTORY = [("1", "a", None), ("1", "a2", "gold"), ("2", "b", None), ("2", "b2", None), ("3", "c", "silver")]
CURRENT = [("1", "a2", "gold"), ("2", "b2", None), ("3", "c", "silver")]
TABLES = ["sc_ct", "sc_kafka", "sc_dbz", "sc_dirxml"]


def _tables(columns: dict) -> dict:
    common = {"key": ["id"], "columns": dict(columns)}
    return {
        "sc_ct": {"format": "qlik_ct", "change_table": "sc_ct__ct", "full_load_table": "sc_ct", **common},
        "sc_kafka": {
            "format": "qlik_kafka",
            "raw_table": "sc_kafka_messages",
            "source_schema": "dbo",
            "source_table": "ACCOUNTS",
            **common,
        },
        "sc_dbz": {
            "format": "debezium",
            "raw_table": "sc_dbz_events",
            "topic": "server1.dbo.accounts",
            **common,
        },
        "sc_dirxml": {
            "format": "dirxml",
            "raw_table": "sc_dirxml_log",
            "source_table": "accounts",
            "query_back_table": None,
            **common,
        },
    }


def _configure(project, columns: dict) -> None:
    """The vars entry lists ``columns``; `cdcflow onboard` writes the models again."""
    document = yaml.safe_load((project / "dbt_project.yml").read_text())
    document["vars"]["cdcflow_tables"] = _tables(columns)
    (project / "dbt_project.yml").write_text(yaml.safe_dump(document, sort_keys=False))
    onboard.write(project)


def _append(spark, table: str, columns: dict[str, str], rows: list[dict]) -> None:
    """Land ``rows`` as new parquet files of ``RAW.table`` (created on first use)."""
    append_rows(spark, RAW, table, columns, rows)


def _mask(columns: dict, changed: list[str], first_bit: int) -> bytes:
    value = sum(1 << (first_bit + list(columns).index(c)) for c in changed)
    return value.to_bytes((value.bit_length() + 7) // 8 or 1, "little")


def _change_seq(at: datetime, number: int) -> str:
    return at.strftime("%Y%m%d%H%M%S") + "00" + f"{number:019d}"


def _ct_rows(changes, columns: dict, first_number: int) -> list[dict]:
    rows = []
    for number, (op, key, row, changed, at) in enumerate(changes, start=first_number):
        headers = {
            "header__change_seq": _change_seq(at, number),
            "header__stream_position": f"pos-{number}",
            "header__transaction_id": f"{number:032X}",
            "header__timestamp": at,
        }
        if op == "U":
            before = {**BEFORE_ROWS[key], "header__change_oper": "B", "header__operation": "BEFOREIMAGE"}
            rows.append({**headers, **before, "header__change_mask": b""})
        operation = {"I": "INSERT", "U": "UPDATE"}[op]
        mask = _mask(columns, changed, len(ch.CT_HEADERS))
        rows.append(
            {
                **headers,
                **row,
                "header__change_oper": op,
                "header__operation": operation,
                "header__change_mask": mask,
            }
        )
    return rows


def _kafka_metadata(columns: dict, version: int) -> str:
    table_columns = qlik_table_columns(columns, ["id"])
    lineage = {"server": "replicate", "task": "schema", "schema": "dbo", "table": "ACCOUNTS"}
    return ch._envelope(
        "MD",
        {
            "schemaId": f"ACCOUNTS-{version}",
            "lineage": {**lineage, "tableVersion": version, "timestamp": "2024-05-01T07:00:00.000"},
            "tableStructure": {"tableColumns": table_columns},
            "dataSchema": "{}",
        },
    )


def _kafka_messages(changes, columns: dict, first_number: int) -> list[str]:
    messages = []
    for number, (op, key, row, changed, at) in enumerate(changes, start=first_number):
        headers = {
            "operation": {"I": "INSERT", "U": "UPDATE"}[op],
            "changeSequence": _change_seq(at, number),
            "timestamp": at.strftime("%Y-%m-%dT%H:%M:%S.000"),
            "streamPosition": f"pos-{number}",
            "transactionId": f"{number:032X}",
            "changeMask": _mask(columns, changed, 0)[::-1].hex().upper(),
            "columnMask": _mask(columns, list(columns), 0)[::-1].hex().upper(),
            "transactionEventCounter": 1,
            "transactionLastEvent": True,
        }
        before = {k.upper(): str(v) for k, v in BEFORE_ROWS[key].items()} if op == "U" else None
        data = {name.upper(): None if value is None else str(value) for name, value in row.items()}
        message = {
            "schema": "dbo",
            "table": "ACCOUNTS",
            "data": data,
            "beforeData": before,
            "headers": headers,
        }
        messages.append(ch._envelope("DT", message))
    return messages


def _debezium_events(changes, columns: dict, first_number: int) -> list[str]:
    fields = [
        {"type": "int32" if data_type == "int" else "string", "optional": name != "id", "field": name}
        for name, data_type in columns.items()
    ]
    schema = debezium_envelope_schema(fields, "server1.dbo.accounts")
    events = []
    for number, (op, key, row, _, at) in enumerate(changes, start=first_number):
        ts_ms = (at - datetime(1970, 1, 1)).total_seconds() * 1000
        source = {
            "version": "2.7.0.Final",
            "connector": "sqlserver",
            "name": "server1",
            "ts_ms": int(ts_ms),
            "snapshot": "false",
            "db": "testDB",
            "schema": "dbo",
            "table": "accounts",
            "change_lsn": f"00000100:{number:08x}:0002",
            "commit_lsn": f"00000100:{number:08x}:ffff",
            "event_serial_no": 2 if op == "U" else 1,
        }
        before = BEFORE_ROWS[key] if op == "U" else None
        payload = {
            "before": before,
            "after": row,
            "source": source,
            "op": {"I": "c", "U": "u"}[op],
            "ts_ms": int(ts_ms),
        }
        events.append(json.dumps({"schema": schema, "payload": payload}, separators=(",", ":")))
    return events


def _dirxml_events(changes, first_record_id: int) -> list[dict]:
    events = []
    for op, key, row, changed, at in changes:
        for column in changed:
            if column == "id":
                continue
            events.append(
                {
                    "record_id": first_record_id + len(events),
                    "status": "N",
                    "event_type": 1 if op == "I" else 2,
                    "event_time": at,
                    "perpetrator": "app",
                    "table_name": "accounts",
                    "table_key": f"id={key}",
                    "column_name": column,
                    "old_value": None if op == "I" else BEFORE_ROWS[key].get(column),
                    "new_value": row[column],
                }
            )
    return events


def _land(spark, changes, columns: dict, batch: int) -> None:
    first = 10 * batch
    if batch == 1:
        spark.sql(f"create database if not exists {RAW}")
        _append(spark, "sc_ct", BEFORE, BASELINE)
    else:
        # Replicate adds the column to the change table; the full-load table stays as it was
        spark.sql(f"alter table {RAW}.sc_ct__ct add columns (tier string)")
    _append(spark, "sc_ct__ct", {**ch.CT_HEADERS, **columns}, _ct_rows(changes, columns, first))
    baseline = [
        ch._envelope(
            "DT",
            {
                "schema": "dbo",
                "table": "ACCOUNTS",
                "data": {k.upper(): str(v) for k, v in row.items()},
                "beforeData": None,
                "headers": {"operation": "REFRESH"},
            },
        )
        for row in BASELINE
    ]
    messages = [
        _kafka_metadata(columns, batch),
        *(baseline if batch == 1 else []),
        *_kafka_messages(changes, columns, first),
    ]
    landed_at = datetime(2024, 5, 1, 7 + batch)
    kafka = [
        {
            "topic": "dbo.accounts",
            "partition": 0,
            "offset": first + i,
            "timestamp": landed_at,
            "key": "k",
            "value": v,
        }
        for i, v in enumerate(messages)
    ]
    _append(spark, "sc_kafka_messages", KAFKA_LANDING, kafka)
    events = _debezium_events(changes, columns, first)
    if batch == 1:  # the baseline as snapshot reads
        events = [
            json.dumps(
                {
                    "payload": {
                        "before": None,
                        "after": row,
                        "source": {
                            "version": "2.7.0.Final",
                            "connector": "sqlserver",
                            "name": "server1",
                            "ts_ms": 1714546800000,
                            "snapshot": "true",
                            "db": "testDB",
                            "schema": "dbo",
                            "table": "accounts",
                            "change_lsn": None,
                            "commit_lsn": "00000001:00000001:0001",
                            "event_serial_no": None,
                        },
                        "op": "r",
                        "ts_ms": 1714546800000,
                    }
                },
                separators=(",", ":"),
            )
            for row in BASELINE
        ] + events
    dbz = [
        {
            "topic": "server1.dbo.accounts",
            "partition": 0,
            "offset": first + i,
            "timestamp": landed_at,
            "key": "k",
            "value": v,
        }
        for i, v in enumerate(events)
    ]
    _append(spark, "sc_dbz_events", KAFKA_LANDING, dbz)
    baseline_events = [
        (op_row := {"id": row["id"], "name": row["name"]})
        and ("I", row["id"], op_row, ["name"], T1.replace(hour=7))
        for row in BASELINE
    ]
    logged = _dirxml_events((baseline_events if batch == 1 else []) + changes, 100 * batch)
    _append(spark, "sc_dirxml_log", ch.DIRXML_LOG, logged)


def _rows(spark, relation: str) -> list[tuple]:
    columns = (
        ["id", "name", "tier"] if "tier" in [c.name for c in spark.table(relation).schema] else ["id", "name"]
    )
    return sorted(
        tuple(None if v is None else as_text(v) for v in row) + ((None,) if len(columns) == 2 else ())
        for row in spark.sql(f"select {', '.join(columns)} from {relation}").collect()
    )


@pytest.fixture(scope="module")
def gained_a_column(spark, state_dir, tmp_path_factory):
    """The project after a run before the column and a run after it: (project, the
    history rows of each table after the first run)."""
    project = make_project(
        tmp_path_factory.mktemp("schema_change"), _tables(BEFORE), {"cdcflow_raw_schema": RAW}
    )
    _land(spark, BATCH_1, BEFORE, 1)
    run_dbt(state_dir, "run", schema=SCHEMA, project_dir=project)
    first = {table: _rows(spark, f"{SCHEMA}.{table}_history") for table in TABLES}
    _land(spark, BATCH_2, AFTER, 2)
    _configure(project, AFTER)
    # `run`: the marts' contracts (written again by onboard) are enforced as they are built
    run_dbt(state_dir, "run", schema=SCHEMA, project_dir=project)
    return project, first


def test_before_the_column_every_format_builds_the_table(gained_a_column):
    _, first = gained_a_column
    for table in TABLES:
        assert first[table] == [("1", "a", None), ("2", "b", None), ("2", "b2", None)], table


@pytest.mark.parametrize("table", TABLES)
def test_versions_before_the_new_column_have_null_and_later_ones_carry_it(spark, gained_a_column, table):
    assert _rows(spark, f"{SCHEMA}.{table}_history") == HISTORY
    assert _rows(spark, f"{SCHEMA}.{table}_current") == CURRENT
    # the change log and the versions gained the column in place (no full refresh)
    for model in (f"int_{table}__changes_logged", f"int_{table}__versioned"):
        assert "tier" in [field.name for field in spark.table(f"{SCHEMA}.{model}").schema], model


def test_a_column_dropped_from_the_configuration_stops_each_change_log_saying_what_to_do(
    spark, state_dir, gained_a_column
):
    project, _ = gained_a_column
    _configure(project, {"id": "int", "tier": "string"})
    try:
        result = invoke_dbt_in(state_dir, ["run"], schema=SCHEMA, project_dir=project)
    finally:
        _configure(project, AFTER)
    assert not result.success
    messages = {r.node.name: r.message or "" for r in result.result.results if str(r.status) == "error"}
    for table in TABLES:
        message = messages[f"int_{table}__changes_logged"]
        expected = (
            f"cdcflow: table '{table}': column 'name' is in {SCHEMA}.int_{table}__changes_logged but no"
            f" longer in vars.cdcflow_tables.{table}.columns, and a history keeps its columns."
        )
        assert expected in message, message
        assert message.split("\n")[1].endswith(f"dbt run --full-refresh --selector {table}."), message
