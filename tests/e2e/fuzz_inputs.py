"""The seeded fuzz of bad inputs (issue "Nothing lost", item 5): random
corruptions of copies of valid rows that batch 1 of the cross-format
equivalence's history landed, in every format, landed again with batch 2 beside
the census (bad_inputs.py) by the kill sweep's ``formats`` workload.

Each corruption changes what the pipeline reads of the row: a truncated JSON
message, a flipped data bit of a change mask, two data fields swapped, a value
of the wrong type, a header swapped into the operation. So each corrupted copy
must be quarantined exactly once, with the reason its corruption gives
(``Corrupted.reason``: the reason starts with it; most are conflicts with the
change batch 1 delivered, which stays applied), and the marts must still equal
the source table (test_bad_input_census.py). ``CDCFLOW_FUZZ_SEED`` picks another
draw.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from datetime import datetime

from testkit import change_history as ch
from testkit.vendors import KAFKA_LANDING
from tests.e2e import equivalence as eq

SEED = int(os.environ.get("CDCFLOW_FUZZ_SEED", "20261126"))
PER_FORMAT = 8
FIRST_OFFSET = 600_000  # the Kafka offsets of the corrupted copies
LANDED_AT = datetime(2024, 5, 2)
CONFLICT = "conflicts with the change applied under the same key and "
EVENT_CONFLICT = "conflicts with the event applied under the same record_id "


@dataclass(frozen=True)
class Corrupted:
    quarantine: str
    corruption: str
    reason: str  # what the quarantine reason starts with
    row: dict  # a row of the format's landing table


def _originals() -> list[int]:
    """The transactions batch 1 landed once (a replay would land them again)."""
    return [number for number in eq.BATCH_1 if number not in eq.REPLAYED]


def _changes(rng: random.Random) -> list[ch.Change]:
    history = eq.HISTORY_OF_SOURCE
    changes = [change for number in _originals() for change in history.transactions[number]]
    # a key change's UPDATE alone (without its before image) would be another change
    return rng.sample([change for change in changes if not change.is_key_change], PER_FORMAT)


def _kinds(rng: random.Random, kinds: list[str]) -> list[str]:
    """A corruption per row: every kind as often as the others, in a random order."""
    drawn = kinds * -(-PER_FORMAT // len(kinds))
    rng.shuffle(drawn)
    return drawn[:PER_FORMAT]


def _swap(row: dict, first: str, second: str) -> dict | None:
    if row.get(first) == row.get(second):
        return None
    return {**row, first: row.get(second), second: row.get(first)}


def _truncated(rng: random.Random, text: str) -> str:
    return text[: rng.randrange(1, len(text) - 1)]


# ---------------------------------------------------------------- Qlik __ct


def _qlik_ct(rng: random.Random) -> list[Corrupted]:
    corrupted = []
    kinds = _kinds(rng, ["flipped mask bit", "swapped fields", "truncated change_seq", "swapped headers"])
    for change, kind in zip(_changes(rng), kinds, strict=True):
        row = next(
            row
            for row in ch.ct_rows(eq.HISTORY_OF_SOURCE, [change.transaction])
            if row["header__change_seq"] == ch._change_seq(change) and row["header__change_oper"] != "B"
        )
        if kind == "flipped mask bit":
            mask = int.from_bytes(row["header__change_mask"], "little")
            mask ^= 1 << (len(ch.CT_HEADERS) + rng.randrange(len(ch.COLUMNS)))
            bad = {**row, "header__change_mask": mask.to_bytes(mask.bit_length() // 8 + 1, "little")}
            reason = CONFLICT + "change_seq"
        elif kind == "swapped fields":
            bad = _swap(row, "name", "note") or {**row, "name": row["note"] or "swapped"}
            reason = CONFLICT + "change_seq"
        elif kind == "truncated change_seq":
            bad = {**row, "header__change_seq": _truncated(rng, row["header__change_seq"])}
            reason = "malformed change_seq"
        else:
            bad = {**row, "header__change_oper": row["header__operation"]}
            reason = "unknown change_oper"
        corrupted.append(Corrupted("qlik_ct_quarantine", kind, reason, bad))
    return corrupted


# ------------------------------------------------------------- Qlik Kafka


def _kafka_row(key, value: str) -> dict:
    return {"topic": "dbo.accounts", "partition": 0, "timestamp": LANDED_AT, "key": str(key), "value": value}


def _qlik_kafka(rng: random.Random) -> list[Corrupted]:
    corrupted = []
    kinds = _kinds(rng, ["truncated JSON", "flipped mask bit", "swapped fields", "wrong type"])
    for change, kind in zip(_changes(rng), kinds, strict=True):
        messages = ch.kafka_messages(
            eq.HISTORY_OF_SOURCE, [change.transaction], schema="dbo", table="ACCOUNTS", refresh=False
        )
        key, value = messages[change.index]
        envelope = json.loads(value)
        message = envelope["message"]
        reason = CONFLICT + "changeSequence and transactionEventCounter"
        if kind == "truncated JSON":
            corrupted.append(
                Corrupted(
                    "qlik_kafka_quarantine", kind, "unparsable JSON", _kafka_row(key, _truncated(rng, value))
                )
            )
            continue
        if kind == "flipped mask bit":
            mask = int(message["headers"]["changeMask"], 16) ^ (1 << rng.randrange(len(ch.COLUMNS)))
            message["headers"]["changeMask"] = f"{mask:02X}"
        elif kind == "swapped fields":
            message["data"] = _swap(message["data"], "NAME", "NOTE") or {**message["data"], "NAME": "swapped"}
        else:
            message["data"]["AMOUNT"] = "twelve"
            reason = "value 'twelve' of column amount (NUMERIC) does not cast"
        value = json.dumps(envelope, separators=(",", ":"))
        corrupted.append(Corrupted("qlik_kafka_quarantine", kind, reason, _kafka_row(key, value)))
    return corrupted


# ----------------------------------------------------------------- Debezium


def _debezium(rng: random.Random) -> list[Corrupted]:
    corrupted = []
    kinds = _kinds(rng, ["truncated JSON", "swapped fields", "wrong type"])
    for change, kind in zip(_changes(rng), kinds, strict=True):
        events = ch.debezium_events(
            eq.HISTORY_OF_SOURCE, [change.transaction], table="accounts", snapshot=False
        )
        position = f'"change_lsn":"00000100:{change.transaction + 1:08x}:{change.index + 1:04x}"'
        key, value = next((key, value) for key, value in events if value and position in value)
        event = json.loads(value)
        payload = event.get("payload", event)
        if kind == "truncated JSON":
            value, reason = _truncated(rng, value), "unparsable JSON"
        else:
            row = payload["after"] or payload["before"]
            if kind == "swapped fields":
                row.update(_swap(row, "name", "note") or {"name": "swapped"})
                reason = CONFLICT + "commit_lsn, change_lsn and event_serial_no"
            else:
                row["amount"] = "twelve!"
                reason = "value twelve! of column amount"
            value = json.dumps(event, separators=(",", ":"))
        row = {"topic": "server1.dbo.accounts", "partition": 0, "timestamp": LANDED_AT, "key": str(key)}
        corrupted.append(Corrupted("debezium_quarantine", kind, reason, {**row, "value": value}))
    return corrupted


# ------------------------------------------------------------------- DirXML


def _dirxml(rng: random.Random) -> list[Corrupted]:
    events = [event for number in _originals() for event in eq.DIRXML_EVENTS.get(number, [])]
    corrupted = []
    kinds = _kinds(rng, ["swapped fields", "wrong type", "truncated table_key", "other event_type"])
    for event, kind in zip(rng.sample(events, PER_FORMAT), kinds, strict=True):
        row = {name: event[name] for name in ch.DIRXML_LOG}
        if kind == "swapped fields":
            bad = _swap(row, "old_value", "new_value") or {**row, "new_value": "swapped"}
        elif kind == "wrong type":
            bad = {**row, "new_value": "not a value"}
        elif kind == "truncated table_key":
            bad = {**row, "table_key": row["table_key"][:-1]}
        else:
            bad = {**row, "event_type": 9 - row["event_type"]}
        corrupted.append(Corrupted("dirxml_quarantine", kind, EVENT_CONFLICT, bad))
    return corrupted


def corrupted_rows(seed: int = SEED) -> list[Corrupted]:
    rng = random.Random(seed)
    return [*_qlik_ct(rng), *_qlik_kafka(rng), *_debezium(rng), *_dirxml(rng)]


CORRUPTED = corrupted_rows()


def land(spark, append) -> None:
    """Land every corrupted copy in its format's landing table, after the census
    (``append(spark, table, columns, rows)``: equivalence._append)."""
    by_quarantine = {}
    for bad in CORRUPTED:
        by_quarantine.setdefault(bad.quarantine, []).append(bad.row)
    append(spark, "eq_ct__ct", {**ch.CT_HEADERS, **ch.COLUMNS}, by_quarantine["qlik_ct_quarantine"])
    for table, quarantine in (
        ("eq_kafka_messages", "qlik_kafka_quarantine"),
        ("eq_dbz_events", "debezium_quarantine"),
    ):
        rows = [{**row, "offset": FIRST_OFFSET + i} for i, row in enumerate(by_quarantine[quarantine])]
        append(spark, table, KAFKA_LANDING, rows)
    append(spark, "eq_dirxml_log", ch.DIRXML_LOG, by_quarantine["dirxml_quarantine"])
