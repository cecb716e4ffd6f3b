"""Fixtures shared by the end-to-end tests: one embedded SparkSession per run
(the Derby metastore allows one JVM), with the project's UDFs registered."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest

# Every Spark the tests start (the sessions here, the fault workers', `cdcflow serve`
# and the benchmark's processes, the standalone cluster's executors) reads
# tests/spark-conf/spark-defaults.conf: settings for small data that cost less CPU
# (its comments say which and why). Given as spark-submit's properties file, not as
# SPARK_CONF_DIR: Spark puts that folder on the class path, where it rules out the
# class-data archive `make setup` makes (launcher/class_archive.py); each JVM
# started with the archive built its session in 2.9-3.0 s instead of 5.7-5.8 s.
# Spark settings of one's own (SPARK_CONF_DIR or PYSPARK_SUBMIT_ARGS) are kept.
if "SPARK_CONF_DIR" not in os.environ and "PYSPARK_SUBMIT_ARGS" not in os.environ:
    TEST_SPARK_DEFAULTS = Path(__file__).resolve().parent / "spark-conf" / "spark-defaults.conf"
    _SUBMIT_ARGS = f"--properties-file {shlex.quote(str(TEST_SPARK_DEFAULTS))} pyspark-shell"
    os.environ["PYSPARK_SUBMIT_ARGS"] = _SUBMIT_ARGS

# The test files that take longest, longest first (CI durations). `make test` runs
# them on two workers (pytest-xdist --dist loadfile, --no-loadscope-reorder), a
# file at a time (its module fixtures made once): a worker takes the next file
# when it has finished one, so a long file collected last ran alone at the end
# while the other worker idled (the benchmark's smoke run, 725 s, one test:
# xdist's own reordering puts the files with fewest tests last).
SLOWEST_FIRST = [
    "tests/e2e/test_incremental.py",
    "tests/e2e/test_fault_injection.py",
    "tests/e2e/test_equivalence_on_iceberg.py",
    "tests/e2e/test_thrift.py",
    "tests/e2e/test_integration_project.py",
    "tests/e2e/test_equivalence_on_delta.py",
    "tests/e2e/test_installed_package.py",
    "tests/e2e/test_dirxml_walkthrough.py",
    "tests/e2e/test_late_deliveries.py",
    "tests/e2e/test_change_table_layout.py",
    "tests/e2e/test_schema_changes.py",
    "tests/e2e/test_equivalence_on_parquet.py",
]


# files whose tests share session fixtures: each set is one unit of work, run by
# one worker (pytest_xdist_make_scheduler), its files one after the other (the
# runs of workload_runs, tests/e2e/conftest.py: the formats workload's on Delta Lake,
# which the equivalence and the census read; the qlik_ct workload's on Delta Lake,
# which CI's kill point and Iceberg's comparison read, and with the flags the
# workloads' runs on parquet)
SHARING_FILES = {
    "tests/e2e/test_equivalence_on_delta.py": "workload_runs formats delta",
    "tests/e2e/test_bad_input_census.py": "workload_runs formats delta",
    "tests/e2e/test_fault_injection.py": "workload_runs qlik_ct",
    "tests/e2e/test_equivalence_on_iceberg.py": "workload_runs qlik_ct",
    "tests/e2e/test_equivalence_on_parquet.py": "workload_runs qlik_ct",
}


def pytest_collection_modifyitems(items):
    """The slowest files first, the others after them as collected (a file's tests
    keep their order)."""
    rank = {path: place for place, path in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


def pytest_xdist_make_scheduler(config, log):
    """--dist loadfile with the files of SHARING_FILES as one unit. (xdist's
    loadgroup, the same by marks, does not group under pytest 9: it renames
    `item._nodeid`, which pytest 9 no longer reads.)"""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedFixturesScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = super()._split_scope(nodeid)
            return SHARING_FILES.get(path, path)

    return SharedFixturesScheduling(config, log)


def pytest_terminal_summary(terminalreporter):
    """Seconds per test file (setup, call and teardown of its tests, summed; on two
    workers, the file's share of a worker): where CI's time goes, file by file."""
    seconds: dict[str, float] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) and getattr(report, "nodeid", ""):
                path = report.nodeid.split("::", 1)[0]
                seconds[path] = seconds.get(path, 0.0) + report.duration
    if not seconds:
        return
    terminalreporter.write_sep("=", "seconds per test file")
    for path, total in sorted(seconds.items(), key=lambda item: -item[1]):
        if total >= 1:
            terminalreporter.write_line(f"{total:8.1f}s {path}")


@pytest.fixture(scope="session")
def state_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("cdcflow-state")


@pytest.fixture(scope="session")
def integration_project():
    """integration_tests/ with cdcflow installed (dbt deps: a link to the repository)."""
    import fcntl

    from testkit.project import install_packages
    from tests.e2e.helpers import INTEGRATION_DIR

    # one `dbt deps` at a time (test files run side by side under `make test`)
    with open(INTEGRATION_DIR / ".dbt-deps.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        install_packages(INTEGRATION_DIR)
    return INTEGRATION_DIR


# The session a worker keeps for all its test files (25 minutes or so) runs the JIT's
# C2 compiler too, unlike the short-lived JVMs of tests/spark-conf (a run in a
# subprocess, a Thrift server): measured on three files in one session (the
# DirXML walk-through and split statements, the table options; the machine alone),
# 414 -> 342 s for the same 558/560 busy CPU-s, and it keeps paying after that.
# The whole suite on two workers with the C1 compiler only in these sessions too
# (the machine alone): 1,570 s and 3,064 busy CPU-s, against 1,140 s and 2,223 with
# C2 (a short run of four files said the opposite: C2's compiles cost the most early).
# The serial collector, as in tests/spark-conf (its comments give the figures), with a
# heap of 1 GB from the start and a young generation of 512 MB: the session allocates
# fast (plans, Delta snapshots) and keeps about 300 MB (tests/spark-conf's page size);
# grown from Java's defaults (384 MB) it collected 433 times in test_late_deliveries.py
# alone, 9 of them full (11.8 s of pauses), with these 187 and 5 (7.9 s).
LONG_LIVED_JVM_OPTIONS = (
    "-XX:-UseCodeCacheFlushing -XX:ReservedCodeCacheSize=512m -XX:+UseSerialGC -Xms1g -Xmn512m"
)


@pytest.fixture(scope="session")
def spark(state_dir):
    from launcher.spark import build_session

    session = build_session(
        state_dir=state_dir,
        master="local[2]",
        extra_conf={"spark.driver.defaultJavaOptions": LONG_LIVED_JVM_OPTIONS},
    )
    yield session
    _write_rule_times(session)
    session.stop()


def _write_rule_times(session) -> None:
    """With CDCFLOW_RULE_TIMES=<file>: the time the session's analyzer and optimizer
    spent in each rule (Spark's RuleExecutor.dumpTimeSpent), written to <file>, one
    file per pytest worker (<file>.gw0, ...): where a test session's planning goes,
    without a profiler (docs/contributing.md)."""
    path = os.environ.get("CDCFLOW_RULE_TIMES")
    if not path:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    rules = session._jvm.org.apache.spark.sql.catalyst.rules.RuleExecutor
    Path(f"{path}.{worker}" if worker else path).write_text(rules.dumpTimeSpent(), encoding="utf-8")
