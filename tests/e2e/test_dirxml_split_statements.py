"""A DirXML statement whose field events were cut between two landings (issue 16,
item 7b): the run that reads the rest continues the change the previous run
logged, so the history has the versions of a run that read the log whole and no
zero-length version between the two parts. The cuts fall exactly inside
statements: an insert cut after two of its three fields (its rest lands after a
late event of another key), an update cut after one of two, a field named again
right after the cut (a change of its own, as within a run) and the next change
of the key at another time (a change of its own)."""

import json
from datetime import datetime

import pytest

from testkit import change_history as ch
from tests.e2e.helpers import as_text, make_project, run_dbt, select_list

pytestmark = pytest.mark.spark

SCHEMA = "e2e_dirxml_split"
EMP = {"empno": "decimal(8,0)", "fname": "string", "lname": "string", "photo": "binary"}
LOG = ch.DIRXML_LOG
T1, T2, T3 = (datetime(2003, 10, 28, 9, minute) for minute in (0, 5, 10))
# (record_id, event_type, event_time, column_name, new_value, table_key)
EVENTS = [
    (11, 1, T1, "fname", "Ann", "empno=2"),  # insert: three field events
    (12, 1, T1, "lname", "Lee", "empno=2"),
    (13, 1, T1, "photo", "qqo=", "empno=2"),
    (14, 2, T2, "fname", "Bob", "empno=2"),  # update: two field events
    (15, 2, T2, "lname", "Ray", "empno=2"),
    (16, 2, T2, "fname", "Cid", "empno=2"),  # fname named again: the next change
    (17, 2, T3, "photo", "u7s=", "empno=2"),  # another event_time: the next change
]
# an event of another key logged before them, landing late (with the second landing)
LATE = (10, 1, T1, "fname", "Eve", "empno=3")
# landings cut inside the insert (after lname) and inside the update (after fname)
BATCHES = [EVENTS[:2], [LATE, *EVENTS[2:4]], EVENTS[4:]]
# fname, lname, photo (hex), operation, valid_from, valid_to, closed_by_operation,
# is_current, changed_columns: what reading the whole log at once gives
EXPECTED_HISTORY = sorted(
    [
        ("Ann", "Lee", "AAAA", "I", as_text(T1), as_text(T2), "U", "false", "empno|fname|lname|photo"),
        ("Bob", "Ray", "AAAA", "U", as_text(T2), as_text(T2), "U", "false", "fname|lname"),
        ("Cid", "Ray", "AAAA", "U", as_text(T2), as_text(T3), "U", "false", "fname"),
        ("Cid", "Ray", "BBBB", "U", as_text(T3), "", "", "true", "photo"),
    ]
)
HISTORY = (
    f"select {select_list(['fname', 'lname', 'photo'])}, operation, valid_from, valid_to, "
    "closed_by_operation, is_current, changed_columns from {schema}.emp_history where empno = 2"
)


TABLES = {"emp": {"format": "dirxml", "raw_table": "dirxml_event_log", "key": ["empno"], "columns": EMP}}


def _vars(raw: str) -> str:
    return json.dumps({"cdcflow_raw_schema": raw, "cdcflow_tables": TABLES})


def _create_raw(spark, raw: str) -> None:
    spark.sql(f"drop database if exists {raw} cascade")
    spark.sql(f"create database {raw}")
    spark.sql(
        f"create table {raw}.dirxml_event_log ({', '.join(f'{c} {t}' for c, t in LOG.items())}) using parquet"
    )
    spark.sql(f"create table {raw}.emp ({', '.join(f'{c} {t}' for c, t in EMP.items())}) using parquet")


def _land(spark, raw: str, events: list[tuple]) -> None:
    rows = [
        (record_id, "N", event_type, at, "hr_app", "emp", table_key, column, None, value)
        for record_id, event_type, at, column, value, table_key in events
    ]
    spark.createDataFrame(rows, ", ".join(f"{c} {t}" for c, t in LOG.items())).write.mode(
        "append"
    ).insertInto(f"{raw}.dirxml_event_log")


def _rows(spark, query: str) -> list[tuple]:
    return sorted(tuple(as_text(v) for v in row) for row in spark.sql(query).collect())


def _history(spark, schema: str) -> list[tuple]:
    return _rows(spark, HISTORY.format(schema=schema))


@pytest.fixture(scope="module")
def runs(tmp_path_factory, spark, state_dir):
    """The log read whole in one schema, and cut in three landings in another."""
    project = make_project(tmp_path_factory.mktemp("dirxml_split"), TABLES)
    whole, cut = SCHEMA + "_whole", SCHEMA + "_cut"
    for schema in (whole, cut):
        spark.sql(f"drop database if exists {schema} cascade")
    _create_raw(spark, whole + "_raw")
    _land(spark, whole + "_raw", [LATE, *EVENTS])
    run_dbt(state_dir, "run", "--vars", _vars(whole + "_raw"), schema=whole, project_dir=project)
    _create_raw(spark, cut + "_raw")
    histories = []
    for batch in BATCHES:
        _land(spark, cut + "_raw", batch)
        run_dbt(state_dir, "run", "--vars", _vars(cut + "_raw"), schema=cut, project_dir=project)
        histories.append(_history(spark, cut))
    return whole, cut, histories


def test_the_log_read_whole_gives_the_expected_versions(spark, runs):
    whole, _, _ = runs
    assert _history(spark, whole) == EXPECTED_HISTORY


def test_a_statement_cut_between_two_landings_is_one_version(spark, runs):
    _, cut, histories = runs
    # after the first landing: the insert's first two fields, as far as it goes
    assert histories[0] == [("Ann", "Lee", "", "I", as_text(T1), "", "", "true", "empno|fname|lname|photo")]
    # after the second: the insert whole (no zero-length version of its first part)
    # and the update's first field
    assert histories[1] == sorted(
        [
            ("Ann", "Lee", "AAAA", "I", as_text(T1), as_text(T2), "U", "false", "empno|fname|lname|photo"),
            ("Bob", "Lee", "AAAA", "U", as_text(T2), "", "", "true", "fname"),
        ]
    )
    assert histories[2] == EXPECTED_HISTORY
    assert _history(spark, cut) == _history(spark, runs[0])


def test_the_change_log_logs_a_continued_change_again_whole(spark, runs):
    whole, cut, _ = runs
    columns = "operation, change_order, committed_at, changed_columns, present_columns"
    newest = (
        f"select {select_list(['fname', 'lname', 'photo'])}, {columns} from ("
        "select *, row_number() over (partition by empno, change_order order by loaded_at desc) as newest "
        "from {schema}.int_emp__changes_logged) where newest = 1"
    )
    logged = {schema: _rows(spark, newest.format(schema=schema)) for schema in (whole, cut)}
    assert logged[cut] == logged[whole]
    assert len(logged[cut]) == 5
    # the insert and the update were each logged twice: their first part, then whole
    relogged = _rows(
        spark,
        f"select change_order from {cut}.int_emp__changes_logged group by change_order having count(*) > 1",
    )
    assert relogged == [("00000000000000000110",), ("00000000000000000140",)]
