"""The census of bad inputs (issue "Nothing lost", item 5): every kind of bad row
the project knows, per format, as it lands next to the valid rows of the
cross-format equivalence's history, and the exact reason its quarantine gives.

The kill sweep's ``formats`` workload lands them with its batch 2
(tests/e2e/fault_workloads.py): test_bad_input_census.py checks the quarantines
of its never-killed run, the cross-format equivalence that every valid row still
reaches the marts (a bad row applied would show there: most name BAD_KEY, a key
the history never has), and the kill sweep that a killed run quarantines them
the same.

Not here: a Qlik `__ct` value that does not cast (the equivalence's change table
lands typed columns: test_change_table_layout.py lands one as text) and an
orphan before image (it waits within the landing overlap: test_incremental.py
and test_change_table_layout.py).
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from testkit import change_history as ch
from testkit.vendors import KAFKA_LANDING, debezium_envelope_schema
from tests.e2e import equivalence as eq

BAD_KEY = 999
LANDED_AT = datetime(2024, 5, 2)
COMMITTED_AT = datetime(2024, 5, 2, 9, 0, 0)
CHANGE_SEQ = "2024050209000000" + f"{9_000_000:019d}"  # after every change of the history
WIDTH = len(ch.CT_HEADERS) + len(ch.COLUMNS)  # the change table's columns
ROW = {"id": BAD_KEY, "name": "bad", "amount": "1.00", "since": "2024-01-01", "note": None}


@dataclass(frozen=True)
class BadInput:
    quarantine: str  # the model it lands in
    kind: str
    reason: str  # exactly as the quarantine gives it
    row: dict  # a row of the format's landing table


# ---------------------------------------------------------------- Qlik __ct


def _ct(number: int, **changes) -> dict:
    """An insert of BAD_KEY with its own change_seq (``number``), then ``changes``."""
    row = {
        "header__change_seq": CHANGE_SEQ[:-3] + f"{number:03d}",
        "header__change_oper": "I",
        "header__change_mask": ch._mask(list(ch.COLUMNS), len(ch.CT_HEADERS)),
        "header__stream_position": "pos-bad",
        "header__operation": "INSERT",
        "header__transaction_id": "BAD" * 8,
        "header__timestamp": COMMITTED_AT,
        **{**ROW, "amount": Decimal("1.00"), "since": date(2024, 1, 1)},
    }
    return {**row, **changes}


_BEYOND = (1 << WIDTH).to_bytes(WIDTH // 8 + 1, "little")

QLIK_CT = [
    BadInput(
        "qlik_ct_quarantine", "unknown operation", "unknown change_oper 'X'", _ct(1, header__change_oper="X")
    ),
    BadInput(
        "qlik_ct_quarantine", "no operation", "unknown change_oper null", _ct(2, header__change_oper=None)
    ),
    BadInput(
        "qlik_ct_quarantine",
        "malformed change_seq",
        "malformed change_seq '2024-05-02 09:00': expected 35 digits, YYYYMMDDHHmmSShh then a 19-digit"
        " change number",
        _ct(3, header__change_seq="2024-05-02 09:00"),
    ),
    BadInput("qlik_ct_quarantine", "null key", "null key column id", _ct(4, id=None)),
    BadInput(
        "qlik_ct_quarantine",
        "mask wider than the table",
        f"change_mask {_BEYOND.hex().upper()} sets a bit beyond the {WIDTH} columns of the change table"
        " (or is longer than 128 bytes)",
        _ct(5, header__change_mask=_BEYOND),
    ),
]


# ------------------------------------------------------------- Qlik Kafka


def _kafka_message(*, envelope_type="DT", data=None, headers=None, **message_changes) -> str:
    message = {
        "schema": "dbo",
        "table": "ACCOUNTS",
        "data": {name.upper(): value for name, value in {**ROW, **(data or {})}.items()},
        "beforeData": None,
        "headers": {
            "operation": "INSERT",
            "changeSequence": CHANGE_SEQ,
            "timestamp": COMMITTED_AT.strftime("%Y-%m-%dT%H:%M:%S.000"),
            "streamPosition": "pos-bad",
            "transactionId": "BAD" * 8,
            "changeMask": "1F",
            "columnMask": "1F",
            "transactionEventCounter": 1,
            "transactionLastEvent": True,
            **(headers or {}),
        },
        **message_changes,
    }
    return ch._envelope(envelope_type, message)


def _kafka(value: str, partition: int = 0, timestamp: datetime = LANDED_AT) -> dict:
    return {
        "topic": "dbo.accounts",
        "partition": partition,
        "timestamp": timestamp,
        "key": str(BAD_KEY),
        "value": value,
    }


QLIK_KAFKA = [
    BadInput("qlik_kafka_quarantine", "unparsable JSON", "unparsable JSON", _kafka('{"magic": "atMSG", ')),
    BadInput(
        "qlik_kafka_quarantine",
        "unknown envelope type",
        "unknown Replicate envelope type 'XX'",
        _kafka(_kafka_message(envelope_type="XX")),
    ),
    BadInput(
        "qlik_kafka_quarantine",
        "unknown operation",
        "unknown operation 'MERGE'",
        _kafka(_kafka_message(headers={"operation": "MERGE"})),
    ),
    BadInput(
        "qlik_kafka_quarantine",
        "data before metadata",
        "no metadata message in effect for ACCOUNTS (none landed before this data message)",
        # another partition, a Kafka timestamp before the metadata message's
        _kafka(_kafka_message(), partition=1, timestamp=datetime(2024, 5, 1)),
    ),
    BadInput(
        "qlik_kafka_quarantine",
        "malformed changeSequence",
        "malformed changeSequence '12345': expected 35 digits, YYYYMMDDHHmmSShh then a 19-digit"
        " change number",
        _kafka(_kafka_message(headers={"changeSequence": "12345"})),
    ),
    BadInput(
        "qlik_kafka_quarantine",
        "mask not hex",
        "changeMask/columnMask is not a hex string",
        _kafka(_kafka_message(headers={"changeMask": "ZZ"})),
    ),
    BadInput(
        "qlik_kafka_quarantine",
        "changeMask wider than the table",
        "changeMask 20 sets a bit beyond the 5 columns of table version 1",
        _kafka(_kafka_message(headers={"changeMask": "20"})),
    ),
    BadInput(
        "qlik_kafka_quarantine",
        "columnMask wider than the table",
        "columnMask 3F sets a bit beyond the 5 columns of table version 1",
        _kafka(_kafka_message(headers={"columnMask": "3F"})),
    ),
    BadInput(
        "qlik_kafka_quarantine", "null key", "null key column id", _kafka(_kafka_message(data={"id": None}))
    ),
    BadInput(
        "qlik_kafka_quarantine",
        "value that does not cast",
        "value 'seven' of column amount (NUMERIC) does not cast to decimal(10,2)",
        _kafka(_kafka_message(data={"amount": "seven"})),
    ),
]


# ----------------------------------------------------------------- Debezium


def _debezium_event(*, op="c", after=True, source=None, **payload_changes) -> str:
    amount = base64.b64encode((100).to_bytes(1, "big", signed=True)).decode()
    row = {"id": BAD_KEY, "name": "bad", "amount": amount, "since": 19723, "note": None}
    payload = {
        "before": None,
        "after": row if after is True else after,
        "source": {
            "version": "2.7.0.Final",
            "connector": "sqlserver",
            "name": "server1",
            "ts_ms": 1714640400000,
            "snapshot": "false",
            "db": "testDB",
            "schema": "dbo",
            "table": "accounts",
            "change_lsn": "00000200:00000001:0001",
            "commit_lsn": "00000200:00000001:ffff",
            "event_serial_no": 1,
            **(source or {}),
        },
        "op": op,
        "ts_ms": 1714640401500,
        **payload_changes,
    }
    payload = {name: value for name, value in payload.items() if value is not ...}
    schema = debezium_envelope_schema(ch._DEBEZIUM_FIELDS, "server1.dbo.accounts")
    return json.dumps({"schema": schema, "payload": payload}, separators=(",", ":"))


def _debezium(value: str) -> dict:
    return {
        "topic": "server1.dbo.accounts",
        "partition": 0,
        "timestamp": LANDED_AT,
        "key": str(BAD_KEY),
        "value": value,
    }


_ROW_WITH = {"id": BAD_KEY, "name": "bad", "since": 19723, "note": None}

DEBEZIUM = [
    BadInput("debezium_quarantine", "unparsable JSON", "unparsable JSON", _debezium('{"payload": ')),
    BadInput(
        "debezium_quarantine",
        "not a change event",
        "not a Debezium change event (no payload.op)",
        _debezium(_debezium_event(op=...)),
    ),
    BadInput(
        "debezium_quarantine",
        "unknown operation",
        "unknown operation 'x'",
        _debezium(_debezium_event(op="x")),
    ),
    BadInput(
        "debezium_quarantine",
        "create without its row",
        "op 'c' without its after row",
        _debezium(_debezium_event(after=None)),
    ),
    BadInput(
        "debezium_quarantine",
        "malformed LSN",
        "malformed source position (commit_lsn 0x200, change_lsn 00000200:00000001:0001, event_serial_no 1):"
        " expected xxxxxxxx:xxxxxxxx:xxxx LSNs and a serial number",
        _debezium(_debezium_event(source={"commit_lsn": "0x200"})),
    ),
    BadInput(
        "debezium_quarantine",
        "no commit time",
        "no source.ts_ms (commit time)",
        _debezium(_debezium_event(source={"ts_ms": None})),
    ),
    BadInput(
        "debezium_quarantine",
        "null key",
        "null key column id",
        _debezium(_debezium_event(after={**_ROW_WITH, "id": None, "amount": "ZA=="})),
    ),
    BadInput(
        "debezium_quarantine",
        "undecodable Decimal",
        "value not*base64 of column amount (org.apache.kafka.connect.data.Decimal) does not decode as"
        " decimal(10,2)",
        _debezium(_debezium_event(after={**_ROW_WITH, "amount": "not*base64"})),
    ),
]


# ------------------------------------------------------------------- DirXML


def _dirxml(**changes) -> dict:
    row = {
        "status": "N",
        "event_type": 1,
        "event_time": COMMITTED_AT,
        "perpetrator": "app",
        "table_name": "accounts",
        "table_key": f"id={BAD_KEY}",
        "column_name": "name",
        "old_value": None,
        "new_value": "bad",
    }
    return {**row, **changes}


DIRXML = [
    BadInput(
        "dirxml_quarantine",
        "unknown event_type",
        "unknown event_type 9 (the reference defines 1 to 8)",
        _dirxml(event_type=9),
    ),
    BadInput(
        "dirxml_quarantine",
        "record_id not positive",
        "record_id is not a positive integer",
        _dirxml(record_id=-7),
    ),
    BadInput(
        "dirxml_quarantine",
        "no event_time",
        "event_time is empty (the reference requires a value)",
        _dirxml(event_time=None),
    ),
    BadInput(
        "dirxml_quarantine",
        "malformed table_key",
        "malformed table_key: value '9,99' of column 'id' contains ',': it must be delimited with"
        " double quotes",
        _dirxml(table_key="id=9,99"),
    ),
    BadInput(
        "dirxml_quarantine",
        "table_key of another key",
        "table_key names account_no; the key of accounts is id",
        _dirxml(table_key="account_no=999"),
    ),
    BadInput(
        "dirxml_quarantine",
        "table_key value of the wrong type",
        "table_key value 'nine' of id is not a valid int",
        _dirxml(table_key="id=nine"),
    ),
    BadInput(
        "dirxml_quarantine",
        "field event without column_name",
        "event_type 2 (field update) without column_name",
        _dirxml(event_type=2, column_name=None),
    ),
    BadInput(
        "dirxml_quarantine",
        "column not of the table",
        "column salary is not a column of accounts (id, name, amount, since, note)",
        _dirxml(column_name="salary"),
    ),
    BadInput(
        "dirxml_quarantine",
        "field update of the key",
        "event changes key column id from 999 to 1000: log a key change as a row delete (4) of the old key"
        " and an insert of the new one",
        _dirxml(event_type=2, column_name="id", old_value="999", new_value="1000"),
    ),
    BadInput(
        "dirxml_quarantine",
        "value that does not convert",
        "new_value 'seven' of column amount is not a valid decimal(10,2)",
        _dirxml(column_name="amount", new_value="seven"),
    ),
]

# ---------------------------------------------------------------- conflicts
# A second delivery of a change batch 1 landed (same key, same ordering value)
# whose content differs: a replayed feed that is not what was first delivered.
# The first delivery stays applied (the equivalence checks the marts); the
# reason quotes it (conflicting_deliveries: the canonical change as JSON).

CONFLICTING_NAME = "conflicting delivery"
LANDED_ANY = "(landed at the first delivery's landing time)"
_CONFLICTED = next(
    change
    for number in eq.BATCH_1
    if number not in eq.REPLAYED
    for change in eq.HISTORY_OF_SOURCE.transactions[number]
    if change.op == "I"
)


def _conflict_reason(ordering: str, change_order: str, transaction_id: str) -> str:
    """The reason of a conflict with ``_CONFLICTED`` as batch 1 delivered it
    (when it landed is a time of the test run: LANDED_ANY stands for it)."""
    row = _CONFLICTED.after
    values = {name: float(value) if isinstance(value, Decimal) else value for name, value in row.items()}
    applied = {
        **{name: values[name] for name in ch.COLUMNS if values[name] is not None},
        "operation": "I",
        "change_order": change_order,
        "committed_at": f"{_CONFLICTED.committed_at:%Y-%m-%dT%H:%M:%S.%f}"[:-3] + "Z",
        "transaction_id": transaction_id,
        "changed_columns": list(ch.COLUMNS),
        "present_columns": list(ch.COLUMNS),
    }
    return (
        f"conflicts with the change applied under the same key and {ordering} {LANDED_ANY}, whose"
        f" content differs: {json.dumps(applied, separators=(',', ':'), default=str)}"
    )


def _ct_conflict() -> dict:
    row = next(
        r
        for r in ch.ct_rows(eq.HISTORY_OF_SOURCE, [_CONFLICTED.transaction])
        if r["header__change_seq"] == ch._change_seq(_CONFLICTED)
    )
    return {**row, "name": CONFLICTING_NAME}


def _kafka_conflict() -> dict:
    messages = ch.kafka_messages(
        eq.HISTORY_OF_SOURCE, [_CONFLICTED.transaction], schema="dbo", table="ACCOUNTS", refresh=False
    )
    key, value = messages[_CONFLICTED.index]
    envelope = json.loads(value)
    envelope["message"]["data"]["NAME"] = CONFLICTING_NAME
    return {**_kafka(json.dumps(envelope, separators=(",", ":"))), "key": str(key)}


def _debezium_conflict() -> dict:
    events = ch.debezium_events(
        eq.HISTORY_OF_SOURCE, [_CONFLICTED.transaction], table="accounts", snapshot=False
    )
    key, value = next(
        (key, value) for key, value in events if value and f'"id":{_CONFLICTED.after["id"]},' in value
    )
    event = json.loads(value)
    (event.get("payload") or event)["after"]["name"] = CONFLICTING_NAME
    return {**_debezium(json.dumps(event, separators=(",", ":"))), "key": str(key)}


_SEQ = ch._change_seq(_CONFLICTED)
_EVENT = next(
    event
    for event in eq.DIRXML_EVENTS[_CONFLICTED.transaction]
    if event["table_key"] == f"id={_CONFLICTED.after['id']}"
)


def _dirxml_conflict_reason() -> str:
    """The reason of a conflict with the DirXML event ``_EVENT`` as batch 1 landed
    it (its landed row as JSON: nulls left out, times in UTC)."""
    landed = {name: _EVENT[name] for name in ch.DIRXML_LOG if _EVENT[name] is not None}
    landed["event_time"] = f"{_EVENT['event_time']:%Y-%m-%dT%H:%M:%S.%f}"[:-3] + "Z"
    return (
        f"conflicts with the event applied under the same record_id {LANDED_ANY}, whose content differs:"
        f" {json.dumps(landed, separators=(',', ':'))}"
    )


CONFLICTS = [
    BadInput(
        "qlik_ct_quarantine",
        "conflicting second delivery",
        _conflict_reason("change_seq", _SEQ + "0", ch._transaction_id(_CONFLICTED)),
        _ct_conflict(),
    ),
    BadInput(
        "qlik_kafka_quarantine",
        "conflicting second delivery",
        _conflict_reason(
            "changeSequence and transactionEventCounter",
            f"{_SEQ}{_CONFLICTED.index + 1:019d}0",
            ch._transaction_id(_CONFLICTED),
        ),
        _kafka_conflict(),
    ),
    BadInput(
        "debezium_quarantine",
        "conflicting second delivery",
        _conflict_reason(
            "commit_lsn, change_lsn and event_serial_no",
            f"00000100{_CONFLICTED.transaction + 1:08x}ffff00000100{_CONFLICTED.transaction + 1:08x}"
            f"{_CONFLICTED.index + 1:04x}{1:019d}",
            f"00000100:{_CONFLICTED.transaction + 1:08x}:ffff",
        ),
        _debezium_conflict(),
    ),
    BadInput(
        "dirxml_quarantine",
        "conflicting second delivery",
        _dirxml_conflict_reason(),
        {**{name: _EVENT[name] for name in ch.DIRXML_LOG}, "new_value": CONFLICTING_NAME},
    ),
]

CENSUS = [*QLIK_CT, *QLIK_KAFKA, *DEBEZIUM, *DIRXML, *CONFLICTS]


def land(spark, append) -> None:
    """Land every bad input in its format's landing table, next to the valid rows
    (``append(spark, table, columns, rows)``: equivalence._append)."""
    conflicts = {bad.quarantine: [bad] for bad in CONFLICTS}
    append(
        spark,
        "eq_ct__ct",
        {**ch.CT_HEADERS, **ch.COLUMNS},
        [b.row for b in QLIK_CT + conflicts["qlik_ct_quarantine"]],
    )
    for table, inputs, first_offset in (
        ("eq_kafka_messages", QLIK_KAFKA + conflicts["qlik_kafka_quarantine"], 500_000),
        ("eq_dbz_events", DEBEZIUM + conflicts["debezium_quarantine"], 500_000),
    ):
        rows = [{**b.row, "offset": first_offset + i} for i, b in enumerate(inputs)]
        append(spark, table, KAFKA_LANDING, rows)
    rows = [
        {"record_id": 900_000 + i, **b.row} for i, b in enumerate(DIRXML + conflicts["dirxml_quarantine"])
    ]
    append(spark, "eq_dirxml_log", ch.DIRXML_LOG, rows)
