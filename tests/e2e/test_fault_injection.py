"""Crash safety: a dbt run killed (SIGKILL, the whole process group: dbt and its
Spark) at a point of the run; the next run finds the group in TFSTART, takes
the same range again as TFREDO, repairs what the killed run may have left
half-written, and ends TFEND; its tables then equal those of a run that was
never killed, with no change lost or logged twice.

Workload: the qlik_ct tables it_customers and it_order_lines of integration_tests/
(full load, then two batches of changes; batch 2 has late changes for old keys
and replays), processed by `dbt run` in a subprocess (tests/e2e/fault_worker.py). Batch 1 is processed
cleanly once and the state directory kept; each kill point starts from a copy,
lands batch 2, starts the run and kills it at the point, then runs again.

Kill points: before, during (1 s in, or at its end if it takes less) and after
each model, during the on-run-start and on-run-end hooks, and inside each
versioned model's partition write (when its .spark-staging directory
appears), also with its open partitions deleted (the worst a kill inside the
write or a compaction's partition drop can leave). CI runs FAST_POINTS (a
partial append, lost open partitions); CDCFLOW_FAULT_SWEEP=1 runs every point.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.e2e.helpers import PROJECT_DIR, current_columns, history_columns, load_raw, read_seed, spark_rows
from tests.e2e.test_incremental import BATCH_1, BATCH_2

pytestmark = pytest.mark.spark

SCHEMA = "fault"
# JSON events on stdout, the SQL statements (debug) included: the kill points
DBT_ARGS = ["run", "--log-format", "json", "--log-level", "debug", "--select", "source:qlik_ct+"]
BATCHES = {
    "1": {"it_customers": read_seed("customers"), "it_order_lines": read_seed("order_lines"), **BATCH_1},
    "2": BATCH_2,
}
MODELS = [
    "int_it_customers__changes_logged",
    "int_it_order_lines__changes_logged",
    "qlik_ct_quarantine",
    "int_it_customers__versioned",
    "int_it_order_lines__versioned",
    "it_customers_current",
    "it_customers_history",
    "it_order_lines_current",
    "it_order_lines_history",
]
VERSIONED = ["int_it_customers__versioned", "int_it_order_lines__versioned"]
ALL_POINTS = (
    [("hook", "on-run-start", 0.0), ("hook", "on-run-end", 0.0)]
    + [(event, model, 0.0) for model in MODELS for event in ("start", "end")]
    + [("start", model, 1.0) for model in MODELS]
    + [(kind, model, 0.0) for model in VERSIONED for kind in ("overwrite", "overwrite-damaged")]
)
FAST_POINTS = [
    ("start", "int_it_customers__changes_logged", 1.0),
    ("overwrite-damaged", "int_it_customers__versioned", 0.0),
]
POINTS = ALL_POINTS if os.environ.get("CDCFLOW_FAULT_SWEEP") == "1" else FAST_POINTS
CHANGE_LOG_COLUMNS = {
    "customers": ["customer_id", "operation", "change_order", "email"],
    "order_lines": ["order_id", "line_no", "operation", "change_order", "quantity"],
}


def land(spark, raw_schema: str, batch: dict[str, list[dict[str, str]]]) -> None:
    """Land a batch (table -> CSV rows) the way Replicate does (new files)."""
    for table, rows in batch.items():
        load_raw(spark, raw_schema, table, rows, change_table=table.endswith("__ct"))


def dump(spark, schema: str) -> dict[str, list]:
    """What the test compares: the marts, the change logs (every row: a change
    logged twice shows), the quarantine, and each group's recorded states."""
    tables = {}
    for table in ("customers", "order_lines"):
        name = f"it_{table}"
        tables[f"{name}_history"] = spark_rows(spark, f"{schema}.{name}_history", history_columns(table))
        tables[f"{name}_current"] = spark_rows(spark, f"{schema}.{name}_current", current_columns(table))
        tables[f"{name}_log"] = spark_rows(
            spark, f"{schema}.int_{name}__changes_logged", CHANGE_LOG_COLUMNS[table]
        )
    tables["qlik_ct_quarantine"] = spark_rows(
        spark, f"{schema}.qlik_ct_quarantine", ["source_table", "change_seq", "reason", "raw_row"]
    )
    tables["states"] = [
        list(row)
        for row in spark.sql(
            f"select name, state_name, state from {schema}.cdc_states_log order by state_seq"
        ).collect()
    ]
    return tables


def _worker(state: Path, batch: str, *, dump_tables: bool) -> list[str]:
    return [
        sys.executable,
        "-m",
        "tests.e2e.fault_worker",
        str(state),
        SCHEMA,
        batch,
        *(["--dump"] if dump_tables else []),
        "--",
        *DBT_ARGS,
    ]


def _run(state: Path, batch: str, *, dump_tables: bool = True) -> dict[str, list]:
    done = subprocess.run(
        _worker(state, batch, dump_tables=dump_tables),
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    lines = [line for line in done.stdout.splitlines() if line.startswith("DUMP ")]
    return json.loads(lines[-1][5:]) if lines else {}


def _matches(line: str, kind: str, target: str) -> bool:
    try:
        event = json.loads(line)
    except ValueError:
        return False
    name = event.get("info", {}).get("name")
    data = event.get("data", {})
    node = data.get("node_info", {}).get("node_name") or ""
    if kind == "hook":  # the hook's first statement (the states are recorded after it)
        return name == "SQLQuery" and target in node
    if kind in ("overwrite", "overwrite-damaged"):
        kind = "start"
    return name == {"start": "LogStartLine", "end": "LogModelResult"}[kind] and node == target


def _model_ends_within(lines: queue.Queue, model: str, seconds: float) -> bool:
    """Wait `seconds` (the kill 'during' a model), or less if the model ends first."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            if _matches(lines.get(timeout=left), "end", model):
                return True
        except queue.Empty:
            return False
    return False


def _kill_run(state: Path, point: tuple[str, str, float]) -> str:
    """Start the run on batch 2 and SIGKILL it at `point`; return what happened."""
    kind, target, delay = point
    process = subprocess.Popen(
        _worker(state, "2", dump_tables=False),
        cwd=PROJECT_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    table_dir = state / "spark-warehouse" / f"{SCHEMA}.db" / target
    deadline = time.monotonic() + 900
    seen = False
    outcome = "run ended before the kill point"
    while process.poll() is None and time.monotonic() < deadline:
        if not seen:
            try:
                seen = _matches(lines.get(timeout=0.5), kind, target)
            except queue.Empty:
                continue
            if not seen:
                continue
            if not kind.startswith("overwrite"):
                outcome = "killed"
                if delay and _model_ends_within(lines, target, delay):
                    outcome = "killed at the end of the model (it took less than the delay)"
                os.killpg(process.pid, signal.SIGKILL)
                break
        # inside the partition overwrite: its staging directory exists
        if table_dir.is_dir() and any(p.name.startswith(".spark-staging-") for p in table_dir.iterdir()):
            os.killpg(process.pid, signal.SIGKILL)
            outcome = "killed in overwrite"
            break
        time.sleep(0.002)
    process.wait(timeout=60)
    if kind == "overwrite-damaged" and outcome == "killed in overwrite":
        # the worst a kill inside the write (or a compaction's drop) can leave:
        # the open partitions gone
        for partition in table_dir.glob("written_in_run=open-*"):
            shutil.rmtree(partition)
        outcome = "killed in overwrite, open partitions deleted"
    return outcome


@pytest.fixture(scope="module")
def workload(tmp_path_factory, integration_project):
    # every run uses the same state path: the metastore holds absolute locations
    base = tmp_path_factory.mktemp("fault")
    state, snapshot = base / "state", base / "after-batch-1"
    _run(state, "1", dump_tables=False)
    shutil.copytree(state, snapshot, symlinks=True)
    reference = _run(state, "2")
    return state, snapshot, reference


def _new_states(tables: dict[str, list], group: str) -> list[str]:
    names = [name for recorded, name, _ in tables["states"] if recorded == group]
    assert names[:4] == ["ILSTART", "ILEND", "ILUPDATE", "TFEND"]  # batch 1
    return names[4:]


@pytest.mark.parametrize("point", POINTS, ids=["-".join(str(p) for p in point) for point in POINTS])
def test_a_killed_run_is_redone_and_loses_nothing(workload, point):
    state, snapshot, reference = workload
    shutil.rmtree(state)
    shutil.copytree(snapshot, state, symlinks=True)
    outcome = _kill_run(state, point)
    assert outcome.startswith("killed"), outcome
    recovered = _run(state, "-")
    for table in reference:
        if table != "states":
            assert recovered[table] == reference[table], f"{table} after a kill at {point} ({outcome})"
    for group in ("it_customers", "it_order_lines"):
        new_states = _new_states(recovered, group)
        if point[0] == "hook" and point[1] == "on-run-start":
            # killed before or after the range was recorded
            assert new_states in (["TFSTART", "TFEND"], ["TFSTART", "TFREDO", "TFEND"]), new_states
        else:
            assert new_states == ["TFSTART", "TFREDO", "TFEND"], new_states
    for _group, name, text in recovered["states"]:
        assert text.startswith(name + "/"), text
