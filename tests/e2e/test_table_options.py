"""Per-table options (docs/options.md) that the cross-format equivalence does not
cover: column selection. The source table has id, name, secret and tier; its
changes land as a Qlik `__ct` change table, as Debezium events and as a DirXML
event log, and each table carries only some columns:

* `opt_ct`: `columns` lists a selection of the change table's columns in
  another order (tier before name, secret left out): each change-mask bit is
  its column's ordinal in the landed table, not its place in the list;
* `opt_ct_except`, `opt_dbz`, `opt_dirxml`: all four columns, `except_columns:
  [secret]`.

An update of `secret` alone changes nothing the tables carry: it is a version
whose changed_columns is empty (skip_unchanged_versions, issue 17 item 1, is
what drops it). DirXML's events naming `secret` are read, not quarantined."""

import json
from datetime import datetime

import pytest

from tests.e2e import change_history as ch
from tests.e2e.helpers import as_text, make_project, run_dbt

pytestmark = pytest.mark.spark

SCHEMA = "e2e_options"
RAW = f"{SCHEMA}_raw"
SOURCE = {"id": "int", "name": "string", "secret": "string", "tier": "string"}
T0 = datetime(2024, 5, 1, 8, 0, 0)
BASELINE = {1: {"id": 1, "name": "a", "secret": "s1", "tier": "gold"}}
# (op, key, row after, changed columns, commit time)
CHANGES = [
    ("I", 2, {"id": 2, "name": "b", "secret": "s2", "tier": "silver"}, list(SOURCE), T0.replace(minute=1)),
    ("U", 1, {"id": 1, "name": "a", "secret": "s1-new", "tier": "gold"}, ["secret"], T0.replace(minute=2)),
    (
        "U",
        2,
        {"id": 2, "name": "b2", "secret": "s2", "tier": "bronze"},
        ["name", "tier"],
        T0.replace(minute=3),
    ),
]
SELECTED = ["id", "name", "tier"]
# history rows (id, name, tier, operation, changed columns sorted) of every table: the
# baseline row lands as an insert (no full load); the update of `secret` alone changes
# none of the columns carried
HISTORY = [
    ("1", "a", "gold", "I", "id|name|tier"),
    ("1", "a", "gold", "U", ""),
    ("2", "b", "silver", "I", "id|name|tier"),
    ("2", "b2", "bronze", "U", "name|tier"),
]


def _tables() -> dict:
    ct = {"format": "qlik_ct", "key": ["id"]}
    excepted = {"key": ["id"], "columns": dict(SOURCE), "except_columns": ["secret"]}
    return {
        # a selection, in another order than the change table's
        "opt_ct": {
            **ct,
            "change_table": "opt__ct",
            "columns": {"id": "int", "tier": "string", "name": "string"},
        },
        "opt_ct_except": {**ct, "change_table": "opt_except__ct", **excepted},
        "opt_dbz": {
            "format": "debezium",
            "raw_table": "opt_dbz_events",
            "topic": "server1.dbo.opt",
            **excepted,
        },
        "opt_dirxml": {
            "format": "dirxml",
            "raw_table": "opt_dirxml_log",
            "source_table": "opt",
            "query_back_table": None,
            **excepted,
        },
    }


def _append(spark, table: str, columns: dict[str, str], rows: list[dict]) -> None:
    ddl = ", ".join(f"`{name}` {data_type}" for name, data_type in columns.items())
    spark.sql(f"create table if not exists {RAW}.{table} ({ddl}) using parquet")
    frame = spark.createDataFrame([tuple(row.get(c) for c in columns) for row in rows], ddl)
    frame.write.mode("append").insertInto(f"{RAW}.{table}")


def _ct_rows() -> list[dict]:
    """The baseline insert and the changes as Replicate writes them."""
    rows = []
    before = dict(BASELINE)
    changes = [("I", 1, BASELINE[1], list(SOURCE), T0)] + CHANGES
    for number, (op, key, row, changed, at) in enumerate(changes, start=1):
        headers = {
            "header__change_seq": at.strftime("%Y%m%d%H%M%S") + "00" + f"{number:019d}",
            "header__stream_position": f"pos-{number}",
            "header__transaction_id": f"{number:032X}",
            "header__timestamp": at,
        }
        if op == "U":
            rows.append(
                {**headers, **before[key], "header__change_oper": "B", "header__operation": "BEFOREIMAGE"}
            )
        bits = sum(1 << (len(ch.CT_HEADERS) + list(SOURCE).index(c)) for c in changed)
        mask = bits.to_bytes((bits.bit_length() + 7) // 8, "little")
        operation = {"I": "INSERT", "U": "UPDATE"}[op]
        rows.append(
            {
                **headers,
                **row,
                "header__change_oper": op,
                "header__operation": operation,
                "header__change_mask": mask,
            }
        )
        before[key] = row
    return rows


def _debezium_events() -> list[str]:
    fields = [
        {"type": "int32" if t == "int" else "string", "optional": name != "id", "field": name}
        for name, t in SOURCE.items()
    ]
    schema = ch.debezium_envelope_schema(fields, "server1.dbo.opt")
    events = []
    before = {}
    changes = [("I", 1, BASELINE[1], list(SOURCE), T0)] + CHANGES
    for number, (op, key, row, _, at) in enumerate(changes, start=1):
        ts_ms = int((at - datetime(1970, 1, 1)).total_seconds() * 1000)
        source = {
            "version": "2.7.0.Final",
            "connector": "sqlserver",
            "name": "server1",
            "ts_ms": ts_ms,
            "snapshot": "false",
            "db": "testDB",
            "schema": "dbo",
            "table": "opt",
            "change_lsn": f"00000100:{number:08x}:0002",
            "commit_lsn": f"00000100:{number:08x}:ffff",
            "event_serial_no": 2 if op == "U" else 1,
        }
        payload = {"before": before.get(key), "after": row, "source": source, "op": {"I": "c", "U": "u"}[op]}
        events.append(json.dumps({"schema": schema, "payload": {**payload, "ts_ms": ts_ms}}))
        before[key] = row
    return [
        {"topic": "server1.dbo.opt", "partition": 0, "offset": i, "timestamp": T0, "key": "k", "value": e}
        for i, e in enumerate(events)
    ]


def _dirxml_events() -> list[dict]:
    events = []
    before = {}
    changes = [("I", 1, BASELINE[1], list(SOURCE), T0)] + CHANGES
    for op, key, row, changed, at in changes:
        for column in changed:
            if column == "id":
                continue
            events.append(
                {
                    "record_id": 1 + len(events),
                    "status": "N",
                    "event_type": 1 if op == "I" else 2,
                    "event_time": at,
                    "perpetrator": "app",
                    "table_name": "opt",
                    "table_key": f"id={key}",
                    "column_name": column,
                    "old_value": before.get(key, {}).get(column),
                    "new_value": row[column],
                }
            )
        before[key] = row
    return events


@pytest.fixture(scope="module")
def built(spark, state_dir, tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("options"), _tables(), {"cdcflow_raw_schema": RAW})
    spark.sql(f"create database if not exists {RAW}")
    for table in ("opt__ct", "opt_except__ct"):
        _append(spark, table, {**ch.CT_HEADERS, **SOURCE}, _ct_rows())
    _append(spark, "opt_dbz_events", ch.KAFKA_LANDING, _debezium_events())
    _append(spark, "opt_dirxml_log", ch.DIRXML_LOG, _dirxml_events())
    # `run`: the marts' contracts (the selected columns only) are enforced as they are built
    run_dbt(state_dir, "run", schema=SCHEMA, project_dir=project)
    return spark


def _history(spark, table: str) -> list[tuple]:
    rows = spark.sql(
        f"select id, name, tier, operation, changed_columns from {SCHEMA}.{table}_history"
    ).collect()
    return sorted((*(as_text(v) for v in row[:4]), "|".join(sorted(row[4] or []))) for row in rows)


@pytest.mark.parametrize("table", sorted(_tables()))
def test_a_table_carries_only_its_selected_columns(built, table):
    for relation in (f"{table}_history", f"{table}_current", f"int_{table}__changes_logged"):
        columns = [field.name for field in built.table(f"{SCHEMA}.{relation}").schema]
        assert "secret" not in columns and set(SELECTED) <= set(columns), relation
    assert _history(built, table) == HISTORY


def test_dirxml_reads_the_events_of_an_excluded_column_without_quarantining_them(built):
    assert built.sql(f"select count(*) from {SCHEMA}.dirxml_quarantine").first()[0] == 0
    outcomes = built.sql(
        f"select status, count(*) from {SCHEMA}.dirxml_event_outcomes group by status"
    ).collect()
    assert {row[0] for row in outcomes} == {"S"}
