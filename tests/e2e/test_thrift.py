"""(c) The same pipeline over a real Spark Thrift server, started with the
project's launcher (`cdcflow serve`) in its own process and stopped afterwards,
built by separate dbt processes, then the marts read back over Thrift equal the
expected tables (those of the embedded run).

Exactly as docs/operations.md ("Running over a Spark Thrift server") tells a
new user: its commands, read from the page, run in a copy of the repository's
files (the server and dbt only told, by env vars, which port, state folder,
schema and Spark master to use), building every table of the samples. The
master is a Spark standalone cluster (master + one worker started with
`spark-class` from the PySpark distribution, on loopback), so the executors
run the Python UDFs (the state hooks', DirXML's key parser, the mask decoder
queried directly). While the quickstart's build runs, the same build started
again stops at its start; a run killed once it claimed its groups leaves a
claim that the run-operation its message gives clears."""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from launcher.spark import LOG_CONFIGURATION_ENV
from tests.e2e.helpers import (
    PROJECT_DIR,
    TABLES,
    as_text,
    current_columns,
    dbt_warnings,
    free_port,
    history_columns,
    read_expected,
    read_seed,
    select_list,
    stop_process_group,
    tracked_copy,
    wait_for_line,
)

pytestmark = pytest.mark.spark

SCHEMA = "e2e_thrift"

# the quickstart builds every table of the samples
QUARANTINES = [
    "qlik_ct_quarantine",
    "qlik_kafka_quarantine",
    "debezium_quarantine",
    "dirxml_quarantine",
    "dirxml_event_outcomes",
]


def _spark_class(state_dir: Path, name: str, *args: str) -> subprocess.Popen:
    """A Spark standalone daemon (Master / Worker) in the foreground, in its own
    process group, on loopback, with its log in ``state_dir``."""
    import pyspark

    spark_home = Path(pyspark.__file__).parent
    # a cluster of one's own: Spark's log configuration, not the one the launcher gives
    # the JVMs it starts (whose WARN level hides the INFO lines waited for below)
    env = {
        **{key: value for key, value in os.environ.items() if key != LOG_CONFIGURATION_ENV},
        "SPARK_HOME": str(spark_home),
        "SPARK_LOCAL_IP": "127.0.0.1",
        "SPARK_NO_DAEMONIZE": "1",
        # no REST submission server (a fixed port, and not needed)
        "SPARK_MASTER_OPTS": "-Dspark.master.rest.enabled=false",
        "SPARK_WORKER_DIR": str(state_dir / "work"),
        # the daemons' own JVMs: the C1 compiler only, as the suite's Spark processes
        # (tests/spark-conf/spark-defaults.conf, which the daemons do not read)
        "SPARK_DAEMON_JAVA_OPTS": "-XX:TieredStopAtLevel=1",
    }
    return subprocess.Popen(
        [str(spark_home / "bin" / "spark-class"), f"org.apache.spark.deploy.{name}", *args],
        env=env,
        stdout=open(state_dir / f"{name.rsplit('.', 1)[-1].lower()}.log", "w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


@pytest.fixture(scope="module")
def spark_master(tmp_path_factory):
    """The URL of a standalone cluster (master + one worker) started for the
    module and stopped after it."""
    state_dir = tmp_path_factory.mktemp("standalone")
    master_port = free_port()
    master = _spark_class(
        state_dir,
        "master.Master",
        "--host",
        "127.0.0.1",
        "--port",
        str(master_port),
        "--webui-port",
        str(free_port()),
    )
    wait_for_line(state_dir / "master.log", "I have been elected leader", master, "Spark master")
    url = f"spark://127.0.0.1:{master_port}"
    worker = _spark_class(
        state_dir,
        "worker.Worker",
        url,
        "--host",
        "127.0.0.1",
        "--webui-port",
        str(free_port()),
        "--cores",
        "2",
        "--memory",
        "3g",
    )
    wait_for_line(state_dir / "worker.log", "Successfully registered with master", worker, "Spark worker")
    yield url
    for process in (worker, master):
        stop_process_group(process)
    assert worker.poll() is not None and master.poll() is not None
    assert not _listening_addresses(master_port), "the Spark master still listens"


def quickstart_commands() -> tuple[str, str]:
    """The Thrift quickstart of docs/operations.md: the server's command block
    and the client's (the first two bash blocks of the section)."""
    page = (PROJECT_DIR / "docs" / "operations.md").read_text()
    section = page.split("## Running over a Spark Thrift server\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", section, re.S)
    assert len(blocks) >= 2, "docs/operations.md: the Thrift section has lost its commands"
    return blocks[0], blocks[1]


def _repository_copy(destination: Path) -> Path:
    """The files git tracks, with the virtual environment linked in: what a fresh
    clone after `make setup` holds."""
    tracked_copy(destination)
    (destination / ".venv").symlink_to(Path(sys.executable).parent.parent)
    return destination


@pytest.fixture(scope="module")
def thrift_server(tmp_path_factory, spark_master):
    """(port, folder the client runs in, its env): the server started by the
    quickstart's command in a copy of the repository, on the cluster
    (CDCFLOW_SPARK_MASTER)."""
    state_dir = tmp_path_factory.mktemp("thrift-state")
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "DBT_PROFILES_DIR"}
    env.update(
        CDCFLOW_THRIFT_PORT=str(port),
        CDCFLOW_STATE_DIR=str(state_dir / "server"),
        CDCFLOW_SCHEMA=SCHEMA,
        CDCFLOW_SPARK_MASTER=spark_master,
    )
    folder = _repository_copy(tmp_path_factory.mktemp("fresh-clone"))
    log = open(state_dir / "serve.log", "w")
    server = subprocess.Popen(
        ["bash", "-euo", "pipefail", "-c", quickstart_commands()[0]],
        cwd=folder,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    wait_for_line(state_dir / "serve.log", "listening", server, "Thrift server")
    yield port, folder, env
    stop_process_group(server)
    log.close()


def _client(folder: Path, env: dict, script: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if check:
        assert result.returncode == 0, (result.stdout + result.stderr)[-5000:]
    return result


@pytest.fixture(scope="module")
def built_over_thrift(thrift_server, tmp_path_factory):
    """A connection to the server once the quickstart's client commands have
    run: the loads, then the build, during which the same build is started
    again (SECOND_RUN: the build's claim, the second run)."""
    port, folder, env = thrift_server
    *loads, build = [line for line in quickstart_commands()[1].splitlines() if line.strip()]
    assert " build " in build, build
    for line in loads:
        _client(folder, env, line)
    logs = tmp_path_factory.mktemp("quickstart-dbt")
    building = _started(folder, env, build, logs / "build.log")
    holder = _wait_for_claim(port, building)
    # one run at a time: the same build started while this one runs stops at its start
    second = f"{build} --target-path {logs}/second/target --log-path {logs}/second/logs"
    SECOND_RUN["build"] = (holder, _client(folder, env, second, check=False))
    assert building.wait() == 0, building.log_text()
    QUICKSTART_BUILD["output"] = (logs / "build.log").read_text()
    from pyhive import hive

    connection = hive.connect(host="127.0.0.1", port=port, username="cdcflow")
    yield connection
    connection.close()


# the build started while the quickstart's build ran: (the build's claim, the second run)
SECOND_RUN: dict[str, tuple] = {}
# what the quickstart's build printed
QUICKSTART_BUILD: dict[str, str] = {}


def _started(folder: Path, env: dict, script: str, log: Path) -> subprocess.Popen:
    """``script`` started in the background, its output in ``log`` (``.log_text()``)."""
    with open(log, "w") as output:
        process = subprocess.Popen(
            ["bash", "-euo", "pipefail", "-c", script],
            cwd=folder,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    process.log_text = lambda: log.read_text()[-5000:]
    return process


def _run_claim(connection) -> tuple | None:
    """(invocation_id, cdc_groups) of the run holding the schema's CDC groups, or None."""
    cursor = connection.cursor()
    try:
        cursor.execute(f"show schemas like '{SCHEMA}'")
        if not cursor.fetchall():
            return None  # the run has not created its schema yet
        cursor.execute(f"show views in {SCHEMA} like 'cdc_states_claim'")
        if not cursor.fetchall():
            return None
        cursor.execute(f"select invocation_id, cdc_groups from {SCHEMA}.cdc_states_claim")
        return cursor.fetchall()[0]
    finally:
        cursor.close()


def _wait_for_claim(port: int, run: subprocess.Popen) -> tuple:
    """The claim of ``run`` once its on-run-start hook has made it."""
    from pyhive import hive

    connection = hive.connect(host="127.0.0.1", port=port, username="cdcflow")
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            claim = _run_claim(connection)
            if claim:
                return claim
            assert run.poll() is None, "the run ended before it claimed anything:\n" + run.log_text()
            time.sleep(0.3)
        raise AssertionError("no claim after 600 s")
    finally:
        connection.close()


def _rows(connection, relation, columns):
    cursor = connection.cursor()
    cursor.execute(f"select {select_list(columns)} from {relation}")
    rows = cursor.fetchall()
    cursor.close()
    return sorted(tuple(_thrift_text(v) for v in row) for row in rows)


def _thrift_text(value):
    # Thrift returns timestamps as text, arrays as JSON text, decimals as Decimal
    if isinstance(value, str) and value.startswith("["):
        return "|".join(part.strip('"') for part in value[1:-1].split(",") if part)
    if isinstance(value, str) and len(value) >= 19 and value[4] == "-" and value[10] == " ":
        from datetime import datetime

        return as_text(datetime.fromisoformat(value))
    return as_text(value)


# the marts the project's samples configure with options (dbt_project.yml: customers
# tracks email, sqlserver_customers flags deletes): expected/samples/, with the
# columns the options add; the integration project's tables have none
SAMPLE_OPTIONS = {
    "customers_history": [],
    "sqlserver_customers_history": [],
    "sqlserver_customers_current": ["is_deleted", "deleted_at"],
}


def _differing_marts(connection, prefix: str, tables: list[str]) -> dict:
    differing = {}
    for table in tables:
        for relation, columns in (
            (f"{table}_history", history_columns(table)),
            (f"{table}_current", current_columns(table)),
        ):
            if relation in SAMPLE_OPTIONS:
                header, expected = read_expected(f"samples/{relation}")
                columns = columns + SAMPLE_OPTIONS[relation]
            else:
                header, expected = read_expected(relation)
            assert header == columns, relation
            actual = _rows(connection, f"{SCHEMA}.{prefix}{relation}", header)
            if actual != expected:
                differing[relation] = {"actual": actual, "expected": expected}
    return differing


def test_marts_over_thrift_equal_expected(built_over_thrift):
    assert _differing_marts(built_over_thrift, "", list(TABLES)) == {}


def test_the_quickstarts_build_prints_no_dbt_warning(built_over_thrift):
    # a configuration path of dbt_project.yml that applies to nothing made dbt warn at
    # every run of a clone (the samples' data tests are on their marts alone)
    assert dbt_warnings(QUICKSTART_BUILD["output"]) == []


def test_quarantines_over_thrift(built_over_thrift):
    differing = {}
    for quarantine in QUARANTINES:
        header, expected = read_expected(quarantine)
        actual = _rows(built_over_thrift, f"{SCHEMA}.{quarantine}", header)
        if actual != expected:
            differing[quarantine] = {"actual": actual, "expected": expected}
    assert differing == {}


def test_the_shared_session_keeps_no_temporary_views_of_a_run(built_over_thrift):
    # dbt-spark's incremental models leave `<model>__dbt_tmp` temporary views in the
    # server's one shared session; every connection close re-analyzed them all
    cursor = built_over_thrift.cursor()

    def temporary_views():
        cursor.execute(f"show views in {SCHEMA}")
        return sorted(row[1] for row in cursor.fetchall() if row[2])  # namespace, viewName, isTemporary

    # the listing shows the session's temporary views (a probe of our own)
    cursor.execute("create or replace temporary view cdcflow_probe__dbt_tmp as select 1 as one")
    assert "cdcflow_probe__dbt_tmp" in temporary_views()
    cursor.execute("drop view cdcflow_probe__dbt_tmp")
    assert [view for view in temporary_views() if view.endswith("__dbt_tmp")] == []
    cursor.close()


def test_the_servers_warm_up_leaves_no_database_of_its_own(built_over_thrift):
    # `cdcflow serve` rehearses the state hooks' statements in a database it drops
    # before it listens (launcher/spark.py, warm_up_catalog)
    from launcher.spark import WARM_UP_DATABASE

    cursor = built_over_thrift.cursor()
    cursor.execute("show databases")
    databases = sorted(row[0] for row in cursor.fetchall())
    cursor.close()
    assert SCHEMA in databases
    assert WARM_UP_DATABASE not in databases


def test_the_marts_are_delta_tables(built_over_thrift):
    # `cdcflow serve` serves the project's table format, Delta Lake by default
    cursor = built_over_thrift.cursor()
    cursor.execute(f"describe table extended {SCHEMA}.customers_current")
    provider = [row[1] for row in cursor.fetchall() if row[0] == "Provider"]
    cursor.close()
    assert provider == ["delta"]


def test_ranges_recorded_over_thrift(built_over_thrift):
    # the on-run-start / on-run-end hooks call the state machine's UDFs on the server
    cursor = built_over_thrift.cursor()
    cursor.execute(f"select name, state_name, state from {SCHEMA}.cdc_states order by name")
    rows = cursor.fetchall()
    cursor.close()
    assert [row[:2] for row in rows] == [(table, "TFEND") for table in sorted(TABLES)]
    assert all(state.startswith("TFEND/CS/0x") for _, _, state in rows)


def _listening_addresses(port: int) -> list[str]:
    """Local addresses of the sockets listening on ``port`` (from /proc/net/tcp*)."""
    addresses = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, _, state = line.split()[1:4]
            address, port_hex = local.split(":")
            if state == "0A" and int(port_hex, 16) == port:  # 0A = LISTEN
                addresses.append(address)
    return addresses


def test_server_listens_on_loopback_only(thrift_server):
    port = thrift_server[0]
    addresses = _listening_addresses(port)
    assert addresses, f"nothing listens on {port}"
    # 127.0.0.1 as /proc writes it (little-endian), alone or IPv4-mapped in IPv6
    assert all(a.endswith("0100007F") for a in addresses), addresses


def test_server_runs_on_the_requested_master(built_over_thrift, spark_master):
    cursor = built_over_thrift.cursor()
    cursor.execute("set spark.master")
    assert cursor.fetchall() == [("spark.master", spark_master)]
    cursor.close()


def test_the_clusters_executors_run_the_python_udfs(built_over_thrift):
    """The mask decoder's UDF over the landed change tables, on the worker's
    executors, gives what its Python function gives."""
    from udfs.change_mask import changed_columns

    columns = ["customer_id", "first_name", "last_name", "email"]
    cursor = built_over_thrift.cursor()
    cursor.execute(
        # the seed holds the masks as hex text (Replicate lands them as varbinary)
        "select header__change_mask, cdcflow_changed_columns(unhex(header__change_mask), array("
        + ", ".join(f"'{c}'" for c in columns)
        # the data columns' bits follow the seven header columns' (reference 001)
        + f"), 7) from {SCHEMA}_raw.customers__ct"  # the seeds' schema
    )
    rows = cursor.fetchall()
    cursor.close()
    assert len(rows) == len(read_seed("customers__ct")) > 0
    assert any(decoded for _, decoded in rows)
    for mask_hex, decoded in rows:
        mask = bytes.fromhex(mask_hex) if mask_hex is not None else None
        assert _thrift_text(decoded) == as_text(changed_columns(mask, columns, 7)), mask_hex


def _one_line(text: str) -> str:
    return " ".join(text.split())


def test_a_second_run_stops_at_its_start_while_one_runs(built_over_thrift):
    """Two `dbt build`s against one server: the second, started while the first
    held the CDC groups, stopped in its on-run-start hook, saying which run holds
    them, and recorded nothing; the first ended normally (the marts tests) and
    released its claim."""
    (holder, groups), second = SECOND_RUN["build"]
    assert groups == ", ".join(sorted(TABLES))
    assert second.returncode == 2  # dbt: an error outside any node
    message = _one_line(second.stdout)
    assert (
        f"cdcflow: another run holds the CDC groups of {SCHEMA}: "
        f"dbt invocation {holder} (`dbt build`, started " in message
    ), message[-3000:]
    assert f'dbt run-operation cdcflow.release_cdc_run_claim --args "{{invocation_id: {holder}}}"' in message
    # every state and run summary recorded is the first build's
    cursor = built_over_thrift.cursor()
    for table in ("cdc_states_log", "cdc_states_runs"):
        cursor.execute(f"select distinct invocation_id from {SCHEMA}.{table}")
        assert cursor.fetchall() == [(holder,)], table
    cursor.close()
    assert _run_claim(built_over_thrift) is None


def test_a_killed_runs_claim_holds_until_cleared_as_the_message_says(
    built_over_thrift, thrift_server, tmp_path
):
    """A dbt run killed once it claimed the groups leaves its claim: the next run
    stops at its start naming it, the run-operation its message gives clears it,
    and the run after that takes the range again and ends TFEND, the marts as
    before."""
    port, folder, env = thrift_server

    def command(name: str, arguments: str) -> str:
        # the folder's own target/ (the quickstart's build parsed the project there:
        # these runs parse only what changed); a log folder each
        return f".venv/bin/dbt {arguments} --target thrift --log-path {tmp_path}/{name}/logs"

    run = "run --selector customers"
    killed = _started(folder, env, command("killed", run), tmp_path / "killed.log")
    holder, groups = _wait_for_claim(port, killed)
    os.killpg(killed.pid, signal.SIGKILL)
    killed.wait()
    assert groups == "customers"

    refused = _client(folder, env, command("refused", run), check=False)
    assert refused.returncode == 2
    release = re.search(
        r'(dbt run-operation cdcflow.release_cdc_run_claim --args "\{invocation_id: ([0-9a-f-]+)\}")',
        _one_line(refused.stdout),
    )
    assert release and release.group(2) == holder, _one_line(refused.stdout)[-3000:]
    cleared = _client(folder, env, command("release", release.group(1).removeprefix("dbt ")))
    assert f"cdcflow: cleared the claim of dbt invocation {holder} (groups customers)" in _one_line(
        cleared.stdout
    )
    _client(folder, env, command("again", run))

    cursor = built_over_thrift.cursor()
    cursor.execute(f"select state_name from {SCHEMA}.cdc_states where name = 'customers'")
    assert cursor.fetchall() == [("TFEND",)]
    cursor.close()
    assert _run_claim(built_over_thrift) is None
    assert _differing_marts(built_over_thrift, "", ["customers"]) == {}
