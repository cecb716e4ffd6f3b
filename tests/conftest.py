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
    from bench.project import install_packages
    from tests.e2e.helpers import INTEGRATION_DIR

    install_packages(INTEGRATION_DIR)
    return INTEGRATION_DIR


@pytest.fixture(scope="session")
def spark(state_dir):
    from launcher.spark import build_session

    session = build_session(state_dir=state_dir, master="local[2]")
    yield session
    session.stop()
