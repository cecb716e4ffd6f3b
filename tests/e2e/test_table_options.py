"""Per-table options (docs/options.md) that the cross-format equivalence does not
cover: column selection and tracked columns. The source table has id, name,
secret and tier; its changes land as a Qlik `__ct` change table, as Debezium
events and as a DirXML event log, and each table carries only some columns:

* `opt_ct`: `columns` lists a selection of the change table's columns in
  another order (tier before name, secret left out): each change-mask bit is
  its column's ordinal in the landed table, not its place in the list;
* `opt_ct_except`, `opt_dbz`, `opt_dirxml`: all four columns, `except_columns:
  [secret]`.

An update of `secret` alone changes nothing the tables carry: it is a version
whose changed_columns is empty (skip_unchanged_versions is what drops it).
DirXML's events naming `secret` are read, not quarantined.

Tracked columns, over two runs (the second lands late changes):

* `opt_ct_tracked` (`__ct`, `track_history_columns: [tier]`) and
  `opt_dbz_tracked` (Debezium, `track_history_except_columns: [name, secret]`):
  only a change of tier opens a version;
* `opt_ct_unchanged` (`__ct`, `skip_unchanged_versions`, `deletes: flag`): an
  update that changes no value opens none."""

import json
from datetime import datetime

import pytest

from testkit import change_history as ch
from testkit.vendors import KAFKA_LANDING, debezium_envelope_schema
from tests.e2e.helpers import append_rows, as_text, make_project, run_dbt

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
# the changes of the tables with tracked columns, in commit order, and the run
# that lands each: the second lands two late changes, each inside a version the
# first run had already closed (key 2's at 04 between 03 and 05; key 1's at 02:30
# between 02 and 06), then a no-op update and a delete
T = {minute: T0.replace(minute=minute) for minute in range(10)}
T[2.5] = T0.replace(minute=2, second=30)
TRACKED_CHANGES = [
    (1, ("I", 1, BASELINE[1], list(SOURCE), T[0])),
    (1, ("I", 2, {"id": 2, "name": "b", "secret": "s2", "tier": "silver"}, list(SOURCE), T[1])),
    (1, ("U", 1, {"id": 1, "name": "a", "secret": "s1-new", "tier": "gold"}, ["secret"], T[2])),
    (2, ("U", 1, {"id": 1, "name": "a", "secret": "s1-new", "tier": "silver"}, ["tier"], T[2.5])),
    (1, ("U", 2, {"id": 2, "name": "b2", "secret": "s2", "tier": "bronze"}, ["name", "tier"], T[3])),
    (2, ("U", 2, {"id": 2, "name": "b3", "secret": "s2", "tier": "bronze"}, ["name"], T[4])),
    (1, ("U", 2, {"id": 2, "name": "b3", "secret": "s2", "tier": "platinum"}, ["tier"], T[5])),
    (1, ("U", 1, {"id": 1, "name": "a2", "secret": "s1-new", "tier": "silver"}, ["name"], T[6])),
    (2, ("U", 1, {"id": 1, "name": "a2", "secret": "s1-new", "tier": "silver"}, ["name"], T[7])),
    (2, ("D", 2, {"id": 2, "name": "b3", "secret": "s2", "tier": "platinum"}, [], T[8])),
]
# (id, name, secret, tier, operation, valid_from, valid_to, changed columns) of each
# version after the second run. Tracking tier: an update of anything else updates
# the open version (its values, changed_columns; its valid_from stays)
TRACKED_TIER_HISTORY = [
    (1, "a", "s1-new", "gold", "I", T[0], T[2.5], "id|name|secret|tier"),
    (1, "a2", "s1-new", "silver", "U", T[2.5], None, "name|tier"),
    (2, "b", "s2", "silver", "I", T[1], T[3], "id|name|secret|tier"),
    (2, "b3", "s2", "bronze", "U", T[3], T[5], "name|tier"),
    (2, "b3", "s2", "platinum", "U", T[5], T[8], "tier"),
]
# after the first run: key 1's update of secret at 02 updated the version of its
# insert; its update at 06 carries tier silver (the late change at 02:30 set it), so
# it opened one. The second run moves that version's start to 02:30, where the tier
# changed, and 06 updates it
RUN_1_TRACKED_TIER_HISTORY = [
    (1, "a", "s1-new", "gold", "I", T[0], T[6], "id|name|secret|tier"),
    (1, "a2", "s1-new", "silver", "U", T[6], None, "name"),
    (2, "b", "s2", "silver", "I", T[1], T[3], "id|name|secret|tier"),
    (2, "b2", "s2", "bronze", "U", T[3], T[5], "name|tier"),
    (2, "b3", "s2", "platinum", "U", T[5], None, "tier"),
]
# skip_unchanged_versions (and deletes: flag): only the no-op update at 07 opens no version
UNCHANGED_SKIPPED_HISTORY = [
    (1, "a", "s1", "gold", "I", T[0], T[2], "id|name|secret|tier"),
    (1, "a", "s1-new", "gold", "U", T[2], T[2.5], "secret"),
    (1, "a", "s1-new", "silver", "U", T[2.5], T[6], "tier"),
    (1, "a2", "s1-new", "silver", "U", T[6], None, "name"),
    (2, "b", "s2", "silver", "I", T[1], T[3], "id|name|secret|tier"),
    (2, "b2", "s2", "bronze", "U", T[3], T[4], "name|tier"),
    (2, "b3", "s2", "bronze", "U", T[4], T[5], "name"),
    (2, "b3", "s2", "platinum", "U", T[5], T[8], "tier"),
    # a `__ct` delete's change mask is empty here
    (2, "b3", "s2", "platinum", "D", T[8], None, ""),
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


def _tracked_tables() -> dict:
    every = {"key": ["id"], "columns": dict(SOURCE)}
    return {
        "opt_ct_tracked": {
            "format": "qlik_ct",
            "change_table": "opt_tracked__ct",
            **every,
            "track_history_columns": ["tier"],
        },
        "opt_dbz_tracked": {
            "format": "debezium",
            "raw_table": "opt_tracked_dbz_events",
            "topic": "server1.dbo.opt_tracked",
            **every,
            "track_history_except_columns": ["name", "secret"],
        },
        "opt_ct_unchanged": {
            "format": "qlik_ct",
            "change_table": "opt_tracked__ct",
            **every,
            "skip_unchanged_versions": True,
            "deletes": "flag",
        },
    }


def _land_tracked(spark, run: int) -> None:
    """The rows of the changes TRACKED_CHANGES lands in `run` (each change's
    change_seq, LSNs and before image from its place among all of them)."""
    changes = [change for _, change in TRACKED_CHANGES]
    numbers = {number for number, (landed, _) in enumerate(TRACKED_CHANGES, start=1) if landed == run}
    rows = [row for row in _ct_rows(changes) if int(row["header__stream_position"].split("-")[1]) in numbers]
    _append(spark, "opt_tracked__ct", {**ch.CT_HEADERS, **SOURCE}, rows)
    events = _debezium_events(changes, "server1.dbo.opt_tracked")
    _append(
        spark, "opt_tracked_dbz_events", KAFKA_LANDING, [events[number - 1] for number in sorted(numbers)]
    )


def _selection_tables() -> dict:
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
    """Land ``rows`` as new parquet files of ``RAW.table`` (created on first use)."""
    append_rows(spark, RAW, table, columns, rows)


def _ct_rows(changes: list[tuple]) -> list[dict]:
    """The changes, in commit order, as Replicate writes them."""
    rows = []
    before = {}
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
        operation = {"I": "INSERT", "U": "UPDATE", "D": "DELETE"}[op]
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


def _debezium_events(changes: list[tuple], topic: str) -> list[dict]:
    """The changes, in commit order, as Debezium events landed from Kafka."""
    fields = [
        {"type": "int32" if t == "int" else "string", "optional": name != "id", "field": name}
        for name, t in SOURCE.items()
    ]
    schema = debezium_envelope_schema(fields, topic)
    events = []
    before = {}
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
            "table": topic.rsplit(".", 1)[-1],
            "change_lsn": f"00000100:{number:08x}:0002",
            "commit_lsn": f"00000100:{number:08x}:ffff",
            "event_serial_no": 2 if op == "U" else 1,
        }
        payload = {
            "before": before.get(key),
            "after": None if op == "D" else row,
            "source": source,
            "op": {"I": "c", "U": "u", "D": "d"}[op],
        }
        events.append(json.dumps({"schema": schema, "payload": {**payload, "ts_ms": ts_ms}}))
        before[key] = row
    return [
        {"topic": topic, "partition": 0, "offset": i, "timestamp": T0, "key": "k", "value": e}
        for i, e in enumerate(events)
    ]


def _dirxml_events(changes: list[tuple]) -> list[dict]:
    events = []
    before = {}
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
def project(tmp_path_factory):
    tables = {**_selection_tables(), **_tracked_tables()}
    return make_project(tmp_path_factory.mktemp("options"), tables, {"cdcflow_raw_schema": RAW})


@pytest.fixture(scope="module")
def built(spark, state_dir, project):
    spark.sql(f"create database if not exists {RAW}")
    changes = [("I", 1, BASELINE[1], list(SOURCE), T0), *CHANGES]
    for table in ("opt__ct", "opt_except__ct"):
        _append(spark, table, {**ch.CT_HEADERS, **SOURCE}, _ct_rows(changes))
    _append(spark, "opt_dbz_events", KAFKA_LANDING, _debezium_events(changes, "server1.dbo.opt"))
    _append(spark, "opt_dirxml_log", ch.DIRXML_LOG, _dirxml_events(changes))
    _land_tracked(spark, run=1)
    # `run`: the marts' contracts (the selected columns only) are enforced as they are built
    run_dbt(state_dir, "run", schema=SCHEMA, project_dir=project)
    return spark


def _versions(spark, table: str) -> list[tuple]:
    rows = spark.sql(
        "select id, name, secret, tier, operation, valid_from, valid_to, changed_columns"
        f" from {SCHEMA}.{table}_history"
    ).collect()
    return sorted((*row[:7], "|".join(sorted(row[7] or []))) for row in rows)


@pytest.fixture(scope="module")
def tracked_histories(built, state_dir, project):
    """The tracked tables' histories after the first run, then after a second
    (incremental) run landing the late changes."""
    histories = {1: {table: _versions(built, table) for table in _tracked_tables()}}
    _land_tracked(built, run=2)
    run_dbt(
        state_dir,
        *("run", "--select", "source:qlik_ct.opt_tracked__ct+", "source:debezium.opt_tracked_dbz_events+"),
        schema=SCHEMA,
        project_dir=project,
    )
    histories[2] = {table: _versions(built, table) for table in _tracked_tables()}
    return histories


def _history(spark, table: str) -> list[tuple]:
    rows = spark.sql(
        f"select id, name, tier, operation, changed_columns from {SCHEMA}.{table}_history"
    ).collect()
    return sorted((*(as_text(v) for v in row[:4]), "|".join(sorted(row[4] or []))) for row in rows)


@pytest.mark.parametrize("table", sorted(_selection_tables()))
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


@pytest.mark.parametrize("table", ["opt_ct_tracked", "opt_dbz_tracked"])
def test_an_update_of_untracked_columns_updates_the_open_version(tracked_histories, table):
    """Tracking tier (track_history_columns on `__ct`, track_history_except_columns
    on Debezium): first run, then a run landing a late change inside a version
    the first had closed (it joins it) and a tier change before one the first run
    had made a version (the version starts at the tier change instead)."""
    assert tracked_histories[1][table] == sorted(RUN_1_TRACKED_TIER_HISTORY)
    assert tracked_histories[2][table] == sorted(TRACKED_TIER_HISTORY)


def test_skip_unchanged_versions_drops_only_the_updates_that_change_nothing(tracked_histories):
    assert tracked_histories[2]["opt_ct_unchanged"] == sorted(UNCHANGED_SKIPPED_HISTORY)
