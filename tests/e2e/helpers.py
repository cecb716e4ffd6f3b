"""Shared helpers of the end-to-end tests: run dbt, load raw tables, compare tables."""

from __future__ import annotations

import csv
import hashlib
import os
import re
import signal
import socket
import subprocess
import time
from contextlib import contextmanager
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from testkit.change_history import CT_HEADERS
from testkit.project import onboarded_project

PROJECT_DIR = Path(__file__).resolve().parents[2]
# a project installing cdcflow as a package, with tables of its own
INTEGRATION_DIR = PROJECT_DIR / "integration_tests"
EXPECTED_DIR = Path(__file__).resolve().parent / "expected"
SEEDS_DIR = PROJECT_DIR / "seeds" / "qlik_ct"

HISTORY_COLUMNS = [
    "operation",
    "change_order",
    "valid_from",
    "valid_to",
    "valid_to_change_order",
    "closed_by_operation",
    "is_current",
    "changed_columns",
]
CURRENT_COLUMNS = ["last_operation", "last_change_order", "last_changed_at"]
TABLES = {
    "customers": {
        "key": ["customer_id"],
        "columns": {"customer_id": "int", "first_name": "string", "last_name": "string", "email": "string"},
    },
    "order_lines": {
        "key": ["order_id", "line_no"],
        "columns": {
            "order_id": "int",
            "line_no": "int",
            "product": "string",
            "quantity": "int",
            "unit_price": "decimal(10,2)",
        },
    },
    "products": {
        "key": ["id"],
        "columns": {"id": "int", "name": "string", "price": "decimal(10,2)", "category": "string"},
    },
    "sqlserver_customers": {
        "key": ["id"],
        "columns": {"id": "int", "first_name": "string", "last_name": "string", "email": "string"},
    },
    "sqlserver_orders": {
        "key": ["order_id"],
        "columns": {
            "order_id": "int",
            "customer_id": "int",
            "order_date": "date",
            "amount": "decimal(10,2)",
            "discount": "decimal(10,3)",
            "placed_at": "timestamp",
            "paid_at": "timestamp",
            "shipped_at": "timestamp",
            "updated_at": "timestamp",
        },
    },
    "emp": {
        "key": ["empno"],
        "columns": {"empno": "decimal(8,0)", "fname": "string", "lname": "string", "photo": "binary"},
    },
    "emp_roles": {
        "key": ["empno", "role"],
        "columns": {
            "empno": "decimal(8,0)",
            "role": "string",
            "granted_on": "date",
            "weight": "decimal(5,2)",
        },
    },
}
MESSAGE_QUARANTINE_COLUMNS = ["source_table", "topic", "kafka_partition", "kafka_offset", "reason"]
DIRXML_QUARANTINE_COLUMNS = ["source_table", "raw_table", "record_id", "status", "reason"]
# what a model with nothing new in its run compiles to (macros/ranges/nothing_new_query.sql)
NOTHING_NEW_QUERY = "select 'nothing new' as cdcflow_run"
DIRXML_OUTCOME_COLUMNS = ["raw_table", "record_id", "status", "reason", "event_type", "source_table"]


def as_text(value) -> str:
    """One cell as the expected CSVs write it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, list | tuple):
        return "|".join(as_text(v) for v in value)
    if isinstance(value, Decimal):
        return str(value)
    return str(value)


# dbt's warning tag, as its console prints it: in color even into a file or a pipe
# ("[\x1b[33mWARNING\x1b[0m]: ..."), so a plain "[WARNING]" is never there to find
DBT_WARNING = re.compile(r"\[(?:\x1b\[[0-9;]*m)?WARNING(?:\x1b\[[0-9;]*m)?\]")


def dbt_warnings(output: str) -> list[str]:
    """The lines of dbt's console ``output`` that carry its WARNING tag."""
    return [line for line in output.splitlines() if DBT_WARNING.search(line)]


def read_expected(name: str) -> tuple[list[str], list[tuple[str, ...]]]:
    with open(EXPECTED_DIR / f"{name}.csv", newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        return header, sorted(tuple(row) for row in reader)


def select_list(columns: list[str]) -> str:
    """``columns`` for a select; binary columns (the tables' ``binary`` ones) as hex text."""
    binary = {c for t in TABLES.values() for c, data_type in t["columns"].items() if data_type == "binary"}
    return ", ".join(f"hex({c}) as {c}" if c in binary else c for c in columns)


def spark_rows(spark, relation: str, columns: list[str]) -> list[tuple[str, ...]]:
    rows = spark.sql(f"select {select_list(columns)} from {relation}").collect()
    return sorted(tuple(as_text(v) for v in row) for row in rows)


def sample_rows(spark, relation: str, columns: list[str]) -> list[tuple[str, ...]]:
    """spark_rows with integration_tests/' names as the samples' (its tables and raw
    tables are the samples' under the prefix it_; the expected tables name the
    samples' own)."""
    return sorted(
        tuple(re.sub(r"\bit_", "", cell) for cell in row) for row in spark_rows(spark, relation, columns)
    )


def history_columns(table: str) -> list[str]:
    return list(TABLES[table]["columns"]) + HISTORY_COLUMNS


def current_columns(table: str) -> list[str]:
    return list(TABLES[table]["columns"]) + CURRENT_COLUMNS


@contextmanager
def env(**values):
    """Set environment variables for the block (dbt reads env_var() per invocation)."""
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update({k: str(v) for k, v in values.items()})
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


def target_path(state_dir: Path, project_dir: Path, schema: str, args=(), target: str = "session") -> Path:
    """The folder of dbt's artifacts for runs of ``project_dir`` in ``schema`` with
    the ``--vars`` of ``args``: one per combination. dbt parses the project again
    whenever the project, the profile (the schema) or the vars differ from the
    last run's in the folder; the test files of a worker share its session and
    state folder, and a test's runs then re-use the parse of the first."""
    args = list(args)
    dbt_vars = args[args.index("--vars") + 1] if "--vars" in args else ""
    key = hashlib.sha1("\0".join([str(project_dir), schema, target, dbt_vars]).encode()).hexdigest()[:12]
    return Path(state_dir) / "targets" / key


def invoke_dbt_in(
    state_dir: Path,
    args: list[str],
    *,
    schema: str,
    project_dir: Path,
    target: str = "session",
    artifacts: bool = False,
):
    """dbt's result of ``args`` invoked in-process against ``schema``, its files in
    ``target_path``. ``artifacts``: dbt writes its JSON artifacts there too
    (manifest.json, run_results.json, sources.json); the tests read the result
    object, and dbt wrote manifest.json twice a run, about 0.45 s each beside the
    other worker (--no-write-json; the compiled SQL and the partial parse are
    written either way)."""
    from launcher.dbt_invoke import invoke_dbt

    with env(CDCFLOW_SCHEMA=schema):
        return invoke_dbt(
            [*args, *(() if artifacts else ("--no-write-json",))],
            state_dir=state_dir,
            target=target,
            project_dir=project_dir,
            target_path=target_path(state_dir, project_dir, schema, args, target),
        )


def run_dbt(
    state_dir: Path,
    *args: str,
    schema: str,
    target: str = "session",
    project_dir: Path = PROJECT_DIR,
    artifacts: bool = False,
) -> Any:
    """Invoke dbt in-process against ``schema``; fail the test if dbt fails, else
    return dbt's result. ``artifacts``: as invoke_dbt_in's."""
    result = invoke_dbt_in(
        state_dir, list(args), schema=schema, project_dir=project_dir, target=target, artifacts=artifacts
    )
    if not result.success:
        failures = [
            f"{r.node.name}: {r.status}: {r.message}"
            for r in getattr(result.result, "results", None) or []
            if str(r.status) not in ("success", "pass", "warn")
        ]
        raise AssertionError(f"dbt {' '.join(args)} failed: {result.exception or failures}")
    return result


def read_seed(name: str) -> list[dict[str, str]]:
    with open(SEEDS_DIR / f"{name}.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def shift_mask(mask_hex: str, bits: int) -> str:
    """A little-endian change mask moved up by ``bits`` positions (hex, trimmed)."""
    if not mask_hex:
        return mask_hex
    value = int.from_bytes(bytes.fromhex(mask_hex), "little") << bits
    return value.to_bytes((value.bit_length() + 7) // 8 or 1, "little").hex().upper()


def load_raw(
    spark,
    schema: str,
    table: str,
    rows: list[dict[str, str]],
    *,
    change_table: bool,
    headers=None,
    table_format: str = "using parquet",
    types: dict[str, str] | None = None,
) -> None:
    """Append ``rows`` (CSV text) to ``schema.table`` as Replicate lands them: typed
    columns and a varbinary change_mask. Each call writes new files (a new landing).
    ``headers`` replaces the default header columns (name -> type); ``table_format``
    is the clause creating the table (e.g. ``stored as parquet`` for a Hive table);
    ``types`` lands data columns with other types than the configured ones."""
    from pyspark.sql import Row

    columns = dict(headers or CT_HEADERS) if change_table else {}
    columns.update(TABLES[table.removesuffix("__ct").removeprefix("it_")]["columns"])
    columns.update(types or {})
    spark.sql(f"create database if not exists {schema}")
    ddl = ", ".join(f"{name} {data_type}" for name, data_type in columns.items())
    spark.sql(f"create table if not exists {schema}.{table} ({ddl}) {table_format}")
    if not rows:
        return
    text_rows = [Row(**{name: (row.get(name) or None) for name in columns}) for row in rows]
    frame = spark.createDataFrame(text_rows, ", ".join(f"{name} string" for name in columns))
    frame.createOrReplaceTempView("_cdcflow_raw_batch")
    select = ", ".join(
        f"unhex({name}) as {name}" if data_type == "binary" else f"cast({name} as {data_type}) as {name}"
        for name, data_type in columns.items()
    )
    spark.sql(f"insert into {schema}.{table} select {select} from _cdcflow_raw_batch")


def append_rows(spark, schema: str, table: str, columns: dict[str, str], rows: list[dict]) -> None:
    """Land ``rows`` (dicts of Python values) as new parquet files of
    ``schema.table``, created with ``columns`` (name -> type) on first use."""
    ddl = ", ".join(f"`{name}` {data_type}" for name, data_type in columns.items())
    spark.sql(f"create database if not exists {schema}")
    spark.sql(f"create table if not exists {schema}.{table} ({ddl}) using parquet")
    if rows:
        frame = spark.createDataFrame([tuple(row.get(c) for c in columns) for row in rows], ddl)
        frame.write.mode("append").insertInto(f"{schema}.{table}")


def tracked_copy(destination: Path) -> Path:
    """The files git tracks, as they are in the working tree (links copied as
    links): what a fresh clone holds."""
    import shutil
    import subprocess

    listed = subprocess.run(["git", "ls-files", "-z"], cwd=PROJECT_DIR, capture_output=True, check=True)
    for name in filter(None, listed.stdout.decode().split("\0")):
        source = PROJECT_DIR / name
        if source.is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination / name, follow_symlinks=False)
    return destination


def compile_inline(state_dir: Path, sql: str, *extra: str) -> str:
    """The SQL dbt compiles ``sql`` (Jinja using the project's macros) to, in
    integration_tests/ (installed by the ``integration_project`` fixture)."""
    result = invoke_dbt_in(
        state_dir, ["compile", "--inline", sql, *extra], schema="e2e_compile", project_dir=INTEGRATION_DIR
    )
    assert result.success, result.exception
    return result.result.results[0].node.compiled_code


def make_project(path: Path, tables: dict[str, dict], settings: dict | None = None) -> Path:
    """A project installing cdcflow and onboarding ``tables`` the way docs/onboarding.md
    says (testkit.project); ``settings``: its other cdcflow vars."""
    return onboarded_project(path / "project", tables, settings)


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_line(path: Path, text: str, process: subprocess.Popen, what: str) -> None:
    """Wait (180 s at most) until `process`, `what` the messages call it, has written
    `text` to its log `path`; fail with the log's end if it exits first."""
    deadline = time.monotonic() + 180
    while text not in (path.read_text() if path.exists() else ""):
        assert process.poll() is None, f"{what} exited: {path.read_text()[-3000:]}"
        assert time.monotonic() < deadline, f"{what} did not start in 180 s"
        time.sleep(1)


def stop_process_group(process: subprocess.Popen) -> None:
    """SIGTERM the process group `process` leads (started with start_new_session), then
    SIGKILL it if it has not ended within a minute."""
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
