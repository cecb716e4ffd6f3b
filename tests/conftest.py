"""Fixtures shared by the end-to-end tests: one embedded SparkSession per run
(the Derby metastore allows one JVM), with the project's UDFs registered."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def state_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("cdcflow-state")


@pytest.fixture(scope="session")
def integration_project():
    """integration_tests/ with cdcflow installed (dbt deps: a link to the repository)."""
    import fcntl

    from bench.project import install_packages
    from tests.e2e.helpers import INTEGRATION_DIR

    # one `dbt deps` at a time (test files run side by side under `make test`)
    with open(INTEGRATION_DIR / ".dbt-deps.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        install_packages(INTEGRATION_DIR)
    return INTEGRATION_DIR


@pytest.fixture(scope="session")
def spark(state_dir):
    from launcher.spark import build_session

    session = build_session(state_dir=state_dir, master="local[2]")
    yield session
    session.stop()
