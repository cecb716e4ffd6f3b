"""The cross-format equivalence (tests/e2e/equivalence.py) on Apache Iceberg."""

import pytest

from tests.e2e.equivalence import AtomicCommitChecks

pytestmark = pytest.mark.spark


class TestOnIceberg(AtomicCommitChecks):
    table_format = "iceberg"
