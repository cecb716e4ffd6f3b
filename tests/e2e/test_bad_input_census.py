"""The census of bad inputs (tests/e2e/bad_inputs.py): every kind of bad row the
project knows, per format, landed next to the valid rows of the cross-format
equivalence's history (batch 2 of the kill sweep's ``formats`` workload, whose
never-killed runs on Delta Lake, the default table format, these tests read):
each is quarantined with its exact reason, none is applied, and every valid row
still reaches the marts. With them land
the seeded fuzz's corrupted copies of valid rows (tests/e2e/fuzz_inputs.py):
each is quarantined once with the reason of its corruption, and none changes
the marts either."""

import re
from collections import Counter

import pytest

from tests.e2e import equivalence
from tests.e2e.bad_inputs import BAD_KEY, CENSUS, LANDED_ANY
from tests.e2e.fuzz_inputs import CORRUPTED

pytestmark = pytest.mark.spark

QUARANTINES = ["qlik_ct_quarantine", "qlik_kafka_quarantine", "debezium_quarantine", "dirxml_quarantine"]


def test_the_census_covers_every_format_with_at_least_25_kinds():
    assert len({(bad.quarantine, bad.kind) for bad in CENSUS}) == len(CENSUS) >= 25
    assert sorted({bad.quarantine for bad in CENSUS}) == sorted(QUARANTINES)


def _reasons(tables: dict[str, list]) -> Counter:
    """(quarantine, reason) of every quarantined row (columns: source_table,
    raw_table, reason, raw_row); a conflict's reason says when the change it
    conflicts with landed, a time of the test run (LANDED_ANY stands for it)."""
    return Counter(
        (quarantine, re.sub(r"\(landed \d{4}-[^)]*\)", LANDED_ANY, row[2]))
        for quarantine in QUARANTINES
        for row in tables[quarantine]
    )


def _quarantined_in_batch_2(workload_runs) -> Counter:
    *_, after_batch_1, after_batch_2 = workload_runs("formats", "delta")
    return _reasons(after_batch_2) - _reasons(after_batch_1)


def test_each_bad_input_is_quarantined_with_its_exact_reason(workload_runs):
    new = _quarantined_in_batch_2(workload_runs)
    expected = Counter((bad.quarantine, bad.reason) for bad in CENSUS)
    assert expected - new == Counter()


def test_each_corrupted_copy_is_quarantined_once_with_the_reason_of_its_corruption(workload_runs):
    # what batch 2 quarantined besides the census: the corrupted copies, nothing else
    # (an identical second delivery, batch 2's replays, is not quarantined)
    fuzzed = _quarantined_in_batch_2(workload_runs) - Counter((bad.quarantine, bad.reason) for bad in CENSUS)
    prefixes = {bad.reason for bad in CORRUPTED}
    found = Counter(
        (quarantine, next((p for p in prefixes if reason.startswith(p)), reason))
        for quarantine, reason in fuzzed.elements()
    )
    assert found == Counter((bad.quarantine, bad.reason) for bad in CORRUPTED)
    assert len(CORRUPTED) == 32 and len({(bad.quarantine, bad.corruption) for bad in CORRUPTED}) == 15


def test_no_bad_input_or_corrupted_copy_is_applied_and_every_valid_row_reaches_the_marts(workload_runs):
    *_, after_batch_2 = workload_runs("formats", "delta")
    for table in equivalence.FORMATS:
        for mart in ("current", "history", "log"):
            ids = {row[0] for row in after_batch_2[f"{table}_{mart}"]}
            assert str(BAD_KEY) not in ids and BAD_KEY not in ids, f"{table}_{mart}"
    equivalence._assert_equivalent(after_batch_2, equivalence.ALL)
