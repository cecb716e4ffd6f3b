"""`cdcflow` command line: run the pipeline embedded, run dbt, or serve Thrift.

    cdcflow run                 seeds + build + tests on a local SparkSession, then a summary
    cdcflow dbt <dbt args>      any dbt command on the embedded session (UDFs registered), on
                                the dbt project in the current folder (else this one) or
                                --project-dir DIR
    cdcflow serve [--port N]    Spark Thrift server with the UDFs, for `--target thrift`
    cdcflow docs [--port N]     dbt's docs site (lineage, every model and column), on 127.0.0.1
    cdcflow onboard [TABLE...]  write the models, sources and properties of configured tables
                                (vars.cdcflow_tables); --check lists what differs;
                                --describe TABLE reads a Qlik __ct table's columns from the
                                landed change table (embedded warehouse)
    cdcflow jars --install      fetch the Delta Lake and Iceberg jars with Maven, once;
                                `cdcflow jars` prints the project's format's jars
    cdcflow class-archive       make the class-data archive sessions start from, now
                                (`make setup` does; else the first session makes it)

`serve` also runs under spark-submit on a cluster (the format's jars passed to it):
    spark-submit --master spark://host:7077 --py-files udfs.zip --jars "$(cdcflow jars)" \
        launcher/cli.py serve --master ""
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file (spark-submit launcher/cli.py ...)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from launcher.spark import (  # noqa: E402
    PROJECT_DIR,
    JavaMissing,
    build_session,
    check_java,
    stop_jvm,
    warm_up,
    warm_up_catalog,
)
from launcher.state_dir_lock import StateDirInUse, release_state_dir  # noqa: E402
from launcher.table_format import (  # noqa: E402
    FORMATS,
    TableFormatError,
    format_jars,
    install_jars,
    project_table_format,
)

DEFAULT_STATE_DIR = PROJECT_DIR / ".cdcflow"
# in a clone, the launcher sits in cdcflow's own project (the samples `cdcflow run`
# builds); installed with pip, in site-packages beside no project
SAMPLES_PROJECT = PROJECT_DIR if (PROJECT_DIR / "dbt_project.yml").is_file() else None


def _check_configuration(project_dir: Path) -> None:
    """Stop at once, before Spark starts, on a mistake in the project's
    vars.cdcflow_tables (the check `cdcflow onboard` makes)."""
    from launcher.onboard import OnboardingError, validate

    try:
        validate(Path(project_dir))
    except OnboardingError as exc:
        print(f"cdcflow: {exc}", file=sys.stderr)
        raise SystemExit(2) from exc


def _session(
    args,
    extra_conf=None,
    project_dir: Path | None = None,
    dbt_vars: str | None = None,
    *,
    dbt_follows: bool = False,
):
    """The embedded session of a command; ``dbt_follows``: the command then runs dbt
    in this process, whose import starts beside the JVM's (_import_dbt_beside_the_jvm)."""
    try:
        check_java()
    except JavaMissing as exc:
        print(f"cdcflow: {exc}", file=sys.stderr)
        raise SystemExit(2) from exc
    if dbt_follows:
        _import_dbt_beside_the_jvm()
    master = args.master or None
    try:
        table_format = args.table_format or project_table_format(project_dir, dbt_vars)
        return build_session(
            state_dir=args.state_dir, master=master, extra_conf=extra_conf, table_format=table_format
        )
    except TableFormatError as exc:
        print(exc, file=sys.stderr)
        raise SystemExit(2) from exc
    except StateDirInUse as exc:
        print(f"cdcflow: {exc}", file=sys.stderr)
        raise SystemExit(2) from exc


# What a command that runs dbt imports of it before its first call: dbt's command line
# and the Spark adapter (most of it dbt's contracts, built as their modules load: 3.4 s
# of a 12.6 s `dbt parse` in py-spy's samples).
DBT_MODULES = ("dbt.cli.main", "dbt.adapters.spark")


def _import_dbt_beside_the_jvm() -> None:
    """Import DBT_MODULES in a thread of its own while the session's JVM starts, which
    leaves this process waiting for its gateway: the command's first dbt call then
    finds them loaded (or waits for the import to end). PySpark, which the session's
    start imports, is imported before the thread starts, so that the two threads
    import little at the same time. A failure is left for the command's own import
    to meet and report."""
    import importlib

    import pyspark.sql  # noqa: F401 - before the thread (above)

    def load() -> None:
        try:
            for name in DBT_MODULES:
                importlib.import_module(name)
        except BaseException:  # noqa: BLE001 - the command imports them again and reports
            return

    threading.Thread(target=load, name="cdcflow-dbt-import", daemon=True).start()


def _given_vars(dbt_args: list[str]) -> str | None:
    """The value of a --vars among dbt's arguments."""
    for number, argument in enumerate(dbt_args):
        if argument == "--vars" and number + 1 < len(dbt_args):
            return dbt_args[number + 1]
        if argument.startswith("--vars="):
            return argument.split("=", 1)[1]
    return None


def _summary(results, hook_reports: list[str]) -> None:
    """Print what the run did: the state hooks' report (per table, what this run
    logged, opened, closed and quarantined, and the state it reached), the nodes
    per status, every node dbt did not count a success with one short line, and
    the tests."""
    print("\ncdcflow run summary")
    for report in hook_reports:
        print("\n".join("  " + line for line in report.splitlines()))
    nodes: dict[str, int] = {}
    tests = {"pass": 0, "warn": 0, "fail": 0, "error": 0}
    problems = []
    for node_result in results:
        node = node_result.node
        status = str(node_result.status)
        if node.resource_type in ("test", "unit_test"):
            tests[status] = tests.get(status, 0) + 1
        else:
            nodes[f"{node.resource_type}s {status}"] = nodes.get(f"{node.resource_type}s {status}", 0) + 1
        if status not in ("success", "pass", "warn"):
            problems.append(f"  {status:<7} {node.resource_type} {node.name}: {_first_line(node_result)}")
    print("  " + ", ".join(f"{count} {kind}" for kind, count in sorted(nodes.items())))
    print("  tests (data and unit): " + ", ".join(f"{v} {k}" for k, v in tests.items()))
    for line in problems:
        print(line)


def _first_line(node_result) -> str:
    """The line of a node's result message that says what went wrong: Spark's
    [ERROR_CLASS] line when there is one (not dbt's headers), at most 200 characters."""
    if str(node_result.status) == "skipped":
        return "skipped: a node it depends on failed"
    lines = [line.strip() for line in str(node_result.message or "no message").splitlines() if line.strip()]
    lines = [line for line in lines if not line.endswith(" Error") and " Error in " not in line] or lines
    line = next((line for line in lines if line.startswith("[")), lines[0] if lines else "no message")
    return line if len(line) <= 200 else line[:199] + "…"


def _seeds_to_load(spark, state_dir: Path, full_refresh: bool) -> list[str]:
    """dbt seed's selection: only the seeds whose CSV or config changed since the
    last load (dbt's state:modified against the manifest saved then), unless a
    seed's table is missing or a full refresh is asked. Re-loading an unchanged
    seed would land its rows again (new files, new landing times): work for
    nothing, on every run."""
    manifest = state_dir / "seeded" / "manifest.json"
    if full_refresh or not manifest.is_file():
        return []
    seeds = [
        node for node in json.loads(manifest.read_text())["nodes"].values() if node["resource_type"] == "seed"
    ]
    # one listing per schema (a catalog lookup per seed took 0.2 s each)
    listed = {
        schema: {row.tableName.lower() for row in spark.sql(f"show tables in `{schema}`").collect()}
        if spark.catalog.databaseExists(schema)
        else set()
        for schema in {node["schema"] for node in seeds}
    }
    if not all(node["alias"].lower() in listed[node["schema"]] for node in seeds):
        return []
    return ["--select", "state:modified", "--state", str(manifest.parent)]


# beside the manifest of the last seed load: what decided how the seeds load then
SEED_INPUTS = "inputs.sha256"


def _seed_inputs(project_dir: Path, options: list[str]) -> str:
    """A digest of what decides how the seeds load besides their CSVs: the
    project's dbt_project.yml and seed property files, the run's options (vars)
    and the profile's schema and target."""
    digest = hashlib.sha256()
    for path in [project_dir / "dbt_project.yml", *sorted((project_dir / "seeds").rglob("*.yml"))]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    for name in ("CDCFLOW_SCHEMA", "CDCFLOW_TARGET"):
        options = [*options, os.environ.get(name, "")]
    digest.update("\0".join(options).encode())
    return digest.hexdigest()


def _seeds_unchanged(saved: Path, project_dir: Path, options: list[str]) -> bool:
    """Whether the seeds are as the last seed load (``saved``: its manifest) found
    them, which dbt's state:modified would also say: the same seed files, each
    with the checksum dbt gave it then, and the same inputs (_seed_inputs). Any
    doubt (no such record, a seed dbt identified by its path) is False: dbt
    judges then."""
    from dbt.contracts.files import FileHash
    from dbt_common.clients.system import load_file_contents

    try:
        manifest = json.loads((saved / "manifest.json").read_text())
        inputs = (saved / SEED_INPUTS).read_text()
    except (OSError, ValueError):
        return False
    if inputs != _seed_inputs(project_dir, options):
        return False
    seeds = [node for node in manifest["nodes"].values() if node["resource_type"] == "seed"]
    on_disk = sorted(str(path.relative_to(project_dir)) for path in (project_dir / "seeds").rglob("*.csv"))
    if sorted(node["original_file_path"] for node in seeds) != on_disk:
        return False
    return all(
        node["checksum"]["name"] == "sha256"
        and FileHash.from_contents(
            load_file_contents(str(project_dir / node["original_file_path"]), strip=True)
        ).checksum
        == node["checksum"]["checksum"]
        for node in seeds
    )


def _selected(ls_args: list[str], state_dir: Path) -> list[str]:
    """The nodes `dbt ls` selects with ``ls_args`` (their names)."""
    from launcher.dbt_invoke import invoke_dbt

    listed = invoke_dbt([*ls_args, "--output", "name", "--quiet"], state_dir=state_dir)
    if not listed.success:
        raise RuntimeError(f"dbt {' '.join(ls_args)} failed: {listed.exception}")
    return list(listed.result or [])


def cmd_run(args) -> int:
    if SAMPLES_PROJECT is None:
        print(
            "cdcflow run builds the samples of a clone of cdcflow (`make run` there); in your own"
            " project: cdcflow dbt -- build",
            file=sys.stderr,
        )
        return 2
    _check_configuration(SAMPLES_PROJECT)
    spark = _session(args, project_dir=SAMPLES_PROJECT, dbt_vars=args.vars, dbt_follows=True)
    from launcher.dbt_invoke import invoke_dbt

    options = ["--full-refresh"] if args.full_refresh else []
    if args.vars:
        options += ["--vars", args.vars]
    started = time.monotonic()
    # Seeds first, in their own invocation: sources read the seeded raw tables,
    # and dbt has no edge from a source to the seed that fills it. None modified:
    # no seed invocation at all (`dbt ls` selects without a connection or hooks).
    seeds = _seeds_to_load(spark, args.state_dir, args.full_refresh)
    seed_results = []
    saved = args.state_dir / "seeded"
    if seeds and _seeds_unchanged(saved, SAMPLES_PROJECT, options):
        pass  # as loaded last time, checked without dbt (`dbt ls` parses the project: seconds)
    elif not seeds or _selected(["ls", "--resource-type", "seed", *seeds, *options], args.state_dir):
        seeded = invoke_dbt(["seed", *seeds, *options], state_dir=args.state_dir)
        if not seeded.success:
            return 1
        seed_results = seeded.result.results
        saved.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(args.state_dir / "target" / "manifest.json", saved / "manifest.json")
        (saved / SEED_INPUTS).write_text(_seed_inputs(SAMPLES_PROJECT, options))
    else:  # none modified, as dbt judges: what the next run compares with
        (saved / SEED_INPUTS).write_text(_seed_inputs(SAMPLES_PROJECT, options))
    hook_reports: list[str] = []
    built = invoke_dbt(
        ["build", "--exclude", "resource_type:seed", *options],
        state_dir=args.state_dir,
        callbacks=[_collect_run_report(hook_reports)],
    )
    _summary([*seed_results, *built.result.results], hook_reports)
    print(f"  wall time: {time.monotonic() - started:.1f} s")
    return 0 if built.success else 1


def _collect_run_report(reports: list[str]):
    """A dbt event callback keeping the report the on-run-end hook logs."""

    def collect(event) -> None:
        if event.info.name == "JinjaLogInfo" and event.data.msg.startswith("cdcflow: what this run did"):
            reports.append(event.data.msg)

    return collect


def cmd_dbt(args) -> int:
    dbt_args, project_dir = _project_dir(_dbt_args(args), args.project_dir)
    project_dir = _project_or_stop(project_dir)
    _check_configuration(project_dir)
    _session(args, project_dir=project_dir, dbt_vars=_given_vars(dbt_args), dbt_follows=True)
    from launcher.dbt_invoke import invoke_dbt

    return 0 if invoke_dbt(dbt_args, state_dir=args.state_dir, project_dir=project_dir).success else 1


def _dbt_args(args) -> list[str]:
    """The arguments `cdcflow dbt` passes on to dbt (after an optional `--`)."""
    return args.dbt_args[1:] if args.dbt_args[:1] == ["--"] else args.dbt_args


def _project_dir(dbt_args: list[str], given: Path | None) -> tuple[list[str], Path | None]:
    """The project `cdcflow dbt` runs: a --project-dir among dbt's own arguments
    (taken out: the launcher passes it), else the launcher's --project-dir, else
    the current folder when it holds a dbt project, else this repository's."""
    rest, found = [], None
    arguments = iter(dbt_args)
    for argument in arguments:
        if argument == "--project-dir":
            found = Path(next(arguments, "."))
        elif argument.startswith("--project-dir="):
            found = Path(argument.split("=", 1)[1])
        else:
            rest.append(argument)
    if found is None:
        found = given or (Path.cwd() if (Path.cwd() / "dbt_project.yml").exists() else SAMPLES_PROJECT)
    return rest, found


def _project_or_stop(found: Path | None) -> Path:
    """The project a command runs; none (installed with pip, run outside a project): stop."""
    if found is None:
        print(
            f"cdcflow: no dbt project in {Path.cwd()} (no dbt_project.yml): run it in your project's"
            " folder, or pass --project-dir",
            file=sys.stderr,
        )
        raise SystemExit(2)
    return found


def cmd_docs(args) -> int:
    """dbt's docs site of the project: generated on the embedded session (the
    catalog reads the tables a run built), then served on 127.0.0.1 until
    interrupted (unless --no-serve)."""
    project_dir = _project_or_stop(_project_dir([], args.project_dir)[1])
    _session(args, project_dir=project_dir, dbt_follows=True)
    from launcher.dbt_invoke import invoke_dbt

    if not invoke_dbt(["docs", "generate"], state_dir=args.state_dir, project_dir=project_dir).success:
        return 1
    site = args.state_dir / "target"
    if args.no_serve:
        print(f"cdcflow: docs site written to {site}", flush=True)
        return 0
    # the site is static files: served without Spark, so the state folder is free for the runs meanwhile
    stop_jvm()
    release_state_dir(args.state_dir)
    print(f"cdcflow: docs of {project_dir} on http://{args.host}:{args.port} (Ctrl-C stops)", flush=True)
    serve = ["docs", "serve", "--host", args.host, "--port", str(args.port), "--no-browser"]
    try:
        served = invoke_dbt(serve, state_dir=args.state_dir, project_dir=project_dir)
    except KeyboardInterrupt:
        served = None
    if served is None or isinstance(getattr(served, "exception", None), KeyboardInterrupt):
        print("cdcflow: docs server stopped", flush=True)
        return 0
    return 0 if served.success else 1


def cmd_serve(args) -> int:
    conf = {
        "spark.sql.hive.thriftServer.singleSession": "true",
        "spark.hadoop.hive.server2.thrift.bind.host": args.host,
        "spark.hadoop.hive.server2.thrift.port": str(args.port),
        "spark.hadoop.hive.server2.transport.mode": "binary",
    }
    # the table format of the project in the current folder, unless --table-format says
    spark = _session(args, extra_conf=conf, project_dir=_project_dir([], None)[1])
    warm_up(spark)  # before it listens: a client's first run does not pay for the JVM's first use
    warm_up_catalog(spark)
    jvm = spark.sparkContext._jvm
    jvm.org.apache.spark.sql.hive.thriftserver.HiveThriftServer2.startWithContext(
        spark._jsparkSession.sqlContext()
    )
    print(f"cdcflow: Spark Thrift server listening on {args.host}:{args.port}", flush=True)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()
    print("cdcflow: stopping Thrift server", flush=True)
    spark.stop()
    return 0


def cmd_onboard(args) -> int:
    from launcher.onboard import OnboardingError, check, write

    if args.describe:
        return _describe(args)
    try:
        _warn_of_missing_raw_tables(args)
        if args.check:
            problems = check(args.project_dir)
            for problem in problems:
                print(f"cdcflow onboard: {problem}", file=sys.stderr)
            if problems:
                print("cdcflow onboard: run `cdcflow onboard` to write them again", file=sys.stderr)
            return 1 if problems else 0
        changed = write(args.project_dir, args.tables or None)
    except OnboardingError as exc:
        print(f"cdcflow onboard: {exc}", file=sys.stderr)
        return 2
    print("\n".join(changed) if changed else "cdcflow onboard: models/ already matches the configuration")
    return 0


def _warn_of_missing_raw_tables(args) -> None:
    """Warn of each raw table the configuration names that the embedded warehouse
    of --state-dir lacks (a typo reads like a landing delay in a run)."""
    import yaml

    from launcher.onboard import missing_raw_tables

    project_file = args.project_dir / "dbt_project.yml"
    if not project_file.exists():
        return
    project_vars = (yaml.safe_load(project_file.read_text()) or {}).get("vars") or {}
    raw_schema = args.raw_schema or _raw_schema(project_vars)
    for line in missing_raw_tables(args.project_dir, args.state_dir / "spark-warehouse", raw_schema):
        print(f"cdcflow onboard: warning: {line}", file=sys.stderr)


def _describe(args) -> int:
    """`cdcflow onboard --describe TABLE`: the vars entry of a Qlik __ct table read
    from its landed change table, or what differs from the entry it has."""
    import yaml

    from launcher.describe import DescribeError, describe

    if len(args.tables) != 1:
        print("cdcflow onboard: --describe takes one table name", file=sys.stderr)
        return 2
    (name,) = args.tables
    project_file = args.project_dir / "dbt_project.yml"
    # a table may be described before the project has an entry for it, or a project
    document = yaml.safe_load(project_file.read_text()) if project_file.exists() else None
    project_vars = (document or {}).get("vars") or {}
    tables = project_vars.get("cdcflow_tables") or {}
    raw_schema = args.raw_schema or _raw_schema(project_vars)
    spark = _session(args)
    try:
        text, differences = describe(spark, name, tables.get(name), raw_schema)
    except DescribeError as exc:
        print(f"cdcflow onboard: {exc}", file=sys.stderr)
        return 2
    print(text.rstrip("\n"))
    for line in differences:
        print(f"cdcflow onboard: {line}", file=sys.stderr)
    return 1 if differences else 0


def cmd_class_archive(args) -> int:
    """Make the class-data archive of this installation's sessions now
    (launcher/class_archive.py): a session of the table format started in a
    folder of its own, warmed up as `cdcflow serve` warms up, and ended, so that
    no run pays for making it. Says where it is; without one, why it may be."""
    import tempfile

    from launcher.spark import jvm_class_archive

    with tempfile.TemporaryDirectory(prefix="cdcflow-class-archive-") as folder:
        args.state_dir = Path(folder)
        spark = _session(args, project_dir=_project_dir([], None)[1])
        warm_up(spark)
        for thread in threading.enumerate():
            if thread.name == "cdcflow-warm-up":
                thread.join(timeout=120)
        archive = jvm_class_archive()
        status = stop_jvm()
        release_state_dir(args.state_dir)
    if archive is not None and archive.is_file():
        print(f"cdcflow: class-data archive {archive}")
        return 0
    print(
        "cdcflow: no class-data archive made (CDCFLOW_CLASS_ARCHIVE=off, a SPARK_CONF_DIR holding"
        f" files, another process making it, or the JVM ended with status {status}); sessions start"
        " without one",
        file=sys.stderr,
    )
    return 0


def cmd_jars(args) -> int:
    """Install the table formats' jars (--install), or print those of one format,
    comma-separated, as spark-submit's --jars takes them."""
    try:
        if args.install:
            for jar in install_jars():
                print(jar)
            return 0
        table_format = args.table_format or project_table_format(_project_dir([], None)[1])
        print(",".join(str(jar) for jar in format_jars(table_format)))
    except TableFormatError as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


def _raw_schema(project_vars: dict) -> str:
    """Where the raw tables land: vars.cdcflow_raw_schema of the project, else the
    target schema (CDCFLOW_SCHEMA, as profiles.yml) + `_raw`, as the models read it."""
    configured = project_vars.get("cdcflow_raw_schema")
    return configured or os.environ.get("CDCFLOW_SCHEMA", "cdcflow") + "_raw"


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="cdcflow", description=__doc__.splitlines()[0])
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--state-dir",
        type=Path,
        default=Path(os.environ["CDCFLOW_STATE_DIR"]) if os.environ.get("CDCFLOW_STATE_DIR") else None,
        help="folder for the warehouse, the Derby metastore, dbt target/ and logs/ (default: .cdcflow in"
        " the dbt project the command runs: --project-dir, else the current folder when it holds a"
        " dbt_project.yml, else cdcflow's own in a clone, else the current folder; or $CDCFLOW_STATE_DIR)",
    )
    common.add_argument(
        "--master",
        default=os.environ.get("CDCFLOW_SPARK_MASTER", "local[*]"),
        help="Spark master; empty to keep the one spark-submit set (default local[*])",
    )
    common.add_argument(
        "--table-format",
        choices=FORMATS,
        default=os.environ.get("CDCFLOW_TABLE_FORMAT") or None,
        help="the table format the Spark session serves (its jars, extension and catalog; default: the"
        " project's vars.cdcflow_table_format, else delta; or $CDCFLOW_TABLE_FORMAT)",
    )
    commands = top.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", parents=[common], help="seeds + build + tests, embedded")
    run.add_argument("--full-refresh", action="store_true", help="rebuild incremental models")
    run.add_argument("--vars", help="dbt --vars YAML")
    run.set_defaults(func=cmd_run)

    dbt = commands.add_parser("dbt", parents=[common], help="run any dbt command embedded")
    dbt.add_argument(
        "--project-dir",
        type=Path,
        default=None,
        help="the dbt project to run (default: the current folder when it holds dbt_project.yml, else"
        " cdcflow's own in a clone)",
    )
    dbt.add_argument("dbt_args", nargs=argparse.REMAINDER)
    dbt.set_defaults(func=cmd_dbt)

    docs = commands.add_parser(
        "docs", parents=[common], help="generate dbt's docs site (lineage, columns) and serve it on 127.0.0.1"
    )
    docs.add_argument("--project-dir", type=Path, default=None, help="as for `cdcflow dbt`")
    docs.add_argument("--host", default="127.0.0.1")
    docs.add_argument("--port", type=int, default=8080)
    docs.add_argument(
        "--no-serve", action="store_true", help="only write the site (under --state-dir/target)"
    )
    docs.set_defaults(func=cmd_docs)

    onboard = commands.add_parser(
        "onboard",
        parents=[common],
        help="write the models, sources and properties of configured tables (no Spark but --describe)",
    )
    onboard.add_argument("tables", nargs="*", help="tables of vars.cdcflow_tables (default: all)")
    onboard.add_argument("--project-dir", type=Path, default=Path.cwd(), help="the dbt project (default: .)")
    onboard.add_argument(
        "--check", action="store_true", help="only list what differs; exit 1 if anything does"
    )
    onboard.add_argument(
        "--describe",
        action="store_true",
        help="read one Qlik __ct table's columns from its landed change table (DESCRIBE, in the warehouse"
        " of --state-dir): print its vars entry, or what differs from the entry it has (exit 1)",
    )
    onboard.add_argument(
        "--raw-schema",
        help="where the raw tables landed (default: vars.cdcflow_raw_schema, else <schema>_raw)",
    )
    onboard.set_defaults(func=cmd_onboard)

    serve = commands.add_parser("serve", parents=[common], help="start a Spark Thrift server")
    serve.add_argument("--host", default=os.environ.get("CDCFLOW_THRIFT_HOST", "127.0.0.1"))
    serve.add_argument("--port", type=int, default=int(os.environ.get("CDCFLOW_THRIFT_PORT", "10000")))
    serve.set_defaults(func=cmd_serve)

    archive = commands.add_parser(
        "class-archive",
        parents=[common],
        help="make the class-data archive Spark sessions start from (launcher/class_archive.py), now",
    )
    archive.set_defaults(func=cmd_class_archive)
    jars = commands.add_parser(
        "jars",
        parents=[common],
        help="fetch the Delta Lake and Iceberg jars with Maven (--install), or print a format's jars",
    )
    jars.add_argument(
        "--install", action="store_true", help="copy them from Maven Central into the environment, once"
    )
    jars.set_defaults(func=cmd_jars)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if getattr(args, "state_dir", "") is None:
        args.state_dir = _default_state_dir(args)
    return args.func(args)


def _default_state_dir(args) -> Path:
    """`.cdcflow` in the project the command runs (a consumer's state stays in its
    own project, not in the installed package's folder); outside any project, in
    the current folder."""
    if args.command == "dbt":
        _, project = _project_dir(_dbt_args(args), args.project_dir)
    elif args.command == "run":
        project = SAMPLES_PROJECT
    else:
        _, project = _project_dir([], getattr(args, "project_dir", None))
    return Path(project or Path.cwd()) / DEFAULT_STATE_DIR.name


if __name__ == "__main__":
    raise SystemExit(main())
