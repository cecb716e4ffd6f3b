"""The proof that the formats converge: one logical change history of a simulated
source table (inserts, updates to and from null, deletes, primary-key updates,
re-inserted keys, several changes per key and per transaction, equal commit
times) written as a Qlik `__ct` change table, as Qlik Kafka messages, as Debezium
events and as DirXML event-log rows (with query-back events reading a source
table), each onboarded the way docs/onboarding.md says (configuration plus one-line
model files). The four `_current` tables are identical, equal to the simulated
table, and the four `_history` tables are identical (DirXML's baseline is logged
as inserts, having no full load): after a full build, and after an incremental
run that lands the rest of the stream, late transactions (older than changes
already applied) and second deliveries. The two runs are those the kill sweep
compares its killed runs with (tests/e2e/fault_workloads.py, ``formats``): made
once, in their own process, for both files.

This module holds the source history, its landing and the checks
(`EquivalenceChecks`); test_equivalence_on_<format>.py runs them on each table
format, a file each, so that the two test workers share them out."""

from datetime import datetime, timedelta

import pytest

from testkit import change_history as ch
from testkit.vendors import KAFKA_LANDING
from tests.e2e.helpers import append_rows, as_text
from tests.e2e.suite import EVERY_TABLE_FORMAT

# CI runs the equivalence on Delta Lake, the default table format; on Iceberg and parquet
# a faster subset (each file says which), the whole of it with the flag (tests/e2e/suite.py)
ON_EVERY_TABLE_FORMAT_ONLY = pytest.mark.skipif(
    not EVERY_TABLE_FORMAT,
    reason="the equivalence on Iceberg and parquet runs with CDCFLOW_EVERY_TABLE_FORMAT=1 (CI: Delta Lake's)",
)
SCHEMA = "e2e_equivalence"
RAW = f"{SCHEMA}_raw"
FORMATS = {"eq_ct": "qlik_ct", "eq_kafka": "qlik_kafka", "eq_dbz": "debezium", "eq_dirxml": "dirxml"}
# identifiers that are each format's own (LSNs, change sequences, transaction ids) are left out
HISTORY = [
    *ch.COLUMNS,
    "operation",
    "valid_from",
    "valid_to",
    "closed_by_operation",
    "is_current",
    "changed_columns",
]
CURRENT = [*ch.COLUMNS, "last_operation", "last_changed_at", "is_deleted", "deleted_at"]
# the change logs' columns compared (every row)
LOG = [*ch.COLUMNS, "operation", "change_order", "committed_at", "transaction_id", "changed_columns"]

# ends with a transaction deleting 3 keys: deleted keys stay in _current (deletes: flag)
HISTORY_OF_SOURCE = ch.simulate(seed=20261121, keys=25, transactions=80, final_deletes=3)
ALL = list(range(len(HISTORY_OF_SOURCE.transactions)))
DIRXML_EVENTS = ch.dirxml_events(HISTORY_OF_SOURCE, table="accounts")
SPLIT = 50
# a transaction of several changes whose first Qlik Kafka record lands in batch 1
# and the rest in batch 2: held back until complete (the other formats land it whole in batch 2)
SPLIT_TRANSACTION = next(t for t in range(10, SPLIT) if len(HISTORY_OF_SOURCE.transactions[t]) > 1)
LATE = sorted({*range(10, SPLIT, 9), SPLIT_TRANSACTION})  # held back from batch 1, landing in batch 2
BATCH_1 = [t for t in range(SPLIT) if t not in LATE]
REPLAYED = [t for t in range(0, SPLIT, 6) if t not in LATE]  # delivered a second time in batch 2
BATCH_2 = [*range(SPLIT, len(ALL)), *LATE, *REPLAYED]


def _committed_at(transaction: int) -> datetime:
    return HISTORY_OF_SOURCE.transactions[transaction][0].committed_at


# a transaction of several changes (the Kafka one held back across the runs)
WHOLE = SPLIT_TRANSACTION
# the instants cdcflow.as_of and changes_between are asked about (fault_workloads,
# the clean run of batch 2): after the baseline, before any change; 1 µs before the
# commit of WHOLE, then at it (between the changes of a transaction there is no
# commit time: seen whole or not at all); the commits of a transaction of batch 1,
# of a late one, of one in batch 2, of the last, and a day after it
INSTANTS = [
    datetime(2024, 5, 1, 7, 30),
    _committed_at(WHOLE) - timedelta(microseconds=1),
    _committed_at(WHOLE),
    _committed_at(30),
    _committed_at(LATE[-1]),
    _committed_at(SPLIT + 7),
    _committed_at(len(ALL) - 1),
    _committed_at(len(ALL) - 1) + timedelta(days=1),
]


VALID_TO_CURRENT = "timestamp'9999-12-31 00:00:00'"
# the checks fold each history as `track_history_columns: [amount]` would
# (fault_workloads._checks): updates that leave the amount as it was update the open version
TRACKED_COLUMNS = ["amount"]


def _tables() -> dict[str, dict]:
    """The four written formats of the simulated source table."""
    # open versions end at a far-future time (dbt's dbt_valid_to_current), for `between`;
    # deleted keys are kept (a delete is a version; _current flags the key)
    common = {
        "key": [ch.KEY],
        "columns": dict(ch.COLUMNS),
        "valid_to_current": VALID_TO_CURRENT,
        "deletes": "flag",
    }
    return {
        "eq_ct": {"format": "qlik_ct", "change_table": "eq_ct__ct", "full_load_table": "eq_ct", **common},
        "eq_kafka": {
            "format": "qlik_kafka",
            "raw_table": "eq_kafka_messages",
            "source_schema": "dbo",
            "source_table": "ACCOUNTS",
            **common,
        },
        "eq_dbz": {
            "format": "debezium",
            "raw_table": "eq_dbz_events",
            "topic": "server1.dbo.accounts",
            **common,
        },
        "eq_dirxml": {
            "format": "dirxml",
            "raw_table": "eq_dirxml_log",
            "source_table": "accounts",
            "query_back_table": "eq_dirxml_source",
            **common,
        },
    }


def _append(spark, table: str, columns: dict[str, str], rows: list[dict]) -> None:
    """Land ``rows`` as new parquet files of ``RAW.table`` (created on first use)."""
    append_rows(spark, RAW, table, columns, rows)


def _land(spark, transactions: list[int], *, first: bool, offset: int) -> None:
    history = HISTORY_OF_SOURCE
    ct_columns = {**ch.CT_HEADERS, **ch.COLUMNS}
    _append(spark, "eq_ct__ct", ct_columns, ch.ct_rows(history, transactions))
    _append(spark, "eq_ct", ch.COLUMNS, ch.ct_full_load(history) if first else [])
    kafka = ch.kafka_messages(history, transactions, schema="dbo", table="ACCOUNTS", refresh=first)
    if first:
        split = ch.kafka_messages(history, [SPLIT_TRANSACTION], schema="dbo", table="ACCOUNTS", refresh=False)
        kafka += split[:1]
    metadata = [(0, ch.kafka_metadata("dbo", "ACCOUNTS"))] if first else []
    _append(
        spark,
        "eq_kafka_messages",
        KAFKA_LANDING,
        ch.kafka_landing_rows("dbo.accounts", metadata + kafka, offset),
    )
    events = ch.debezium_events(history, transactions, table="accounts", snapshot=first)
    _append(
        spark,
        "eq_dbz_events",
        KAFKA_LANDING,
        ch.kafka_landing_rows("server1.dbo.accounts", events, offset),
    )
    logged = [e for number in ([-1] if first else []) + transactions for e in DIRXML_EVENTS.get(number, [])]
    _append(spark, "eq_dirxml_log", ch.DIRXML_LOG, logged)
    # the source table as query-back events read it (the rows after every change)
    _append(spark, "eq_dirxml_source", ch.COLUMNS, ch.dirxml_source_rows(history) if first else [])


def _rows(tables: dict[str, list], relation: str, columns: list[str]) -> list[tuple]:
    """The rows of ``relation`` (``table_history``, ``table_current``, ``table_log``)
    as a worker run dumped them (fault_workloads._dump_formats), ``columns`` only."""
    dumped = {
        "history": [*HISTORY, "change_order"],
        "current": CURRENT,
        "log": LOG,
    }[relation.rsplit("_", 1)[1]]
    return sorted(tuple(row[dumped.index(c)] for c in columns) for row in tables[relation])


def _expected_current(transactions: list[int], **options) -> list[tuple]:
    return sorted(
        tuple(as_text(row[c]) for c in ch.COLUMNS)
        for row in HISTORY_OF_SOURCE.state_after(transactions, **options).values()
    )


def _assert_equivalent(tables: dict[str, list], transactions: list[int], *, complete: bool = True) -> None:
    """The four formats agree. ``complete=False`` (late transactions missing): a row
    image (Qlik, Debezium) carries what late changes did to the other columns,
    DirXML's per-field events do not, so until the late events land its table is
    the one the landed field events describe, and its history is not compared."""
    histories = {}
    for table in FORMATS:
        current = _rows(tables, f"{table}_current", CURRENT)
        expected_current = _expected_current(
            transactions, changed_columns_only=(table == "eq_dirxml" and not complete)
        )
        live = [row[: len(ch.COLUMNS)] for row in current if row[CURRENT.index("is_deleted")] == "false"]
        assert live == expected_current, table
        histories[table] = _rows(tables, f"{table}_history", HISTORY)
    assert _rows(tables, "eq_kafka_current", CURRENT) == _rows(tables, "eq_ct_current", CURRENT)
    assert _rows(tables, "eq_dbz_current", CURRENT) == _rows(tables, "eq_ct_current", CURRENT)
    assert histories["eq_kafka"] == histories["eq_ct"]
    assert histories["eq_dbz"] == histories["eq_ct"]
    if not complete:
        return
    # DirXML has no full load: its baseline is logged as inserts at DIRXML_BASELINE_TIME
    assert _rows(tables, "eq_dirxml_current", CURRENT) == sorted(
        _as_logged_inserts(row, CURRENT.index("last_operation"), CURRENT.index("last_changed_at"))
        for row in _rows(tables, "eq_ct_current", CURRENT)
    )
    assert histories["eq_dirxml"] == sorted(
        _as_logged_inserts(row, HISTORY.index("operation"), HISTORY.index("valid_from"))
        for row in histories["eq_ct"]
    )


def _as_logged_inserts(row: tuple, operation: int, changed_at: int) -> tuple:
    """A row of the Qlik tables as the DirXML ones have it: a baseline (L, no time)
    is an insert at the time the baseline was logged."""
    if row[operation] != "L":
        return row
    row = list(row)
    row[operation], row[changed_at] = "I", as_text(ch.DIRXML_BASELINE_TIME)
    return tuple(row)


def _deleted_keys() -> dict[str, tuple[dict, datetime]]:
    """The simulated source's keys deleted at the end (a delete, or a primary-key
    update moving the row away), each with its values before and when."""
    deleted = {}
    for number in ALL:
        for change in HISTORY_OF_SOURCE.transactions[number]:
            if change.before is not None and (change.after is None or change.is_key_change):
                deleted[change.before[ch.KEY]] = (change.before, change.committed_at)
            if change.after is not None:
                deleted.pop(change.after[ch.KEY], None)
    return deleted


def _split_transaction_changes_logged(tables: dict[str, list]) -> int:
    transaction = f"{SPLIT_TRANSACTION + 1:032X}"
    return sum(row == (transaction,) for row in _rows(tables, "eq_kafka_log", ["transaction_id"]))


def _point_in_time(format_runs, table: str, query: str, instant: int) -> list[tuple]:
    """What the clean run of batch 2 answered (fault_workloads._point_in_time; rows
    as the dump's JSON lists)."""
    *_, after_batch_2 = format_runs
    return [
        tuple(row[3:]) for row in after_batch_2["point_in_time"] if row[:3] == [table, query, str(instant)]
    ]


def _tracked(format_runs, table: str) -> list[tuple]:
    """The table's _history as track_history_columns: TRACKED_COLUMNS makes it
    (fault_workloads._checks, in the clean run of batch 2)."""
    *_, after_batch_2 = format_runs
    return sorted(tuple(row[1:]) for row in after_batch_2["tracked_history"] if row[0] == table)


def _folded(history: list[tuple], tracked: list[str]) -> list[tuple]:
    """Rows of a _history (HISTORY and change_order) folded in Python as the
    options page says: a key's update that changes no tracked column's value
    (against the change before it) updates the open version."""
    column = {name: place for place, name in enumerate([*HISTORY, "change_order"])}
    last = ["valid_to", "closed_by_operation", "is_current", *(c for c in ch.COLUMNS if c != ch.KEY)]
    versions: list[list] = []
    previous = None
    for row in sorted(history, key=lambda row: (row[column[ch.KEY]], row[column["change_order"]])):
        opens = (
            previous is None
            or previous[column[ch.KEY]] != row[column[ch.KEY]]
            or row[column["operation"]] != "U"
            or previous[column["operation"]] == "D"
            or any(row[column[c]] != previous[column[c]] for c in tracked)
        )
        if opens:
            versions.append(list(row))
        else:
            version = versions[-1]
            for name in last:
                version[column[name]] = row[column[name]]
            changed = {
                *version[column["changed_columns"]].split("|"),
                *row[column["changed_columns"]].split("|"),
            }
            version[column["changed_columns"]] = "|".join(c for c in ch.COLUMNS if c in changed)
        previous = row
    return sorted(tuple(version) for version in versions)


class EquivalenceChecks:
    """The checks of the `formats` workload's runs, on the table format of a
    subclass (``table_format``: vars.cdcflow_table_format of its runs)."""

    table_format: str

    @pytest.fixture
    def format_runs(self, workload_runs):
        """The `formats` workload's runs (project, state, state after batch 1, tables
        after batch 1, after batch 2) with its tables in this table format."""
        return workload_runs("formats", self.table_format)

    def test_four_formats_give_identical_current_and_history(self, format_runs):
        # the kill sweep's `formats` workload lands this history in the same two batches
        # and runs them never killed (tests/e2e/fault_workloads.py): the runs are shared
        _project, _state, _snapshot, after_batch_1, after_batch_2 = format_runs
        _assert_equivalent(after_batch_1, BATCH_1, complete=False)
        assert _split_transaction_changes_logged(after_batch_1) == 0  # held back: its last record is missing
        _assert_equivalent(after_batch_2, ALL)
        assert _split_transaction_changes_logged(after_batch_2) >= len(
            HISTORY_OF_SOURCE.transactions[SPLIT_TRANSACTION]
        )

    def test_the_tables_are_written_in_the_projects_table_format(self, format_runs):
        """vars.cdcflow_table_format decides the format of the change logs, the version
        chains and _current: on Delta Lake and Iceberg, _current is a table the runs
        merge into; on parquet, a view of the chain."""
        table_format = self.table_format
        *_, after_batch_2 = format_runs
        current = "view" if table_format == "parquet" else table_format
        assert after_batch_2["providers"] == [
            [relation, current if relation.endswith("_current") else table_format]
            for table in sorted(FORMATS)
            for relation in (f"int_{table}__changes_logged", f"int_{table}__versioned", f"{table}_current")
        ]

    def test_deleted_keys_are_kept_with_their_last_values(self, format_runs):
        """Each table's entry sets `deletes: flag`: _current keeps a deleted key with
        the values it had, is_deleted and deleted_at; _history shows each delete as a
        version of its own (operation D, the values before, never current), as many
        as the source's deletes and primary-key updates."""
        *_, after_batch_2 = format_runs
        expected = sorted(
            (*(as_text(before[c]) for c in ch.COLUMNS), "D", as_text(at), "true", as_text(at))
            for before, at in _deleted_keys().values()
        )
        assert expected
        deletes = sum(
            1
            for number in ALL
            for change in HISTORY_OF_SOURCE.transactions[number]
            if change.before is not None and (change.after is None or change.is_key_change)
        )
        for table in FORMATS:
            current = _rows(after_batch_2, f"{table}_current", CURRENT)
            assert [row for row in current if row[CURRENT.index("is_deleted")] == "true"] == expected, table
            versions = _rows(after_batch_2, f"{table}_history", ["operation", "is_current"])
            assert versions.count(("D", "false")) == deletes and ("D", "true") not in versions, table

    def test_open_versions_end_at_the_configured_valid_to_current(self, format_runs):
        """Each table's entry sets valid_to_current: an open version's valid_to (the
        current one's, and a deleted key's delete) is that time, a closed version's
        the commit of the change that closed it."""
        *_, after_batch_2 = format_runs
        for table in FORMATS:
            rows = _rows(after_batch_2, f"{table}_history", ["valid_to", "closed_by_operation", "is_current"])
            assert {valid_to for valid_to, closed_by, _ in rows if not closed_by} == {
                "9999-12-31 00:00:00"
            }, table
            assert all("" < valid_to < "9999" for valid_to, closed_by, _ in rows if closed_by), table
            assert all(not closed_by for _, closed_by, current in rows if current == "true"), table

    @pytest.mark.parametrize("table", sorted(FORMATS))
    def test_as_of_gives_the_source_table_at_each_instant(self, format_runs, table):
        """cdcflow.as_of(table, at) equals the simulated source table after the
        transactions committed by `at`, in every format: before the first change
        (the baseline), just before and at the commit of a transaction of several
        changes (none of it, then all of it), and later ones."""
        assert sorted(INSTANTS) == INSTANTS
        for number, at in enumerate(INSTANTS):
            committed = [t for t in ALL if _committed_at(t) <= at]
            got = sorted(
                row[: len(ch.COLUMNS)] for row in _point_in_time(format_runs, table, "as_of", number)
            )
            assert got == _expected_current(committed), (table, at)
        # WHOLE's changes all appear at its commit, none a microsecond before
        assert _point_in_time(format_runs, table, "as_of", 1) != _point_in_time(
            format_runs, table, "as_of", 2
        )

    @pytest.mark.parametrize("table", sorted(FORMATS))
    def test_changes_between_two_instants_lead_from_one_to_the_other(self, format_runs, table):
        """cdcflow.changes_between(table, a, b), applied in change_order to
        as_of(table, a), gives as_of(table, b); every change listed was committed in
        (a, b], and they are as many as the source's row changes then (a primary-key
        update counts twice: the delete of one key and the insert of the other)."""
        key = list(ch.COLUMNS).index(ch.KEY)
        width = len(ch.COLUMNS)
        for number in range(len(INSTANTS) - 1):
            state = {row[key]: row[:width] for row in _point_in_time(format_runs, table, "as_of", number)}
            changes = _point_in_time(format_runs, table, "changes_between", number)
            for row in sorted(changes, key=lambda row: row[width + 1]):
                if row[width] == "D":
                    del state[row[key]]
                else:
                    state[row[key]] = row[:width]
            after = sorted(row[:width] for row in _point_in_time(format_runs, table, "as_of", number + 1))
            assert sorted(state.values()) == after, (table, INSTANTS[number])
            low, high = (as_text(INSTANTS[number]), as_text(INSTANTS[number + 1]))
            assert all(low < row[width + 2] <= high for row in changes), (table, INSTANTS[number])
            source_changes = [
                change
                for t in ALL
                if INSTANTS[number] < _committed_at(t) <= INSTANTS[number + 1]
                for change in HISTORY_OF_SOURCE.transactions[t]
            ]
            assert len(changes) == sum(2 if c.is_key_change else 1 for c in source_changes), table

    def test_tracked_columns_fold_the_same_versions_in_every_format(self, format_runs):
        """fold_untracked_changes, the macro of the history of a table with tracked
        columns, over each format's history (late, replayed and split deliveries, key
        moves, deletes kept as versions): what the same rule folds in Python, and the
        same in every format."""
        *_, after_batch_2 = format_runs
        history = _rows(after_batch_2, "eq_ct_history", [*HISTORY, "change_order"])
        tracked = _tracked(format_runs, "eq_ct")
        assert tracked == _folded(history, TRACKED_COLUMNS)
        assert len(history) - len(tracked) >= 5  # updates that left the amount as it was were folded
        without_order = sorted(row[:-1] for row in tracked)
        for table in ("eq_kafka", "eq_dbz"):
            assert sorted(row[:-1] for row in _tracked(format_runs, table)) == without_order, table
        assert sorted(row[:-1] for row in _tracked(format_runs, "eq_dirxml")) == sorted(
            _as_logged_inserts(row, HISTORY.index("operation"), HISTORY.index("valid_from"))
            for row in without_order
        )


class AtomicCommitChecks(EquivalenceChecks):
    """The checks of a table format with atomic commits (Delta Lake, Iceberg)."""

    def test_a_reader_during_a_run_sees_the_tables_before_or_after_it(self, format_runs):
        """On Delta Lake and Iceberg an analyst's query during a run (here, _history
        and _current of two tables read every 2 s through batch 2's run) sees each
        table as the last commit left it: its rows after batch 1 or after batch 2,
        never a run's half-written chain. (Parquet promises no such thing: its
        partitions are replaced one by one; its class does not run this.)"""
        *_, after_batch_1, after_batch_2 = format_runs
        answers = after_batch_2["watched"]
        assert len(answers) >= 2  # it read during the run, and saw the run's commits
        for answer in answers:
            for table, rows in answer.items():
                assert rows in (after_batch_1.get(table), after_batch_2.get(table)), (table, rows)
