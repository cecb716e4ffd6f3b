"""The census of bad inputs (tests/e2e/bad_inputs.py): every kind of bad row the
project knows, per format, landed next to the valid rows of the cross-format
equivalence's history (batch 2 of the kill sweep's ``formats`` workload, whose
never-killed runs these tests read): each is quarantined with its exact reason,
none is applied, and every valid row still reaches the marts."""

import re
from collections import Counter

import pytest

from tests.e2e import test_cross_format_equivalence as equivalence
from tests.e2e.bad_inputs import BAD_KEY, CENSUS, LANDED_ANY

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


def test_each_bad_input_is_quarantined_with_its_exact_reason(workload_runs):
    *_, after_batch_1, after_batch_2 = workload_runs("formats")
    new = _reasons(after_batch_2) - _reasons(after_batch_1)
    expected = Counter((bad.quarantine, bad.reason) for bad in CENSUS)
    assert sorted(new.elements()) == sorted(expected.elements())


def test_no_bad_input_is_applied_and_every_valid_row_reaches_the_marts(workload_runs):
    *_, after_batch_2 = workload_runs("formats")
    for table in equivalence.FORMATS:
        for mart in ("current", "history", "log"):
            ids = {row[0] for row in after_batch_2[f"{table}_{mart}"]}
            assert str(BAD_KEY) not in ids and BAD_KEY not in ids, f"{table}_{mart}"
    equivalence._assert_equivalent(after_batch_2, equivalence.ALL)
