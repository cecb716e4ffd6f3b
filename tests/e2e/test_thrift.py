"""(c) The same pipeline over a real Spark Thrift server, started with the
project's launcher (`cdcflow serve`) in its own process and stopped afterwards:
`dbt seed` + `dbt build --target thrift` from a separate dbt process, with the
Python-UDF mask decoder (so the UDFs must be registered on the server), then the
marts read back over Thrift equal the expected tables."""

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

pytestmark = pytest.mark.spark

SCHEMA = "e2e_thrift"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def thrift_server(tmp_path_factory):
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
            "local[2]",
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
    yield port, state_dir
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
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
    port, state_dir = thrift_server
    _dbt(port, state_dir, "seed")
    _dbt(
        port,
        state_dir,
        "build",
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


@pytest.mark.parametrize("table", list(TABLES))
def test_history_over_thrift_equals_expected(built_over_thrift, table):
    header, expected = read_expected(f"{table}_history")
    assert header == history_columns(table)
    assert _rows(built_over_thrift, f"{SCHEMA}.{table}_history", header) == expected


@pytest.mark.parametrize("table", list(TABLES))
def test_current_over_thrift_equals_expected(built_over_thrift, table):
    header, expected = read_expected(f"{table}_current")
    assert header == current_columns(table)
    assert _rows(built_over_thrift, f"{SCHEMA}.{table}_current", header) == expected


@pytest.mark.parametrize(
    "quarantine",
    [
        "qlik_ct_quarantine",
        "qlik_kafka_quarantine",
        "debezium_quarantine",
        "dirxml_quarantine",
        "dirxml_event_outcomes",
    ],
)
def test_quarantine_over_thrift(built_over_thrift, quarantine):
    header, expected = read_expected(quarantine)
    assert _rows(built_over_thrift, f"{SCHEMA}.{quarantine}", header) == expected


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
    port, _ = thrift_server
    addresses = _listening_addresses(port)
    assert addresses, f"nothing listens on {port}"
    # 127.0.0.1 as /proc writes it (little-endian), alone or IPv4-mapped in IPv6
    assert all(a.endswith("0100007F") for a in addresses), addresses
