"""A dbt run in its own process, for the fault-injection test to kill (and the
functions that start one: ``command``, ``run``, ``run_batches``).

    python -m tests.e2e.fault_worker WORKLOAD PROJECT_DIR STATE_DIR BATCH[,BATCH...]|-
        [--dump [--checks] [--watch]] [--snapshot DIR] [--table-format FORMAT] -- DBT_ARGS...

Builds the embedded Spark on STATE_DIR, lands the named batch of the workload
(``tests.e2e.fault_workloads.WORKLOADS``; ``-``: none) into its raw schema,
invokes dbt on PROJECT_DIR in the workload's schema (its log on stdout, one JSON
event per line when asked with ``--log-format json``), then with ``--dump``
prints the tables the test compares as one JSON line starting with ``DUMP``
(with ``--checks``, also what the workload's checks answer, compiled with the
same dbt arguments). Batches given one after the other (``1,2``) are landed and
run in turn in this one process (its JVM warm for the second: a run in a new
JVM costs about twice one in a warm JVM), a ``DUMP`` line after each; with
``--snapshot``, the state folder as the batch before the last left it is copied
to DIR (what a process ending there would have left), and ``--checks`` and
``--watch`` are the last batch's. With ``--table-format``, the session serves that table
format and dbt runs with it (vars.cdcflow_table_format); else parquet. With
``--watch``, a thread reads the workload's watched tables (``Workload.watch``)
again and again while dbt runs, as an analyst's queries would: the dump has each
different answer it got under ``watched``.
Exits 0 when every dbt run succeeded.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import yaml

PROJECT_DIR = Path(__file__).resolve().parents[2]


def command(
    workload,
    project: Path,
    state: Path,
    batch: str,
    *,
    dump_tables: bool,
    checks: bool = False,
    table_format: str = "parquet",
    watch: bool = False,
    snapshot: Path | None = None,
) -> list[str]:
    """The command of a worker run of ``workload`` (fault_workloads.Workload) on
    ``batch`` (batches: comma-separated)."""
    return [
        sys.executable,
        "-m",
        "tests.e2e.fault_worker",
        workload.name,
        str(project),
        str(state),
        batch,
        *(["--dump"] if dump_tables else []),
        *(["--checks"] if checks else []),
        *(["--watch"] if watch else []),
        *(["--snapshot", str(snapshot)] if snapshot else []),
        "--table-format",
        table_format,
        "--",
        *with_table_format(workload.dbt_args, table_format),
    ]


def with_table_format(dbt_args: list[str], table_format: str) -> list[str]:
    """``dbt_args`` with vars.cdcflow_table_format set to ``table_format`` (in
    their ``--vars``, or in a ``--vars`` of its own)."""
    if "--vars" not in dbt_args:
        return [*dbt_args, "--vars", json.dumps({"cdcflow_table_format": table_format})]
    at = dbt_args.index("--vars") + 1
    given = yaml.safe_load(dbt_args[at])
    return [*dbt_args[:at], json.dumps({**given, "cdcflow_table_format": table_format}), *dbt_args[at + 1 :]]


def run(
    workload,
    project: Path,
    state: Path,
    batch: str,
    *,
    checks: bool = False,
    table_format: str = "parquet",
    watch: bool = False,
) -> dict[str, list]:
    """A worker run to its end (it must succeed): the tables it dumped (and with
    ``checks``, what the workload's checks answered; with ``watch``, what the
    watched tables read during the run)."""
    (tables,) = run_batches(
        workload, project, state, [batch], checks=checks, table_format=table_format, watch=watch
    )
    return tables


def run_batches(
    workload,
    project: Path,
    state: Path,
    batches: list[str],
    *,
    snapshot: Path | None = None,
    checks: bool = False,
    table_format: str = "parquet",
    watch: bool = False,
) -> list[dict[str, list]]:
    """The runs of ``batches``, one after the other in one worker process (each
    must succeed): the tables dumped after each (the last's with ``checks`` and
    ``watch`` as ``run``'s); with ``snapshot``, the state folder as the batch
    before the last left it, copied there."""
    done = subprocess.run(
        command(
            workload,
            project,
            state,
            ",".join(batches),
            dump_tables=True,
            checks=checks,
            table_format=table_format,
            watch=watch,
            snapshot=snapshot,
        ),
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    dumps = [json.loads(line[5:]) for line in done.stdout.splitlines() if line.startswith("DUMP ")]
    assert len(dumps) == len(batches), done.stdout[-3000:]
    return dumps


def main(argv: list[str]) -> int:
    separator = argv.index("--")
    options, dbt_args = argv[:separator], argv[separator + 1 :]
    name, project_dir, state_dir, batch = options[0], Path(options[1]), Path(options[2]), options[3]
    from launcher.spark import build_session
    from tests.e2e.fault_workloads import WORKLOADS

    workload = WORKLOADS[name]
    table_format = options[options.index("--table-format") + 1] if "--table-format" in options else "parquet"
    snapshot = Path(options[options.index("--snapshot") + 1]) if "--snapshot" in options else None
    spark = build_session(state_dir=state_dir, master="local[2]", table_format=table_format)
    batches = batch.split(",")
    for number, batch in enumerate(batches, start=1):
        last = number == len(batches)
        batch_options = options if last else ["--dump"]
        if not _run_batch(spark, workload, batch, state_dir, project_dir, dbt_args, batch_options):
            return 1
        if snapshot is not None and number == len(batches) - 1:
            copy_when_still(state_dir, snapshot)
    return 0


def _run_batch(spark, workload, batch, state_dir, project_dir, dbt_args, options) -> bool:
    """Land ``batch`` (``-``: none), run dbt, dump (``options``: main's): whether dbt succeeded."""
    from launcher.dbt_invoke import invoke_dbt
    from tests.e2e.helpers import env

    if batch != "-":
        workload.land(spark, f"{workload.schema}_raw", batch)
    with env(CDCFLOW_SCHEMA=workload.schema):
        watcher = _Watcher(spark, workload) if "--watch" in options else None
        result = invoke_dbt(dbt_args, state_dir=state_dir, project_dir=project_dir)
        watched = watcher.stop() if watcher else None
    if "--dump" in options:
        tables = workload.dump(spark, workload.schema)
        if watched is not None:
            tables["watched"] = watched
        if "--checks" in options and result.success:

            def compile_sql(sql: str) -> str:
                with env(CDCFLOW_SCHEMA=workload.schema):
                    compiled = invoke_dbt(
                        ["compile", "--inline", sql, *_vars(dbt_args)],
                        state_dir=state_dir,
                        project_dir=project_dir,
                    )
                assert compiled.success, compiled.exception
                return compiled.result.results[0].node.compiled_code

            tables.update(workload.checks(spark, workload.schema, compile_sql))
        print("DUMP " + json.dumps(tables), flush=True)
    return result.success


def _files(folder: Path) -> dict[str, tuple[int, int] | None]:
    """Each file's size and modification time (None: gone while listed)."""
    files = {}
    for path in folder.rglob("*"):
        try:
            stat = path.stat()
        except FileNotFoundError:
            files[str(path)] = None
        else:
            files[str(path)] = (stat.st_size, stat.st_mtime_ns)
    return files


def copy_when_still(state_dir: Path, destination: Path, attempts: int = 10) -> None:
    """``state_dir`` copied to ``destination`` while this process's session is idle:
    a copy during which no file changed (Derby may write its metastore in the
    background; a copy taken while it did is taken again). What it copies is what a
    process ending there leaves: the metastore as after a crash, which Derby
    recovers from its log when it boots it."""
    for _ in range(attempts):
        before = _files(state_dir)
        shutil.copytree(state_dir, destination, symlinks=True)
        if _files(state_dir) == before:
            return
        shutil.rmtree(destination)
        time.sleep(1)
    raise AssertionError(f"{state_dir} kept changing: no still copy in {attempts} attempts")


WATCH_PAUSE_S = 2.0


class _Watcher:
    """Reads ``workload.watch`` in a thread of its own until stopped: the
    different answers it got (an error's text is an answer too)."""

    def __init__(self, spark, workload):
        self._spark, self._workload = spark, workload
        self._seen: dict[str, dict] = {}
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while not self._done.is_set():
            try:
                answer = self._workload.watch(self._spark, self._workload.schema)
            except Exception as error:  # noqa: BLE001 - a failed read is what the test must see
                answer = {"error": [[str(error).splitlines()[0]]]}
            self._seen.setdefault(json.dumps(answer, sort_keys=True), answer)
            # a pause between reads: read every 0.2 s, the tables kept one of the
            # worker's two cores busy beside the run (in CI, the formats workload's
            # batch 2, watched, took 292 s; the redo of the same range after a kill, 191 s)
            self._done.wait(WATCH_PAUSE_S)

    def stop(self) -> list[dict]:
        self._done.set()
        self._thread.join()
        return list(self._seen.values())


def _vars(dbt_args: list[str]) -> list[str]:
    """The ``--vars`` of a run's dbt arguments, for a compile with the same configuration."""
    return dbt_args[dbt_args.index("--vars") : dbt_args.index("--vars") + 2] if "--vars" in dbt_args else []


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
