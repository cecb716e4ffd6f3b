"""Where a run's time went, from its Spark event log (``--event-logs``).

    python -m bench.event_log DIR [--top N]

Sums, per relation a statement writes (the table of its insert or create, e.g.
``bench.int_t__changes_logged``; ``__dbt_tmp`` relations count as theirs) or
else per dbt node (the ``node_id`` of dbt's query comment, when the statement
text is logged), the statements' wall time, their tasks' run and CPU time,
shuffle written and bytes spilled, and lists the slowest statements. A
statement's nested executions (an insert's write, a subquery) count in it.
``DIR`` is a step's event-log folder (or one log file)."""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

NODE_ID = re.compile(r'"node_id":\s*"([^"]+)"')
COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
# the relation a plan writes: a parquet insert's path, a command's table, the
# table a catalog's create or replace writes (Delta Lake's, Iceberg's: its node's
# arguments are the catalog, then the table), a Delta MERGE's target or the Delta
# table an insert appends to
WRITTEN = re.compile(
    r"InsertIntoHadoopFsRelationCommand\n(?:Input.*\n)?Arguments: \S*?/(\w+)\.db/(\w+)"
    r"|(?:CreateDataSourceTableAsSelectCommand|CreateViewCommand|DropTableCommand)[^\n]*\n"
    r"(?:Input.*\n|Output.*\n)*Arguments: `spark_catalog`\.`(\w+)`\.`(\w+)`"
    r"|\(\d+\) (?:Atomic)?(?:Create|Replace)TableAsSelect\n(?:Input.*\n|Output.*\n)*"
    r"Arguments: [^,\n]*, (?:spark_catalog\.)?(\w+)\.(\w+),"
    r"|\(\d+\) MergeIntoCommand\nArguments: [^\n]*?`spark_catalog`\.`(\w+)`\.`(\w+)`"
    # Delta's table, then its catalog entry over some lines, then its name
    r"|\(\d+\) (?:AppendData|OverwriteByExpression|OverwritePartitionsDynamic)ExecV1\n"
    r"Arguments: DeltaTableV2\((?:[^\n]*\n){0,40}?[^\n]*?\),Some\((?:spark_catalog\.)?(\w+)\.(\w+)\)"
)


@dataclass
class Execution:
    description: str = ""
    plan: str = ""
    written: str = ""
    start_ms: int = 0
    end_ms: int = 0
    task_ms: int = 0
    cpu_ms: float = 0.0
    shuffle_bytes: int = 0
    spilled_bytes: int = 0
    tasks: int = 0

    @property
    def node(self) -> str:
        found = NODE_ID.search(self.description)
        if found:
            return found.group(1)
        if self.written:
            return self.written.removesuffix("__dbt_tmp")
        operator = next((line for line in self.plan.splitlines()[1:] if line.strip()), "(no plan)")
        return "(" + re.sub(r"[^A-Za-z ]", "", operator).strip() + ")"

    @property
    def wall_s(self) -> float:
        return max(self.end_ms - self.start_ms, 0) / 1000


def read_executions(path: Path) -> dict[int, Execution]:
    """The statements (root SQL executions) of one event log, with the tasks'
    metrics of their nested executions."""
    executions: dict[int, Execution] = defaultdict(Execution)
    stage_execution: dict[int, int] = {}
    root_of: dict[int, int] = {}
    with path.open() as lines:
        for line in lines:
            event = json.loads(line)
            kind = event["Event"]
            if kind.endswith("SQLExecutionStart"):
                execution_id = int(event["executionId"])
                root = root_of[execution_id] = root_of.get(
                    int(event.get("rootExecutionId", -1)), execution_id
                )
                execution = executions[root]
                plan = event.get("physicalPlanDescription", "")
                written = WRITTEN.search(plan)
                if written and not execution.written:
                    execution.written = ".".join(part for part in written.groups() if part)
                if root == execution_id:
                    execution.description = event.get("description", "")
                    execution.plan = plan
                    execution.start_ms = event["time"]
            elif kind.endswith("SQLExecutionEnd"):
                execution_id = int(event["executionId"])
                if root_of.get(execution_id, execution_id) == execution_id:
                    executions[execution_id].end_ms = event["time"]
            elif kind == "SparkListenerJobStart":
                execution_id = (event.get("Properties") or {}).get("spark.sql.execution.id")
                if execution_id is not None:
                    for stage in event["Stage IDs"]:
                        stage_execution[stage] = root_of.get(int(execution_id), int(execution_id))
            elif kind == "SparkListenerTaskEnd":
                execution_id = stage_execution.get(event["Stage ID"])
                metrics = event.get("Task Metrics") or {}
                if execution_id is None or not metrics:
                    continue
                execution = executions[execution_id]
                execution.tasks += 1
                execution.task_ms += metrics.get("Executor Run Time", 0)
                execution.cpu_ms += metrics.get("Executor CPU Time", 0) / 1e6
                execution.shuffle_bytes += (metrics.get("Shuffle Write Metrics") or {}).get(
                    "Shuffle Bytes Written", 0
                )
                execution.spilled_bytes += metrics.get("Disk Bytes Spilled", 0)
    return dict(executions)


def _figures(group: list[Execution]) -> list[str]:
    """Wall, task and CPU seconds, shuffle written and spilled GiB of executions."""
    gib = 1024**3
    return [
        f"{sum(e.wall_s for e in group):.1f}",
        f"{sum(e.task_ms for e in group) / 1000:.1f}",
        f"{sum(e.cpu_ms for e in group) / 1000:.1f}",
        f"{sum(e.shuffle_bytes for e in group) / gib:.2f}",
        f"{sum(e.spilled_bytes for e in group) / gib:.2f}",
    ]


def _totals(group: list[Execution]) -> str:
    wall, task, cpu, _, _ = _figures(group)
    return f"wall {wall} s, task {task} s, CPU {cpu} s"


def summary(folder: Path, top: int = 10) -> str:
    # Spark 4 writes a folder per application (eventlog_v2_*) whose events_N_*
    # files hold the events, beside an empty appstatus marker and .crc files
    files = [folder] if folder.is_file() else sorted(folder.rglob("events_*"))
    executions = [e for path in files for e in read_executions(path).values()]
    by_node: dict[str, list[Execution]] = defaultdict(list)
    for execution in executions:
        by_node[execution.node].append(execution)
    lines = [
        f"{len(executions)} statements; {_totals(executions)}",
        "",
        "| node | executions | wall (s) | task (s) | CPU (s) | shuffle (GiB) | spilled (GiB) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for node, group in sorted(by_node.items(), key=lambda item: -sum(e.wall_s for e in item[1])):
        lines.append(f"| {node} | {len(group)} | " + " | ".join(_figures(group)) + " |")
    lines += ["", f"The {top} slowest executions:", ""]
    for execution in sorted(executions, key=lambda e: -e.wall_s)[:top]:
        wall, task, _, shuffle, spilled = _figures([execution])
        text = " ".join(COMMENT.sub("", execution.description).split())[:120]
        lines.append(
            f"- {wall} s wall, {task} s task, {execution.tasks} tasks, {shuffle} GiB shuffled, "
            f"{spilled} GiB spilled ({execution.node}): {text}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--top", type=int, default=10)
    arguments = parser.parse_args(argv)
    print(summary(arguments.folder, arguments.top))


if __name__ == "__main__":
    main()
