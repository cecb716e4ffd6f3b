"""The cross-format equivalence (tests/e2e/equivalence.py) on Delta Lake, the
default table format, and CI's kill of a run inside a chain's MERGE."""

import pytest

from tests.e2e.equivalence import AtomicCommitChecks
from tests.e2e.fault_workloads import WORKLOADS
from tests.e2e.kill_points import assert_redone_losing_nothing

pytestmark = pytest.mark.spark


class TestOnDelta(AtomicCommitChecks):
    table_format = "delta"

    def test_a_run_killed_inside_a_chains_merge_is_redone_and_loses_nothing(self, format_runs):
        """The kill sweep's point CI runs on Delta Lake (tests/e2e/test_fault_injection.py
        has the others, CDCFLOW_FAULT_SWEEP=1): batch 2's run killed inside the last
        chain's MERGE, its data files written and its commit not; the next run redoes
        the range and its tables equal those of the run never killed. Here, to share
        this workload's runs on Delta."""
        workload = WORKLOADS["formats"]
        assert_redone_losing_nothing(format_runs, workload, "delta", workload.fast_merge_points[0])
