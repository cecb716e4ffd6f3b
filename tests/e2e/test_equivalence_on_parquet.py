"""The cross-format equivalence (tests/e2e/equivalence.py) on parquet (plain Hive
tables), with CDCFLOW_EVERY_TABLE_FORMAT=1 (the kill sweep's parquet points of the
formats workload share its runs); and the checks of the source history the
equivalence lands. CI's parquet subset: the incremental runs of
tests/e2e/test_incremental.py (its compaction and the qlik_ct workload's parquet kill
point, tests/e2e/test_fault_injection.py, run with the flags)."""

import pytest

from testkit import change_history as ch
from tests.e2e.equivalence import (
    DIRXML_EVENTS,
    HISTORY_OF_SOURCE,
    ON_EVERY_TABLE_FORMAT_ONLY,
    EquivalenceChecks,
)

pytestmark = pytest.mark.spark


@ON_EVERY_TABLE_FORMAT_ONLY
class TestOnParquet(EquivalenceChecks):
    table_format = "parquet"


def test_dirxml_log_separates_every_change():
    # the event log has no change boundaries: consecutive field events of one key,
    # kind and event_time are one change. None of this history's changes merge, so
    # the DirXML history must equal the others (query-back is used only for the
    # last change of a key, whose values are the source table's current ones).
    events = [e for logged in DIRXML_EVENTS.values() for e in logged]
    assert ch.dirxml_merged_changes(events) == []
    assert {e["event_type"] for e in events} == {1, 2, 3, 4, 5, 7, 8}


def test_history_covers_every_kind_of_change():
    changes = [c for t in HISTORY_OF_SOURCE.transactions for c in t]
    assert {c.op for c in changes} == {"I", "U", "D"}
    assert any(c.is_key_change for c in changes)
    assert any(c.op == "U" and None in (c.after["note"], c.before["note"]) for c in changes)
    assert any(len(t) > 1 for t in HISTORY_OF_SOURCE.transactions)
    keys = [c.after["id"] if c.after else c.before["id"] for c in changes]
    assert len(keys) > len(set(keys))
    times = [t[0].committed_at for t in HISTORY_OF_SOURCE.transactions]
    assert len(times) > len(set(times))
