"""The reference's DirXML walk-through (003: table emp), one event type at a
time: each step lands its events in the event log (and sets the source table emp
to what it holds when the events are processed), runs dbt, and checks the current
row and the whole history of its key, and the outcome of each event. The steps
run as three chains of one key each (CHAINS), a step of each chain per run.
Query-back events (5-8) take their values from the source table as it is at
that run, not as it was when the event was logged."""

import json
from datetime import datetime

import pytest

from tests.e2e.helpers import as_text, invoke_dbt_in, make_project, run_dbt, select_list

pytestmark = pytest.mark.spark

SCHEMA = "e2e_dirxml_walkthrough"
RAW = f"{SCHEMA}_raw"
EMP = {"empno": "decimal(8,0)", "fname": "string", "lname": "string", "photo": "binary"}
# the reference lets a site rename the log's columns (e.g. away from reserved words)
RENAMED = {"status": "evt_status", "table_name": "tbl_name"}
LOG = {
    "record_id": "bigint",
    "evt_status": "string",
    "event_type": "int",
    "event_time": "timestamp",
    "perpetrator": "string",
    "tbl_name": "string",
    "table_key": "string",
    "column_name": "string",
    "old_value": "string",
    "new_value": "string",
}
ALL = "empno|fname|lname|photo"
DATA = "fname|lname|photo"

# (title, events (event_type, column_name, old_value, new_value), the source row
# when the step runs (fname, lname, photo hex; None: no row), the change it makes
# (operation, (fname, lname, photo hex), changed_columns; None: no version),
# the outcome of its events[, perpetrator, allow loop-back])
STEPS = [
    (
        "1 field insert",
        [(1, "fname", None, "Jacques"), (1, "lname", None, "Frost"), (1, "photo", None, "qqo=")],
        ("Jacques", "Frost", "AAAA"),
        ("I", ("Jacques", "Frost", "AAAA"), ALL),
        "S",
    ),
    (
        "2 field update",
        [(2, "fname", "Jacques", "Jean"), (2, "lname", "Frost", "Untel"), (2, "photo", "qqo=", "u7s=")],
        ("Jean", "Untel", "BBBB"),
        ("U", ("Jean", "Untel", "BBBB"), DATA),
        "S",
    ),
    (
        "3 field update removing all values",
        [(3, "fname", "Jean", "John"), (3, "lname", "Untel", "Doe"), (3, "photo", "u7s=", "u7s=")],
        ("John", "Doe", "BBBB"),
        # photo is logged with the same value: present, not changed
        ("U", ("John", "Doe", "BBBB"), "fname|lname"),
        "S",
    ),
    ("4 row delete", [(4, None, None, None)], None, ("D", None, None), "S"),
    (
        "5 row insert (query-back): the row as it is now, not as it was inserted",
        [(5, None, None, None)],
        ("John", "Doe", "BBBB"),
        ("I", ("John", "Doe", "BBBB"), ALL),
        "S",
    ),
    (
        "6 row update (query-back): every column read again",
        [(6, None, None, None)],
        ("Jean", "Untel", "BBBB"),
        ("U", ("Jean", "Untel", "BBBB"), DATA),
        "S",
    ),
    (
        "7 field insert (query-back)",
        [(7, "fname", None, None), (7, "lname", None, None), (7, "photo", None, None)],
        ("John", "Doe", "BBBB"),
        ("I", ("John", "Doe", "BBBB"), ALL),
        "S",
    ),
    (
        "8 field update (query-back): only the logged column is read",
        [(8, "lname", None, None)],
        ("John", "Smith", "CCCC"),
        ("U", ("John", "Smith", "BBBB"), "lname"),
        "S",
    ),
    (
        "query-back of a row deleted since: no effect (the publisher ignores it)",
        [(6, None, None, None)],
        None,
        None,
        "W",
    ),
    ("4 row delete", [(4, None, None, None)], None, ("D", None, None), "S"),
    (
        "a loop-back event (the driver's own change) is not published",
        [(1, "fname", None, "Echo")],
        ("Echo", None, None),
        None,
        "S",
        "IDMDRIVER",
        False,
    ),
    (
        "unless loop-back is allowed",
        [(1, "fname", None, "Echo"), (1, "lname", None, "Back")],
        ("Echo", "Back", None),
        ("I", ("Echo", "Back", None), ALL),
        "S",
        "IDMDRIVER",
        True,
    ),
]


def _settings(allow_loopback: bool = False, raw: str = RAW) -> dict:
    return {
        "cdcflow_raw_schema": raw,
        "cdcflow_dirxml_allow_loopback": allow_loopback,
        "cdcflow_dirxml_event_log_columns": RENAMED,
    }


def _tables(**table_options) -> dict[str, dict]:
    return {
        "emp": {
            "format": "dirxml",
            "raw_table": "dirxml_event_log",
            **table_options,
            "key": ["empno"],
            "columns": EMP,
        }
    }


def _vars(allow_loopback: bool = False, raw: str = RAW, **table_options) -> str:
    return json.dumps({**_settings(allow_loopback, raw), "cdcflow_tables": _tables(**table_options)})


def _expected_history(changes: list[tuple]) -> list[tuple]:
    """The versions of empno=1 the changes so far make: each closed by the next change."""
    rows = []
    for index, (at, (operation, values, changed)) in enumerate(changes):
        if operation == "D":
            continue
        following = changes[index + 1] if index + 1 < len(changes) else None
        rows.append(
            (
                *(as_text(v) for v in values),
                operation,
                as_text(at),
                as_text(following[0]) if following else "",
                following[1][0] if following else "",
                "false" if following else "true",
                changed,
            )
        )
    return sorted(rows)


# The steps as three chains, each on a key of its own (its steps in the reference's
# order), run side by side: each run takes the next step of every chain, so the twelve
# steps take five runs, not twelve. A step is checked on its key alone: its history,
# its row of emp_current and its events' outcomes.
CHAINS = {
    1: [1, 2, 3, 4],  # field events: insert, update, update to the same value, row delete
    2: [5, 6, 7, 8, 10],  # query-back events, then a row delete
    3: [9, 11, 12],  # query-back of a row gone, loop-back not published, then allowed
}
# the run whose field update (chain 1, three events, one change) dies after part of
# its outcomes: the next run redoes the range
KILLED_RUN = 2


def _land(spark, run: int, steps: dict[int, int]) -> dict[int, list[int]]:
    """Lands the events of ``steps`` (key -> step number) as run ``run``'s new rows,
    record ids rising with the runs, and sets emp to the source rows of those steps
    (a key whose step has no row has none). Returns each key's record ids."""
    at = datetime(2003, 10, 28, 9, run)
    rows, record_ids, source_rows = [], {}, []
    for empno, step in sorted(steps.items()):
        _, events, source_row, _, _, *loopback = STEPS[step - 1]
        perpetrator = loopback[0] if loopback else "hr_app"
        record_ids[empno] = []
        for event_type, column, old, new in events:
            record_id = 100 * run + len(rows) + 1
            record_ids[empno].append(record_id)
            rows.append(
                (record_id, "N", event_type, at, perpetrator, "emp", f"empno={empno}", column, old, new)
            )
        if source_row is not None:
            source_rows.append((empno, *source_row))
    spark.createDataFrame(rows, ", ".join(f"{c} {t}" for c, t in LOG.items())).write.mode(
        "append"
    ).insertInto(f"{RAW}.dirxml_event_log")
    spark.sql(f"truncate table {RAW}.emp")
    if source_rows:
        spark.createDataFrame(source_rows, "empno int, fname string, lname string, photo string").selectExpr(
            "cast(empno as decimal(8,0))", "fname", "lname", "unhex(photo)"
        ).write.insertInto(f"{RAW}.emp")
    return record_ids


@pytest.fixture(scope="module")
def project(tmp_path_factory, spark):
    spark.sql(f"drop database if exists {SCHEMA} cascade")
    spark.sql(f"drop database if exists {RAW} cascade")
    spark.sql(f"create database {RAW}")
    spark.sql(
        f"create table {RAW}.dirxml_event_log ({', '.join(f'{c} {t}' for c, t in LOG.items())}) using parquet"
    )
    spark.sql(f"create table {RAW}.emp ({', '.join(f'{c} {t}' for c, t in EMP.items())}) using parquet")
    return make_project(tmp_path_factory.mktemp("walkthrough"), _tables(), _settings())


def _check_step(spark, empno, title, changes, current, record_ids, outcome):
    history = spark.sql(
        f"select {select_list(['fname', 'lname', 'photo'])}, operation, valid_from, valid_to, "
        f"closed_by_operation, is_current, changed_columns from {SCHEMA}.emp_history where empno = {empno}"
    ).collect()
    assert sorted(tuple(as_text(v) for v in row) for row in history) == _expected_history(changes), title
    rows = spark.sql(
        f"select {select_list(['fname', 'lname', 'photo'])}, last_operation from {SCHEMA}.emp_current "
        f"where empno = {empno}"
    ).collect()
    assert [tuple(row) for row in rows] == ([current] if current else []), title
    outcomes = spark.sql(
        f"select record_id, status from {SCHEMA}.dirxml_event_outcomes "
        f"where record_id in ({', '.join(map(str, record_ids))})"
    ).collect()
    assert sorted(tuple(row) for row in outcomes) == [(r, outcome) for r in record_ids], title


def _rewrite_without(spark, table, condition):
    kept = spark.table(table).where(f"not ({condition})").localCheckpoint()
    kept.write.mode("overwrite").insertInto(table)


def _as_if_killed_after_a_partial_outcomes_append(spark, record_ids):
    """The last run logged its changes, wrote the outcome of only some events
    (an append cut in its job commit) and never recorded TFEND."""
    _rewrite_without(
        spark,
        f"{SCHEMA}.cdc_states_log",
        f"name = 'emp' and state_seq = (select max(state_seq) from {SCHEMA}.cdc_states_log)",
    )
    _rewrite_without(spark, f"{SCHEMA}.dirxml_event_outcomes", f"record_id = {max(record_ids)}")


def test_each_event_type_of_the_reference_walk_through(spark, state_dir, project):
    changes = {empno: [] for empno in CHAINS}
    current = dict.fromkeys(CHAINS)
    checked = []
    for run in range(1, max(len(chain) for chain in CHAINS.values()) + 1):
        steps = {empno: chain[run - 1] for empno, chain in CHAINS.items() if run <= len(chain)}
        # loop-back is a setting of the run: allowed only in the run of the step that says so
        allow_loopback = any(STEPS[step - 1][6:] == (True,) for step in steps.values())
        record_ids = _land(spark, run, steps)
        run_dbt(state_dir, "run", "--vars", _vars(allow_loopback), schema=SCHEMA, project_dir=project)
        this_run = []
        for empno, step in steps.items():
            title, _, _, change, outcome, *_ = STEPS[step - 1]
            if change is not None:
                changes[empno].append((datetime(2003, 10, 28, 9, run), change))
                current[empno] = None if change[0] == "D" else (*change[1], change[0])
            this_run.append((empno, title, record_ids[empno], outcome))
        for empno, title, ids, outcome in this_run:
            _check_step(spark, empno, title, changes[empno], current[empno], ids, outcome)
        checked.extend(this_run)
        if run == KILLED_RUN:
            # the outcome of the field update's last event lost, its other two kept
            _as_if_killed_after_a_partial_outcomes_append(spark, record_ids[1])
            run_dbt(state_dir, "run", "--vars", _vars(allow_loopback), schema=SCHEMA, project_dir=project)
            for empno, title, ids, outcome in this_run:
                _check_step(spark, empno, f"{title}, redone", changes[empno], current[empno], ids, outcome)
            states = spark.sql(
                f"select state_name from {SCHEMA}.cdc_states_log where name = 'emp' order by state_seq"
            ).collect()
            assert [row[0] for row in states][-2:] == ["TFREDO", "TFEND"]
            logged = spark.sql(f"select count(*) from {SCHEMA}.int_emp__changes_logged").first()[0]
            assert logged == sum(len(c) for c in changes.values())
    # every step of the reference ran, each once
    assert sorted(title for _, title, _, _ in checked) == sorted(step[0] for step in STEPS)
    assert spark.sql(f"select count(*) from {SCHEMA}.dirxml_event_outcomes").first()[0] == sum(
        len(step[1]) for step in STEPS
    )


def test_a_source_table_without_a_configured_column_is_refused(spark, state_dir, project):
    result = invoke_dbt_in(
        state_dir,
        ["run", "--select", "+int_emp__changes_logged", "--vars", _vars().replace("photo", "picture")],
        schema=SCHEMA,
        project_dir=project,
    )
    assert not result.success
    messages = " ".join(str(r.message) for r in result.result.results)
    assert (
        f"cdcflow: column 'picture' of table 'emp' is not in its source table {RAW}.emp "
        "(its columns: empno, fname, lname, photo)" in messages
    ), messages


def test_query_back_without_a_source_table_is_an_error(spark, state_dir, project):
    raw = RAW + "_no_source"
    spark.sql(f"drop database if exists {raw} cascade")
    spark.sql(f"create database {raw}")
    rows = [
        (1, "N", 1, datetime(2003, 10, 28, 10, 0), "hr_app", "emp", "empno=7", "fname", None, "Ada"),
        (2, "N", 5, datetime(2003, 10, 28, 10, 1), "hr_app", "emp", "empno=7", None, None, None),
        (3, "N", 8, datetime(2003, 10, 28, 10, 2), "hr_app", "emp", "empno=7", "lname", None, None),
    ]
    spark.createDataFrame(rows, ", ".join(f"{c} {t}" for c, t in LOG.items())).write.format(
        "parquet"
    ).saveAsTable(f"{raw}.dirxml_event_log")
    schema = SCHEMA + "_no_source"
    run_dbt(
        state_dir,
        "run",
        "--vars",
        _vars(raw=raw, query_back_table=None),
        schema=schema,
        project_dir=project,
    )
    outcomes = spark.sql(f"select record_id, status, reason from {schema}.dirxml_event_outcomes").collect()
    assert sorted(tuple(row) for row in outcomes) == [
        (1, "S", "published: field insert of fname"),
        (2, "E", "row insert (query-back) cannot read the row: no query_back_table is configured for emp"),
        (3, "E", "field update (query-back) cannot read the row: no query_back_table is configured for emp"),
    ]
    assert [
        tuple(r) for r in spark.sql(f"select empno, fname, lname from {schema}.emp_current").collect()
    ] == [(7, "Ada", None)]
