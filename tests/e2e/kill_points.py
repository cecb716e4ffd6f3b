"""Kill a workload's run at a point and check the next run redoes it losing
nothing (the kill sweep, tests/e2e/test_fault_injection.py; its Delta Lake point
in CI runs beside the equivalence, whose runs of that workload it shares:
tests/e2e/equivalence.py)."""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

from tests.e2e import fault_worker
from tests.e2e.fault_workloads import Workload
from tests.e2e.helpers import PROJECT_DIR


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
    if kind in ("overwrite", "overwrite-damaged", "commit"):
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


def _data_files(table_dir: Path) -> set[Path]:
    """The data files of a Delta Lake or Iceberg table (committed or not; not
    Delta's log checkpoints)."""
    if not table_dir.is_dir():
        return set()
    return {path for path in table_dir.rglob("*.parquet") if "_delta_log" not in path.parts}


def _kill_run(
    workload: Workload, project: Path, state: Path, point: tuple[str, str, float], table_format: str
) -> str:
    """Start the run on batch 2 and SIGKILL it at `point`; return what happened."""
    kind, target, delay = point
    process = subprocess.Popen(
        fault_worker.command(workload, project, state, "2", dump_tables=False, table_format=table_format),
        cwd=PROJECT_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    table_dir = state / "spark-warehouse" / f"{workload.schema}.db" / target
    deadline = time.monotonic() + 1200
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
            written = _data_files(table_dir)
            if not kind.startswith("overwrite") and kind != "commit":
                outcome = "killed"
                if delay and _model_ends_within(lines, target, delay):
                    outcome = "killed at the end of the model (it took less than the delay)"
                os.killpg(process.pid, signal.SIGKILL)
                break
        # inside the MERGE: a data file of it written (its commit comes after them)
        if kind == "commit" and _data_files(table_dir) - written:
            os.killpg(process.pid, signal.SIGKILL)
            outcome = "killed in commit"
            break
        # inside the partition overwrite: its staging directory exists
        if (
            kind != "commit"
            and table_dir.is_dir()
            and any(p.name.startswith(".spark-staging-") for p in table_dir.iterdir())
        ):
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


def _states_since_batch_1(tables: dict[str, list], before: dict[str, list], group: str) -> list[str]:
    """The states a group recorded after batch 1's."""
    names = [name for recorded, name, _ in tables["states"] if recorded == group]
    first = [name for recorded, name, _ in before["states"] if recorded == group]
    assert names[: len(first)] == first and first[-1] == "TFEND", (first, names)
    return names[len(first) :]


def assert_redone_losing_nothing(runs: tuple, workload: Workload, table_format: str, point) -> None:
    """Kill the run of batch 2 at ``point`` (from the state after batch 1 of
    ``runs``, what conftest's workload_runs made), run again, and compare with
    the run never killed: the same tables, the group's states TFSTART, TFREDO,
    TFEND."""
    project, state, snapshot, first, reference = runs
    shutil.rmtree(state)
    shutil.copytree(snapshot, state, symlinks=True)
    outcome = _kill_run(workload, project, state, point, table_format)
    assert outcome.startswith("killed"), outcome
    recovered = fault_worker.run(workload, project, state, "-", table_format=table_format)
    for table in recovered:  # the clean run's dump has the checks' answers too
        if table != "states":  # below
            assert recovered[table] == reference[table], f"{table} after a kill at {point} ({outcome})"
    for group in workload.groups:
        new_states = _states_since_batch_1(recovered, first, group)
        if point[0] == "hook" and point[1] == "on-run-start":
            # killed before or after the range was recorded
            assert new_states in (["TFSTART", "TFEND"], ["TFSTART", "TFREDO", "TFEND"]), new_states
        else:
            assert new_states == ["TFSTART", "TFREDO", "TFEND"], new_states
    for _group, name, text in recovered["states"]:
        assert text.startswith(name + "/"), text
