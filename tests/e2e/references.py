"""The full refreshes incremental runs are compared with, recorded.

A test that checks "these incremental runs give what a full refresh over the same
landings gives" reads the full refresh's tables from ``tests/e2e/expected/references/``
(one JSON file per point of comparison: table -> sorted rows, as ``spark_rows``
gives them) instead of building it again in every CI run: a full refresh of a
test project cost a dbt run of 20-40 s of a CI worker, and test_late_deliveries.py
made three, test_incremental.py one.

With ``CDCFLOW_FULL_SUITE=1`` the full refreshes are built again and must equal
their recordings (a change of what a full refresh gives fails there, naming the
file); ``CDCFLOW_RECORD_REFERENCES=1`` builds them and writes the recordings anew
(review the diff: it is the change of the product's output).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable

from tests.e2e.helpers import EXPECTED_DIR
from tests.e2e.suite import FULL_SUITE

REFERENCES_DIR = EXPECTED_DIR / "references"
RECORD = os.environ.get("CDCFLOW_RECORD_REFERENCES") == "1"
# the full refreshes are built (and checked against, or written as, their recordings)
BUILT = RECORD or FULL_SUITE

Tables = dict[str, list[tuple[str, ...]]]


def _read(name: str) -> Tables:
    path = REFERENCES_DIR / f"{name}.json"
    if not path.is_file():
        raise AssertionError(f"{path} is missing: CDCFLOW_RECORD_REFERENCES=1 records it")
    return {table: [tuple(row) for row in rows] for table, rows in json.loads(path.read_text()).items()}


def _as_json(tables: Tables) -> str:
    """One row a line (a change of the product's output is a readable diff)."""
    blocks = [
        json.dumps(table)
        + ": [\n"
        + ",\n".join("  " + json.dumps(list(row), ensure_ascii=False) for row in rows)
        + "\n]"
        for table, rows in sorted(tables.items())
    ]
    return "{\n" + ",\n".join(blocks) + "\n}\n"


def full_refresh(name: str, build: Callable[[], Tables]) -> Tables:
    """The tables of the full refresh recorded as ``name``; with CDCFLOW_FULL_SUITE=1,
    ``build()`` (a full refresh, its tables read) checked against the recording; with
    CDCFLOW_RECORD_REFERENCES=1, ``build()`` recorded."""
    if not BUILT:
        return _read(name)
    tables = {table: sorted(tuple(row) for row in rows) for table, rows in build().items()}
    if RECORD:
        REFERENCES_DIR.mkdir(parents=True, exist_ok=True)
        (REFERENCES_DIR / f"{name}.json").write_text(_as_json(tables), encoding="utf-8")
    else:
        assert tables == _read(name), (
            f"a full refresh no longer gives {REFERENCES_DIR / name}.json: if the change is meant,"
            " CDCFLOW_RECORD_REFERENCES=1 records it again"
        )
    return tables
