"""The cross-format equivalence (tests/e2e/equivalence.py) on Delta Lake, the
default table format. (CI's kill of a run inside a chain's MERGE on Delta Lake is
the qlik_ct workload's: tests/e2e/test_fault_injection.py.)"""

import pytest

from tests.e2e.equivalence import AtomicCommitChecks

pytestmark = pytest.mark.spark


class TestOnDelta(AtomicCommitChecks):
    table_format = "delta"
