"""One logical change history of a simulated source table, written in each
vendor format the way the vendor writes it: Qlik Replicate `__ct` rows (plus the
full-load table), Qlik Kafka messages (reference 000) and Debezium SQL Server
events (reference 002). Deterministic from a seed; pure Python (no Spark)."""

from __future__ import annotations

import base64
import json
import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal

from testkit.vendors import HEADER_COLUMNS, debezium_envelope_schema, qlik_table_columns

COLUMNS = {"id": "int", "name": "string", "amount": "decimal(10,2)", "since": "date", "note": "string"}
KEY = "id"
DATA_COLUMNS = [c for c in COLUMNS if c != KEY]
EPOCH = date(1970, 1, 1)
CT_HEADERS = HEADER_COLUMNS


@dataclass
class Change:
    """One row-level change of the source table."""

    op: str  # I, U, D
    before: dict | None
    after: dict | None
    changed: list[str]
    committed_at: datetime
    transaction: int
    seq: int  # the task-wide change number
    index: int  # position in its transaction, from 0

    @property
    def is_key_change(self) -> bool:
        return self.op == "U" and self.before[KEY] != self.after[KEY]


@dataclass
class History:
    baseline: list[dict]
    transactions: list[list[Change]] = field(default_factory=list)

    def state_after(self, transactions: list[int], *, changed_columns_only: bool = False) -> dict[int, dict]:
        """The source table after the baseline and ``transactions`` (in order).
        ``changed_columns_only``: an update sets only the columns it changed (as
        a log of per-field events applies it when transactions are missing)."""
        state = {row[KEY]: dict(row) for row in self.baseline}
        for number in sorted(transactions):
            for change in self.transactions[number]:
                if changed_columns_only and change.op == "U" and not change.is_key_change:
                    # a key whose insert is missing gets only these columns
                    row = state.setdefault(
                        change.after[KEY], dict.fromkeys(COLUMNS) | {KEY: change.after[KEY]}
                    )
                    row.update({c: change.after[c] for c in change.changed})
                    continue
                if change.before is not None:
                    state.pop(change.before[KEY], None)
                if change.after is not None:
                    state[change.after[KEY]] = dict(change.after)
        return state


def _random_row(rng: random.Random, key: int) -> dict:
    return {
        "id": key,
        "name": rng.choice(["Ada", "Grace", "Linus", "Edsger", "Barbara", "Ken"]) + f" {rng.randint(1, 99)}",
        "amount": Decimal(rng.randint(-50_000, 500_000)).scaleb(-2),
        "since": EPOCH + timedelta(days=rng.randint(17_000, 20_000)),
        "note": rng.choice([None, "vip", "new", "moved", "has, comma", 'quote "q"']),
    }


def simulate(seed: int = 7, keys: int = 20, transactions: int = 60, final_deletes: int = 0) -> History:
    """Inserts, updates (some to null), deletes, primary-key updates, re-inserted
    keys, several changes per key and per transaction, equal commit times.
    ``final_deletes``: one more transaction, deleting that many live keys, so that
    some keys end deleted (the draws before it are unchanged)."""
    rng = random.Random(seed)
    history = History(baseline=[_random_row(rng, key) for key in range(1, keys + 1)])
    state = {row[KEY]: dict(row) for row in history.baseline}
    deleted: list[int] = []
    next_key = keys + 1
    committed_at = datetime(2024, 5, 1, 8, 0, 0)
    seq = 0
    for number in range(transactions):
        # hundredths of a second, as Replicate; some transactions share a commit time
        committed_at += timedelta(milliseconds=10 * rng.choice([0, 0, 1, 7, 150, 6000]))
        changes: list[Change] = []
        for index in range(rng.choice([1, 1, 2, 3])):
            seq += 1
            draw = rng.random()
            live = sorted(state)
            if draw < 0.12 and deleted:
                key = deleted.pop(rng.randrange(len(deleted)))
                op, before, after = "I", None, _random_row(rng, key)
            elif draw < 0.25 or not live:
                key, next_key = next_key, next_key + 1
                op, before, after = "I", None, _random_row(rng, key)
            elif draw < 0.37:
                key = rng.choice(live)
                op, before, after = "D", state[key], None
                deleted.append(key)
            elif draw < 0.45:
                key = rng.choice(live)
                new_key, next_key = next_key, next_key + 1
                before = state[key]
                after = dict(before, id=new_key)
                if rng.random() < 0.5:
                    after["name"] = before["name"] + " (moved)"
                op = "U"
                deleted.append(key)
            else:
                key = rng.choice(live)
                before = state[key]
                after = dict(before)
                for column in rng.sample(DATA_COLUMNS, rng.randint(1, 3)):
                    fresh = _random_row(rng, key)[column]
                    while fresh == before[column]:
                        fresh = _random_row(rng, key)[column]
                    after[column] = fresh
                op = "U"
            if before is not None:
                state.pop(before[KEY])
            if after is not None:
                state[after[KEY]] = after
            if op == "I":
                changed = list(COLUMNS)
            elif op == "D":
                changed = [KEY]
            else:
                changed = [c for c in COLUMNS if before[c] != after[c]]
            changes.append(Change(op, before, after, changed, committed_at, number, seq, index))
        history.transactions.append(changes)
    if final_deletes:
        committed_at += timedelta(seconds=5)
        number = len(history.transactions)
        changes = []
        for index, key in enumerate(rng.sample(sorted(state), final_deletes)):
            seq += 1
            changes.append(Change("D", state.pop(key), None, [KEY], committed_at, number, seq, index))
        history.transactions.append(changes)
    return history


# --------------------------------------------------------------------- helpers


def _mask(columns: list[str], first_bit: int) -> bytes:
    """Little-endian change mask, trailing zero bytes trimmed (references 000/001)."""
    value = sum(1 << (first_bit + list(COLUMNS).index(c)) for c in columns)
    return value.to_bytes((value.bit_length() + 7) // 8 or 1, "little")


def _change_seq(change: Change) -> str:
    hundredths = change.committed_at.microsecond // 10_000
    return change.committed_at.strftime("%Y%m%d%H%M%S") + f"{hundredths:02d}" + f"{change.seq:019d}"


def _transaction_id(change: Change) -> str:
    return f"{change.transaction + 1:032X}"


def _text(value) -> str | None:
    if value is None:
        return None
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


# ---------------------------------------------------------------- Qlik __ct


def ct_full_load(history: History) -> list[dict]:
    return [dict(row) for row in history.baseline]


def ct_rows(history: History, transactions: list[int]) -> list[dict]:
    """Change-table rows (reference 001): a B before image with its U's change_seq."""
    rows = []
    for number in transactions:
        for change in history.transactions[number]:
            headers = {
                "header__change_seq": _change_seq(change),
                "header__stream_position": f"pos-{change.seq}",
                "header__transaction_id": _transaction_id(change),
                "header__timestamp": change.committed_at,
            }
            if change.op == "U":
                rows.append(
                    {
                        **headers,
                        **change.before,
                        "header__change_oper": "B",
                        "header__operation": "BEFOREIMAGE",
                        "header__change_mask": b"",
                    }
                )
            row = change.after if change.op != "D" else change.before
            rows.append(
                {
                    **headers,
                    **row,
                    "header__change_oper": change.op,
                    "header__operation": {"I": "INSERT", "U": "UPDATE", "D": "DELETE"}[change.op],
                    "header__change_mask": _mask(change.changed, len(CT_HEADERS)),
                }
            )
    return rows


# ------------------------------------------------------------- Qlik Kafka


def _envelope(kind: str, message: dict) -> str:
    return json.dumps(
        {
            "magic": "atMSG",
            "type": kind,
            "headers": None,
            "messageSchemaId": None,
            "messageSchema": None,
            "message": message,
        },
        separators=(",", ":"),
    )


def kafka_metadata(schema: str, table: str) -> str:
    columns = qlik_table_columns(COLUMNS, [KEY])
    return _envelope(
        "MD",
        {
            "schemaId": f"{table}-1",
            "lineage": {
                "server": "replicate",
                "task": "equivalence",
                "schema": schema,
                "table": table,
                "tableVersion": 1,
                "timestamp": "2024-05-01T07:00:00.000",
            },
            "tableStructure": {"tableColumns": columns},
            "dataSchema": "{}",
        },
    )


def kafka_landing_rows(topic: str, messages: list[tuple], offset: int) -> list[dict]:
    """(key, value) messages as a Kafka sink lands them (KAFKA_LANDING), partition 0,
    offsets from ``offset``."""
    landed_at = datetime(2024, 5, 2)
    return [
        {
            "topic": topic,
            "partition": 0,
            "offset": offset + i,
            "timestamp": landed_at,
            "key": str(key),
            "value": value,
        }
        for i, (key, value) in enumerate(messages)
    ]


def _kafka_values(row: dict | None) -> dict | None:
    return None if row is None else {name.upper(): _text(value) for name, value in row.items()}


def _kafka_data_message(schema: str, table: str, row: dict, before: dict | None, headers: dict) -> tuple:
    """A data message (DT) of ``row`` as a (key, value) pair."""
    message = {
        "schema": schema,
        "table": table,
        "data": _kafka_values(row),
        "beforeData": _kafka_values(before),
        "headers": headers,
    }
    return row[KEY], _envelope("DT", message)


def kafka_messages(
    history: History, transactions: list[int], *, schema: str, table: str, refresh: bool
) -> list[dict]:
    """Data messages (and the REFRESH full load when ``refresh``) as landed rows."""
    values = []
    if refresh:
        for row in history.baseline:
            values.append(_kafka_data_message(schema, table, row, None, {"operation": "REFRESH"}))
    for number in transactions:
        changes = history.transactions[number]
        for change in changes:
            row = change.after if change.op != "D" else change.before
            hundredths = change.committed_at.microsecond // 10_000
            headers = {
                "operation": {"I": "INSERT", "U": "UPDATE", "D": "DELETE"}[change.op],
                "changeSequence": _change_seq(change),
                "timestamp": change.committed_at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{hundredths:02d}0",
                "streamPosition": f"pos-{change.seq}",
                "transactionId": _transaction_id(change),
                "changeMask": _mask(change.changed, 0).hex().upper(),
                "columnMask": _mask(list(COLUMNS), 0).hex().upper(),
                "transactionEventCounter": change.index + 1,
                "transactionLastEvent": change.index == len(changes) - 1,
            }
            values.append(_kafka_data_message(schema, table, row, change.before, headers))
    return values


# ----------------------------------------------------------------- Debezium

_DEBEZIUM_FIELDS = [
    {"type": "int32", "optional": False, "field": "id"},
    {"type": "string", "optional": False, "field": "name"},
    {
        "type": "bytes",
        "optional": False,
        "field": "amount",
        "name": "org.apache.kafka.connect.data.Decimal",
        "parameters": {"scale": "2", "connect.decimal.precision": "10"},
    },
    {"type": "int32", "optional": False, "field": "since", "name": "io.debezium.time.Date"},
    {"type": "string", "optional": True, "field": "note"},
]


def _debezium_row(row: dict | None) -> dict | None:
    if row is None:
        return None
    unscaled = int(row["amount"] * 100)
    length = (unscaled + (unscaled < 0)).bit_length() // 8 + 1
    return {
        "id": row["id"],
        "name": row["name"],
        "amount": base64.b64encode(unscaled.to_bytes(length, "big", signed=True)).decode(),
        "since": (row["since"] - EPOCH).days,
        "note": row["note"],
    }


def _debezium_event(
    table: str, op: str, before, after, ts_ms: int, commit, change, serial, with_schema
) -> str:
    payload = {
        "before": _debezium_row(before),
        "after": _debezium_row(after),
        "source": {
            "version": "2.7.0.Final",
            "connector": "sqlserver",
            "name": "server1",
            "ts_ms": ts_ms,
            "snapshot": "true" if op == "r" else "false",
            "db": "testDB",
            "schema": "dbo",
            "table": table,
            "change_lsn": change,
            "commit_lsn": commit,
            "event_serial_no": serial,
        },
        "op": op,
        "ts_ms": ts_ms + 1500,
    }
    if not with_schema:
        return json.dumps(payload, separators=(",", ":"))
    schema = debezium_envelope_schema(_DEBEZIUM_FIELDS, f"server1.dbo.{table}")
    return json.dumps({"schema": schema, "payload": payload}, separators=(",", ":"))


def debezium_events(history: History, transactions: list[int], *, table: str, snapshot: bool) -> list[tuple]:
    """Change events (and the snapshot reads when ``snapshot``); a primary-key
    update is a delete of the old key and a create of the new one with the same
    commit and change LSN, serials 1 and 2. Every third transaction is written
    with schemas disabled (payload only)."""
    values = []
    if snapshot:
        for row in history.baseline:
            values.append(
                (
                    row[KEY],
                    _debezium_event(
                        table, "r", None, row, 1714546800000, "00000100:00000000:0001", None, None, True
                    ),
                )
            )
    for number in transactions:
        with_schema = number % 3 != 0
        for change in history.transactions[number]:
            ts_ms = (change.committed_at - datetime(1970, 1, 1)) // timedelta(milliseconds=1)
            commit = f"00000100:{number + 1:08x}:ffff"
            position = f"00000100:{number + 1:08x}:{change.index + 1:04x}"
            if change.is_key_change:
                values.append(
                    (
                        change.before[KEY],
                        _debezium_event(
                            table, "d", change.before, None, ts_ms, commit, position, 1, with_schema
                        ),
                    )
                )
                values.append((change.before[KEY], None))  # its tombstone
                values.append(
                    (
                        change.after[KEY],
                        _debezium_event(
                            table, "c", None, change.after, ts_ms, commit, position, 2, with_schema
                        ),
                    )
                )
            elif change.op == "I":
                values.append(
                    (
                        change.after[KEY],
                        _debezium_event(
                            table, "c", None, change.after, ts_ms, commit, position, 1, with_schema
                        ),
                    )
                )
            elif change.op == "U":
                values.append(
                    (
                        change.after[KEY],
                        _debezium_event(
                            table, "u", change.before, change.after, ts_ms, commit, position, 2, with_schema
                        ),
                    )
                )
            else:
                values.append(
                    (
                        change.before[KEY],
                        _debezium_event(
                            table, "d", change.before, None, ts_ms, commit, position, 1, with_schema
                        ),
                    )
                )
                values.append((change.before[KEY], None))
    return values


# ------------------------------------------------------------------- DirXML

DIRXML_LOG = {
    "record_id": "bigint",
    "status": "string",
    "event_type": "int",
    "event_time": "timestamp",
    "perpetrator": "string",
    "table_name": "string",
    "table_key": "string",
    "column_name": "string",
    "old_value": "string",
    "new_value": "string",
}
DIRXML_BASELINE_TIME = datetime(2024, 5, 1, 7, 0, 0)


def _table_key(key) -> str:
    from udfs.table_key import format_table_key

    return format_table_key([(KEY, str(key))])


def dirxml_events(history: History, *, table: str) -> dict[int, list[dict]]:
    """The event log the triggers of a table would write, per transaction (-1: the
    baseline, logged as field inserts at DIRXML_BASELINE_TIME, since the event log
    has no full load). record_ids follow the order of the source's changes
    whatever batch they land in. Per change: an insert is a field insert (1) per
    non-null column; an update a field update per changed column (2, or 3 in
    every fourth transaction); a delete a row delete (4); a primary-key update
    a row delete of the old key then field inserts of the new one. The last
    change of a key is logged with query-back instead (inserts as 5 or 7,
    updates as 8 of the changed columns), so its values are read from the source
    table (``dirxml_source_rows``)."""
    last_change = {}
    for number, changes in enumerate(history.transactions):
        for change in changes:
            if change.after is not None:
                last_change[change.after[KEY]] = (number, change.index)
            if change.before is not None and change.before[KEY] != (change.after or {}).get(KEY):
                last_change.pop(change.before[KEY], None)
    record_id = 0
    events: dict[int, list[dict]] = {}

    def event(number, event_type, at, key, column=None, old=None, new=None, seq=0):
        nonlocal record_id
        record_id += 1
        events.setdefault(number, []).append(
            {
                "record_id": record_id,
                "status": "N",
                "event_type": event_type,
                "event_time": at,
                "perpetrator": "app",
                "table_name": table,
                "table_key": _table_key(key),
                "column_name": column,
                "old_value": _text(old),
                "new_value": _text(new),
                "change": seq,  # not a log column: which change of the source the event is part of
            }
        )

    def field_inserts(number, at, row, query_back, seq):
        for column in DATA_COLUMNS:
            if row[column] is not None or query_back:
                new = None if query_back else row[column]
                event(number, 7 if query_back else 1, at, row[KEY], column, None, new, seq)

    for row in history.baseline:
        field_inserts(-1, DIRXML_BASELINE_TIME, row, False, -row[KEY])
    for number, changes in enumerate(history.transactions):
        for change in changes:
            at = change.committed_at
            query_back = change.after is not None and last_change.get(change.after[KEY]) == (
                number,
                change.index,
            )
            if change.op == "D" or change.is_key_change:
                event(number, 4, at, change.before[KEY], seq=change.seq)
            if change.op == "I" or change.is_key_change:
                if query_back and change.seq % 2:
                    event(number, 5, at, change.after[KEY], seq=change.seq)
                else:
                    field_inserts(number, at, change.after, query_back, change.seq)
            elif change.op == "U":
                for column in change.changed:
                    update_type = 8 if query_back else 3 if number % 4 == 3 else 2
                    old, new = (None, None) if query_back else (change.before[column], change.after[column])
                    event(number, update_type, at, change.after[KEY], column, old, new, change.seq)
    return events


def dirxml_source_rows(history: History) -> list[dict]:
    """The source table as query-back events read it: the table after every change."""
    return list(history.state_after(list(range(len(history.transactions)))).values())


def dirxml_merged_changes(events: list[dict]) -> list[tuple[int, int]]:
    """Pairs of changes the event log cannot tell apart: consecutive per-field
    events (record_id order) of one key, one kind (insert or update) and one
    event_time, without a repeated column, that belong to two changes of the
    source (the publisher, and cdcflow, read them as one change)."""
    merged = []
    previous, fields = None, set()
    for e in sorted(events, key=lambda e: e["record_id"]):
        kind = {1: "insert", 7: "insert", 2: "update", 3: "update", 8: "update"}.get(e["event_type"])
        same = (
            previous is not None
            and kind is not None
            and (previous["table_key"], previous["event_time"]) == (e["table_key"], e["event_time"])
            and previous["kind"] == kind
            and e["column_name"] not in fields
        )
        if same and previous["change"] != e["change"]:
            merged.append((previous["change"], e["change"]))
        fields = fields | {e["column_name"]} if same else {e["column_name"]}
        previous = {**e, "kind": kind}
    return merged
