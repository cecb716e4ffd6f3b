"""The cross-format equivalence (tests/e2e/equivalence.py) on Apache Iceberg, with
CDCFLOW_EVERY_TABLE_FORMAT=1; in CI, a faster subset: the kill sweep's qlik_ct
workload (two Qlik `__ct` tables of integration_tests/, a first build and an
incremental run with late, replayed and cut deliveries) gives on Iceberg the tables
it gives on Delta Lake, whose runs CI makes for its Delta kill point
(tests/e2e/test_fault_injection.py; both files run on one worker: tests/conftest.py)."""

import pytest

from tests.e2e.equivalence import ON_EVERY_TABLE_FORMAT_ONLY, AtomicCommitChecks

pytestmark = pytest.mark.spark


@ON_EVERY_TABLE_FORMAT_ONLY
class TestOnIceberg(AtomicCommitChecks):
    table_format = "iceberg"


def test_the_qlik_ct_workloads_runs_give_on_iceberg_the_tables_they_give_on_delta(workload_runs):
    *_, delta_1, delta_2 = workload_runs("qlik_ct", "delta")
    *_, iceberg_1, iceberg_2 = workload_runs("qlik_ct", "iceberg")
    for delta, iceberg in ((delta_1, iceberg_1), (delta_2, iceberg_2)):
        # the recorded states carry each run's landing positions (its files' times)
        assert [row[:2] for row in iceberg["states"]] == [row[:2] for row in delta["states"]]
        assert {name: rows for name, rows in iceberg.items() if name != "states"} == {
            name: rows for name, rows in delta.items() if name != "states"
        }
    # the second run (late, replayed and cut deliveries) added versions to the first's
    assert len(delta_2["it_customers_history"]) > len(delta_1["it_customers_history"]) > 0
