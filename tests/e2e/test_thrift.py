"""(c) The same pipeline over a real Spark Thrift server, started with the
project's launcher (`cdcflow serve`) in its own process and stopped afterwards:
`dbt seed` + `dbt build --target thrift` from a separate dbt process, with the
Python-UDF mask decoder (so the UDFs must be registered on the server), then the
marts read back over Thrift equal the expected tables (those of the embedded
run). Twice: the server on a local master, building every table, and on a Spark
standalone cluster (master + one worker started with `spark-class` from the
PySpark distribution, on loopback), building the Qlik `__ct` tables, whose
executors run the Python UDFs (the mask decoder; the state hooks')."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.helpers import (
    PROJECT_DIR,
    TABLES,
    as_text,
    current_columns,
    history_columns,
    read_expected,
    select_list,
)

pytestmark = [
    pytest.mark.spark,
    # every test of the module runs against both; module-scoped fixtures start each once
    pytest.mark.parametrize("spark_master", ["local", "standalone"], indirect=True, scope="module"),
]

SCHEMA = "e2e_thrift"

# what the server builds on each master: every table on the local one; on the
# cluster the Qlik __ct tables, which call every Python UDF but DirXML's
# malformed-key parser on its executors (the other formats' SQL is the same on
# both masters, and each Thrift build costs minutes)
BUILT = {
    "local": {
        "tables": list(TABLES),
        "quarantines": [
            "qlik_ct_quarantine",
            "qlik_kafka_quarantine",
            "debezium_quarantine",
            "dirxml_quarantine",
            "dirxml_event_outcomes",
        ],
    },
    "standalone": {"tables": ["customers", "order_lines"], "quarantines": ["qlik_ct_quarantine"]},
}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _spark_class(state_dir: Path, name: str, *args: str) -> subprocess.Popen:
    """A Spark standalone daemon (Master / Worker) in the foreground, in its own
    process group, on loopback, with its log in ``state_dir``."""
    import pyspark

    spark_home = Path(pyspark.__file__).parent
    env = {
        **os.environ,
        "SPARK_HOME": str(spark_home),
        "SPARK_LOCAL_IP": "127.0.0.1",
        "SPARK_NO_DAEMONIZE": "1",
        # no REST submission server (a fixed port, and not needed)
        "SPARK_MASTER_OPTS": "-Dspark.master.rest.enabled=false",
        "SPARK_WORKER_DIR": str(state_dir / "work"),
    }
    return subprocess.Popen(
        [str(spark_home / "bin" / "spark-class"), f"org.apache.spark.deploy.{name}", *args],
        env=env,
        stdout=open(state_dir / f"{name.rsplit('.', 1)[-1].lower()}.log", "w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _wait_for(path: Path, text: str, process: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + 180
    while text not in (path.read_text() if path.exists() else ""):
        assert process.poll() is None, f"{what} exited: {path.read_text()[-3000:]}"
        assert time.monotonic() < deadline, f"{what} did not start in 180 s"
        time.sleep(1)


def _stop(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@pytest.fixture(scope="module")
def spark_master(request, tmp_path_factory):
    """(mode, master URL): local[2], or the URL of a standalone cluster (master +
    one worker) started for the module and stopped after it."""
    if request.param == "local":
        yield "local", "local[2]"
        return
    state_dir = tmp_path_factory.mktemp("standalone")
    master_port = _free_port()
    master = _spark_class(
        state_dir,
        "master.Master",
        "--host",
        "127.0.0.1",
        "--port",
        str(master_port),
        "--webui-port",
        str(_free_port()),
    )
    _wait_for(state_dir / "master.log", "I have been elected leader", master, "Spark master")
    url = f"spark://127.0.0.1:{master_port}"
    worker = _spark_class(
        state_dir,
        "worker.Worker",
        url,
        "--host",
        "127.0.0.1",
        "--webui-port",
        str(_free_port()),
        "--cores",
        "2",
        "--memory",
        "3g",
    )
    _wait_for(state_dir / "worker.log", "Successfully registered with master", worker, "Spark worker")
    yield "standalone", url
    for process in (worker, master):
        _stop(process)
    assert worker.poll() is not None and master.poll() is not None
    assert not _listening_addresses(master_port), "the Spark master still listens"


@pytest.fixture(scope="module")
def thrift_server(tmp_path_factory, spark_master):
    state_dir = tmp_path_factory.mktemp("thrift-state")
    port = _free_port()
    log = open(state_dir / "serve.log", "w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "launcher.cli",
            "serve",
            "--port",
            str(port),
            "--state-dir",
            str(state_dir),
            "--master",
            spark_master[1],
        ],
        cwd=PROJECT_DIR,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 180
    while "listening" not in (state_dir / "serve.log").read_text():
        assert server.poll() is None, (state_dir / "serve.log").read_text()[-3000:]
        assert time.monotonic() < deadline, "Thrift server did not start in 180 s"
        time.sleep(1)
    yield port, state_dir, spark_master[0]
    _stop(server)
    log.close()


def _dbt(port: int, state_dir: Path, *args: str) -> None:
    profiles = state_dir / "profiles"
    profiles.mkdir(exist_ok=True)
    (profiles / "profiles.yml").write_text((PROJECT_DIR / "profiles.example.yml").read_text())
    env = {
        **os.environ,
        "CDCFLOW_THRIFT_PORT": str(port),
        "CDCFLOW_SCHEMA": SCHEMA,
        "DBT_PROFILES_DIR": str(profiles),
    }
    dbt = Path(sys.executable).with_name("dbt")
    result = subprocess.run(
        [
            str(dbt),
            *args,
            "--target",
            "thrift",
            "--project-dir",
            str(PROJECT_DIR),
            "--target-path",
            str(state_dir / "target"),
            "--log-path",
            str(state_dir / "logs"),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-5000:]


@pytest.fixture(scope="module")
def built_over_thrift(thrift_server):
    port, state_dir, mode = thrift_server
    _dbt(port, state_dir, "seed")
    selection = [] if mode == "local" else ["--select", "source:qlik_ct+"]
    _dbt(
        port,
        state_dir,
        "build",
        *selection,
        "--exclude",
        "resource_type:seed",
        "tag:exhaustive",
        "--vars",
        "{cdcflow_mask_decoder: udf}",
    )
    from pyhive import hive

    connection = hive.connect(host="127.0.0.1", port=port, username="cdcflow")
    yield connection
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


def test_marts_over_thrift_equal_expected(built_over_thrift, spark_master):
    differing = {}
    for table in BUILT[spark_master[0]]["tables"]:
        for relation, columns in (
            (f"{table}_history", history_columns(table)),
            (f"{table}_current", current_columns(table)),
        ):
            header, expected = read_expected(relation)
            assert header == columns, relation
            actual = _rows(built_over_thrift, f"{SCHEMA}.{relation}", header)
            if actual != expected:
                differing[relation] = {"actual": actual, "expected": expected}
    assert differing == {}


def test_quarantines_over_thrift(built_over_thrift, spark_master):
    differing = {}
    for quarantine in BUILT[spark_master[0]]["quarantines"]:
        header, expected = read_expected(quarantine)
        actual = _rows(built_over_thrift, f"{SCHEMA}.{quarantine}", header)
        if actual != expected:
            differing[quarantine] = {"actual": actual, "expected": expected}
    assert differing == {}


def test_ranges_recorded_over_thrift(built_over_thrift, spark_master):
    # the on-run-start / on-run-end hooks call the state machine's UDFs on the server
    cursor = built_over_thrift.cursor()
    cursor.execute(f"select name, state_name, state from {SCHEMA}.cdc_states order by name")
    rows = cursor.fetchall()
    cursor.close()
    built = BUILT[spark_master[0]]["tables"]
    assert [row[:2] for row in rows] == [(table, "TFEND") for table in sorted(built)]
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
    port, _, _ = thrift_server
    addresses = _listening_addresses(port)
    assert addresses, f"nothing listens on {port}"
    # 127.0.0.1 as /proc writes it (little-endian), alone or IPv4-mapped in IPv6
    assert all(a.endswith("0100007F") for a in addresses), addresses


def test_server_runs_on_the_requested_master(built_over_thrift, spark_master):
    # on the standalone cluster every task (the Python UDFs included) ran on its worker's executor
    cursor = built_over_thrift.cursor()
    cursor.execute("set spark.master")
    assert cursor.fetchall() == [("spark.master", spark_master[1])]
    cursor.close()
