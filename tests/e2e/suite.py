"""What `make test` (CI) leaves out, and the flags that put it back.

CI runs every capability once, on Delta Lake (the default table format) in full
and on Iceberg and parquet in a subset (docs/contributing.md, "Tests"). The
long sweeps and the repeats run with a flag:

* ``CDCFLOW_FAULT_SWEEP=1``: every kill point (tests/e2e/test_fault_injection.py);
  ``CDCFLOW_FAULT_POINTS=fast``: the workloads' fast points alone (on parquet, lost
  open partitions inside the qlik_ct workload's last chain; CI runs Delta Lake's);
* ``CDCFLOW_EVERY_TABLE_FORMAT=1``: the cross-format equivalence on Iceberg and
  parquet too (tests/e2e/equivalence.py);
* ``CDCFLOW_FULL_SUITE=1``: both, and the tests marked ``full_suite_only``: the
  benchmark's smoke run, every format built from the benchmark's stream, a
  compacting run on parquet; the full refreshes incremental runs are compared
  with, built again and checked against their recordings (tests/e2e/references.py,
  where ``CDCFLOW_RECORD_REFERENCES=1`` records them anew); the change-mask
  decoders compared on masks of every length and bit (integration_tests/tests/
  assert_mask_decoders_agree_on_generated_masks.sql, which reads the flag; CI: the
  bytes in and around the decoding windows); the late deliveries' runs after their
  first two (tests/e2e/test_late_deliveries.py); the samples built again with the
  UDF mask decoder; `cdcflow serve` of a Delta project of its own; the class-data
  archive made by a JVM and mapped by the next.
"""

from __future__ import annotations

import os

import pytest

FULL_SUITE = os.environ.get("CDCFLOW_FULL_SUITE") == "1"
FAULT_SWEEP = FULL_SUITE or os.environ.get("CDCFLOW_FAULT_SWEEP") == "1"
FAST_FAULT_POINTS = os.environ.get("CDCFLOW_FAULT_POINTS") == "fast"
EVERY_TABLE_FORMAT = FULL_SUITE or os.environ.get("CDCFLOW_EVERY_TABLE_FORMAT") == "1"


def full_suite_only(what_ci_runs_instead: str):
    """Skips a test outside CDCFLOW_FULL_SUITE=1; the reason says what covers it in CI."""
    return pytest.mark.skipif(
        not FULL_SUITE, reason=f"runs with CDCFLOW_FULL_SUITE=1 (CI: {what_ci_runs_instead})"
    )
