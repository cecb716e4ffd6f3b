"""The reference's DirXML walk-through (003: table emp, key empno=1), one event
type at a time: each step lands its events in the event log (and sets the source
table emp to what it holds when the events are processed), runs dbt, and checks
the current row and the whole history of empno=1, and the outcome of each event.
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


def _land(spark, step: int, events: list[tuple], source_row, perpetrator) -> list[int]:
    at = datetime(2003, 10, 28, 9, step)
    first = 10 * step + 1
    rows = [
        (first + i, "N", event_type, at, perpetrator, "emp", "empno=1", column, old, new)
        for i, (event_type, column, old, new) in enumerate(events)
    ]
    spark.createDataFrame(rows, ", ".join(f"{c} {t}" for c, t in LOG.items())).write.mode(
        "append"
    ).insertInto(f"{RAW}.dirxml_event_log")
    spark.sql(f"truncate table {RAW}.emp")
    if source_row is not None:
        spark.createDataFrame(
            [(1, *source_row)], "empno int, fname string, lname string, photo string"
        ).selectExpr("cast(empno as decimal(8,0))", "fname", "lname", "unhex(photo)").write.insertInto(
            f"{RAW}.emp"
        )
    return [row[0] for row in rows]


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


def _check_step(spark, title, changes, current, record_ids, outcome):
    history = spark.sql(
        f"select {select_list(['fname', 'lname', 'photo'])}, operation, valid_from, valid_to, "
        f"closed_by_operation, is_current, changed_columns from {SCHEMA}.emp_history where empno = 1"
    ).collect()
    assert sorted(tuple(as_text(v) for v in row) for row in history) == _expected_history(changes), title
    rows = spark.sql(
        f"select {select_list(['fname', 'lname', 'photo'])}, last_operation from {SCHEMA}.emp_current"
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
    _rewrite_without(spark, f"{SCHEMA}.dirxml_event_outcomes", f"record_id = {record_ids[-1]}")


def test_each_event_type_of_the_reference_walk_through(spark, state_dir, project):
    changes = []
    current = None
    for step, (title, events, source_row, change, outcome, *loopback) in enumerate(STEPS, start=1):
        perpetrator, allow_loopback = loopback or ("hr_app", False)
        record_ids = _land(spark, step, events, source_row, perpetrator)
        run_dbt(state_dir, "run", "--vars", _vars(allow_loopback), schema=SCHEMA, project_dir=project)
        if change is not None:
            changes.append((datetime(2003, 10, 28, 9, step), change))
            current = None if change[0] == "D" else (*change[1], change[0])
        _check_step(spark, title, changes, current, record_ids, outcome)
        if step == 2:
            # the run of the field update (three events, one change) died after
            # part of its outcomes: the next run redoes the range, the same change
            _as_if_killed_after_a_partial_outcomes_append(spark, record_ids)
            run_dbt(state_dir, "run", "--vars", _vars(allow_loopback), schema=SCHEMA, project_dir=project)
            _check_step(spark, f"{title}, redone", changes, current, record_ids, outcome)
            states = spark.sql(
                f"select state_name from {SCHEMA}.cdc_states_log where name = 'emp' order by state_seq"
            ).collect()
            assert [row[0] for row in states][-2:] == ["TFREDO", "TFEND"]
            assert spark.sql(f"select count(*) from {SCHEMA}.int_emp__changes_logged").first()[0] == 2
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
