"""A simulated source table and its change stream, generated with Spark and
written as the raw rows a CDC tool lands (parquet). Deterministic from a seed:
every value is a hash of (seed, change number, column), so the same parameters
give the same rows whatever the partitioning.

The stream (``Workload``): ``keys`` key slots, a fraction of them in the initial
full load; ``changes`` row changes, each on a slot drawn from the hash, a few
per transaction. A slot's life is a chain: an insert (or its full-load row),
updates (each changing some columns, values sometimes null), then an end — a
delete, or a primary-key update that moves the row to a new key — after which
the slot's next change is an insert again. The last ``increment`` fraction of
the changes, plus ``late`` ones drawn from before them (older change numbers
landing later), is the increment: landed by a second call, after the main batch.

Written per format (``FORMATS``): Qlik Replicate ``__ct`` rows (a BEFOREIMAGE
and an UPDATE per update, the little-endian change mask, the full-load table).
The main batch's files get landing times (mtimes) that follow their commit
times and end an hour ago, as a CDC task that has been writing all along; the
increment's files land when written. ``truth/`` holds the source table as it
really is after every change (for checking the pipeline's ``_current``).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from testkit import formats
from testkit.formats import DEBEZIUM_TOPIC, KAFKA_SCHEMA, KAFKA_TABLE
from testkit.vendors import HEADER_COLUMNS, mask_hex_sql

# the data columns' types, in turn (the key is `id bigint`)
COLUMN_TYPES = [
    "int",
    "string",
    "decimal(12,2)",
    "date",
    "timestamp",
    "double",
    "boolean",
    "bigint",
    "string",
    "decimal(18,4)",
]
FORMATS = ["qlik_ct", "qlik_kafka", "debezium", "dirxml"]
TABLE = "bench_items"
# the table's key column
KEY = "id"
EPOCH = "2026-01-01 00:00:00"  # commit time of the first change
ROWS_PER_FILE = 250_000
LANDED_BEFORE_NOW_S = 3600


@dataclass(frozen=True)
class Workload:
    """What to simulate. Fractions are of the changes (``deletes``,
    ``key_changes``: how often a live key's change ends it; ``late``: of the
    changes before the increment, drawn from the last ``late_window`` of them —
    late by minutes to hours, as a slow transaction or a re-sent file) or of
    the updates' columns (``changed``)."""

    changes: int = 100_000
    keys: int = 0  # 0: a tenth of the changes
    columns: int = 20  # the key and columns - 1 data columns
    seed: int = 20261121
    deletes: float = 0.08
    key_changes: float = 0.02
    changed: float = 0.25
    nulls: float = 0.05
    full_load: float = 0.5
    late: float = 0.001
    late_window: float = 0.1
    increment: float = 0.01
    transaction_size: int = 4

    def __post_init__(self):
        if self.changes < 10:
            raise ValueError(f"changes must be at least 10, got {self.changes}")
        if self.columns < 2:
            raise ValueError(f"columns must be at least 2 (the key and one data column), got {self.columns}")
        for name in (
            "deletes",
            "key_changes",
            "changed",
            "nulls",
            "full_load",
            "late",
            "late_window",
            "increment",
        ):
            value = getattr(self, name)
            if not 0 <= value <= 1:
                raise ValueError(f"{name} is a fraction between 0 and 1, got {value}")
        if self.deletes + self.key_changes >= 0.5:
            raise ValueError("deletes + key_changes must stay under 0.5 (most changes are updates)")
        if self.transaction_size < 1:
            raise ValueError(f"transaction_size must be at least 1, got {self.transaction_size}")

    @property
    def key_slots(self) -> int:
        return self.keys or max(1, self.changes // 10)

    @property
    def main_changes(self) -> int:
        """Change numbers below this are the main batch (less the late ones)."""
        return self.changes - round(self.changes * self.increment)

    @property
    def data_columns(self) -> dict[str, str]:
        return {
            f"c{i:02d}_{COLUMN_TYPES[i % len(COLUMN_TYPES)].split('(')[0]}": COLUMN_TYPES[
                i % len(COLUMN_TYPES)
            ]
            for i in range(self.columns - 1)
        }

    @property
    def table_columns(self) -> dict[str, str]:
        return {"id": "bigint", **self.data_columns}


def table_name(source_format: str) -> str:
    """The table's name in vars.cdcflow_tables for ``source_format``."""
    return TABLE if source_format == "qlik_ct" else f"{TABLE}_{source_format.removeprefix('qlik_')}"


RAW_TABLES = {
    "qlik_ct": [f"{TABLE}__ct", TABLE],
    "qlik_kafka": [f"{TABLE}_kafka_messages"],
    "debezium": [f"{TABLE}_debezium_events"],
    "dirxml": [f"{TABLE}_event_log"],
}


def table_config(workload: Workload, source_format: str = "qlik_ct") -> dict:
    """The table's entry in vars.cdcflow_tables, read from ``source_format``."""
    common = {
        "format": source_format,
        "source": source_format,
        "key": ["id"],
        "columns": workload.table_columns,
    }
    raw = RAW_TABLES[source_format][0]
    if source_format == "qlik_ct":
        return {**common, "change_table": raw, "full_load_table": TABLE}
    if source_format == "qlik_kafka":
        return {**common, "raw_table": raw, "source_schema": KAFKA_SCHEMA, "source_table": KAFKA_TABLE}
    if source_format == "debezium":
        return {**common, "raw_table": raw, "topic": DEBEZIUM_TOPIC}
    if source_format == "dirxml":
        # no query-back events in this log: no source table to read
        return {**common, "raw_table": raw, "source_table": TABLE, "query_back_table": None}
    raise ValueError(f"unknown format {source_format!r}; expected one of {', '.join(FORMATS)}")


# ------------------------------------------------------------------ the stream


def _hash(workload: Workload, *parts: str) -> str:
    return f"xxhash64({workload.seed}, {', '.join(parts)})"


def _fraction_below(workload: Workload, salt: str, fraction: float, on: str = "seq") -> str:
    """A SQL condition true for about ``fraction`` of the rows, by hash."""
    hashed = _hash(workload, f"'{salt}'", on)
    return f"pmod({hashed}, 1000000) < {round(fraction * 1_000_000)}"


def _value(data_type: str, h: str) -> str:
    """A value of ``data_type`` from the bigint hash expression ``h``."""
    base = data_type.split("(")[0]
    if base == "int":
        return f"cast(pmod({h}, 2000000) - 1000000 as int)"
    if base == "bigint":
        return h
    if base == "string":
        return f"concat('v', cast(pmod({h}, 100000000) as string))"
    if base == "decimal":
        return f"cast(pmod({h}, 10000000000) / 100 as {data_type})"
    if base == "date":
        return f"date_add(date'2000-01-01', cast(pmod({h}, 10000) as int))"
    if base == "timestamp":
        return f"timestamp_micros(946684800000000 + pmod({h}, 1000000000000000))"
    if base == "double":
        return f"cast(pmod({h}, 1000000000) as double) / 1000"
    if base == "boolean":
        return f"pmod({h}, 2) = 1"
    raise ValueError(f"no generator for type {data_type}")


def events(spark, workload: Workload):
    """Every change (and full-load row) of the source table as a DataFrame:
    slot, seq (-1 for a full-load row), op (L, I, U, D, K = key change), id
    (the key after the change), old_id, committed_at, tx, the after image
    (data columns) and the before image (``before_<column>``), the changed
    columns, ``is_increment``."""
    w = workload
    slots = w.key_slots
    full_load_slots = round(slots * w.full_load)
    data = w.data_columns
    spark.range(0, full_load_slots).selectExpr(
        "id as slot", "cast(-1 as bigint) as seq"
    ).createOrReplaceTempView("_bench_full_load_rows")
    slot_hash = _hash(w, "'slot'", "id")
    spark.range(0, w.changes).selectExpr(
        f"pmod({slot_hash}, {slots}) as slot", "id as seq"
    ).createOrReplaceTempView("_bench_change_rows")
    key_change_share = w.key_changes / max(w.deletes + w.key_changes, 1e-9)
    hashes = ",\n".join(_hash(w, f"'{name}'", "seq", "slot") + f" as _h_{name}" for name in data)
    spark.sql(f"""
        select
            slot, seq,
            seq < 0 as is_full_load,
            seq >= 0 and {_fraction_below(w, "end", w.deletes + w.key_changes)} as end_drawn,
            {_fraction_below(w, "kind", key_change_share)} as end_is_key_change,
            {hashes}
        from (
            select * from _bench_full_load_rows
            union all
            select * from _bench_change_rows
        )
    """).createOrReplaceTempView("_bench_drawn")
    # a drawn end counts unless the change before it was one (then this change
    # is the re-insert) or it is the slot's first row and not a full-load row
    spark.sql("""
        select
            *,
            end_drawn
            and not coalesce(lag(end_drawn) over by_slot, false)
            and row_number() over by_slot > 1 as is_end,
            row_number() over by_slot = 1 as is_first
        from _bench_drawn
        window by_slot as (partition by slot order by seq)
    """).createOrReplaceTempView("_bench_ends")
    forced = f"pmod(seq, {len(data)})"
    changed = ",\n".join(
        f"op in ('L', 'I') or (op in ('U', 'K') and ({_fraction_below(w, 'chg', w.changed, f'_h_{name}')}"
        f" or (op = 'U' and {forced} = {i}))) as _chg_{name}"
        for i, (name, _) in enumerate(data.items())
    )
    spark.sql(f"""
        select
            *,
            {changed}
        from (
            select
                *,
                case
                    when is_full_load then 'L'
                    when is_first or coalesce(lag(is_end) over by_slot, false) then 'I'
                    when is_end and end_is_key_change then 'K'
                    when is_end then 'D'
                    else 'U'
                end as op
            from _bench_ends
            window by_slot as (partition by slot order by seq)
        )
    """).createOrReplaceTempView("_bench_ops")
    carried = ",\n".join(
        f"last(case when _chg_{name} then named_struct('v', case when not "
        + _fraction_below(w, "null", w.nulls, f"_h_{name}")
        + f" then {_value(dtype, f'_h_{name}')} end) end, true)"
        f" over (partition by slot order by seq rows between unbounded preceding and current row).v as {name}"
        for name, dtype in data.items()
    )
    spark.sql(f"""
        select
            slot, seq, op, is_full_load,
            {", ".join(f"_chg_{name}" for name in data)},
            {carried}
        from _bench_ops
    """).createOrReplaceTempView("_bench_images")
    before = ",\n".join(f"lag({name}) over by_slot as before_{name}" for name in data)
    tx = f"floor(seq / {w.transaction_size})"
    late_from = w.main_changes - round(w.main_changes * w.late_window)
    late_share = min(1.0, w.late / max(w.late_window, 1e-9))
    frame = spark.sql(f"""
        select
            slot,
            seq,
            op,
            case when op = 'K' then {slots} + seq else slot end as id,
            slot as old_id,
            case when seq >= 0 then {tx} end as tx,
            case when seq >= 0 then timestamp'{EPOCH}' + make_dt_interval(0, 0, 0, {tx} * 0.04) end
                as committed_at,
            seq >= {w.main_changes}
                or (seq >= {late_from} and {_fraction_below(w, "late", late_share)})
                as is_increment,
            array({", ".join(f"_chg_{name}" for name in data)}) as changed_flags,
            {", ".join(data)},
            {before}
        from _bench_images
        window by_slot as (partition by slot order by seq)
    """)
    return frame


# -------------------------------------------------------------------- Qlik __ct


def qlik_ct_rows(spark, workload: Workload, stream):
    """The change table's rows (reference 001) of the changes in ``stream``:
    I, U with its B before image (same change_seq), D with the deleted row, a
    key change as a U whose before image has the old key. The mask's bit N is
    the change table's column N (the headers are bits 0-6)."""
    data = list(workload.data_columns)
    stream.createOrReplaceTempView("_bench_stream")
    headers = ["false"] * len(HEADER_COLUMNS)
    changed_mask = mask_hex_sql([*headers, "op = 'K'", *(f"changed_flags[{i}]" for i in range(len(data)))])
    all_set = mask_hex_sql([*headers, *(["true"] * (1 + len(data)))])
    change_seq = (
        "concat(date_format(committed_at, 'yyyyMMddHHmmss'), "
        "lpad(cast(floor(date_part('SECOND', committed_at) * 100) % 100 as string), 2, '0'), "
        "lpad(cast(seq + 1 as string), 19, '0'))"
    )
    before_images = f"""
        select
            seq, tx, committed_at, 'B' as change_oper, '' as mask, 0 as row_order,
            old_id as id, {", ".join(f"before_{c} as {c}" for c in data)}
        from _bench_stream
        where op in ('U', 'K')
    """
    changes = f"""
        select
            seq, tx, committed_at,
            case op when 'K' then 'U' else op end as change_oper,
            case when op in ('I', 'D') then {all_set} else {changed_mask} end as mask,
            1 as row_order,
            id,
            {", ".join(data)}
        from _bench_stream
        where op in ('I', 'U', 'D', 'K')
    """
    return spark.sql(f"""
        select
            {change_seq} as header__change_seq,
            change_oper as header__change_oper,
            unhex(mask) as header__change_mask,
            concat('0000', lpad(hex(seq + 1), 12, '0')) as header__stream_position,
            case change_oper
                when 'I' then 'INSERT' when 'U' then 'UPDATE' when 'D' then 'DELETE' else 'BEFOREIMAGE'
            end as header__operation,
            lpad(hex(tx + 1), 32, '0') as header__transaction_id,
            committed_at as header__timestamp,
            id,
            {", ".join(data)},
            seq as _seq,
            row_order as _row_order
        from ({before_images} union all {changes})
    """)


# ------------------------------------------------------------------ landing


def _write(frame, path: Path, rows_hint: int, order: list[str]) -> None:
    files = max(1, rows_hint // ROWS_PER_FILE)
    (
        frame.repartitionByRange(files, *order)
        .sortWithinPartitions(*order)
        .drop(*[c for c in order if c.startswith("_")])
        .write.mode("append")
        .parquet(str(path))
    )


def _set_landing_times(spark, path: Path, time_column: str, ends_at: float) -> None:
    """Give the files of ``path`` landing times (mtimes) that follow their last
    commit time (``time_column``), the newest landing at ``ends_at`` (epoch seconds)."""
    last_commits = {
        row[0]: row[1].timestamp()
        for row in spark.read.parquet(str(path))
        .selectExpr("_metadata.file_path as file", f"{time_column} as committed")
        .groupBy("file")
        .agg({"committed": "max"})
        .collect()
    }
    newest = max(last_commits.values())
    for file, committed in last_commits.items():
        landed = ends_at - (newest - committed)
        os.utime(file.removeprefix("file:"), (landed, landed))


def landed_rows(spark, workload: Workload, stream, source_format: str, batch: str) -> list[tuple]:
    """(raw table, rows, ordering columns, about how many rows, commit-time column)
    of ``batch`` in ``source_format``; the full load is in the main batch."""
    main = batch == "main"
    changes = stream.where("op <> 'L' and " + ("not is_increment" if main else "is_increment"))
    with_full_load = stream.where("op = 'L' or not is_increment") if main else changes
    size = workload.main_changes if main else workload.changes - workload.main_changes
    raw = RAW_TABLES[source_format]
    if source_format == "qlik_ct":
        tables = [
            (
                raw[0],
                qlik_ct_rows(spark, workload, changes),
                ["_seq", "_row_order"],
                size * 2,
                "header__timestamp",
            )
        ]
        if main:
            loaded = stream.where("op = 'L'").select("id", *workload.data_columns)
            tables.append((raw[1], loaded.withColumn("_id", loaded["id"]), ["_id"], workload.key_slots, None))
        return tables
    if source_format == "qlik_kafka":
        rows, order = formats.qlik_kafka_messages(spark, workload, with_full_load, with_metadata=main)
        return [(raw[0], rows, order, size, "timestamp")]
    if source_format == "debezium":
        rows, order = formats.debezium_events(spark, workload, with_full_load)
        return [(raw[0], rows, order, size * 2, "timestamp")]
    rows, order = formats.dirxml_event_log(spark, workload, with_full_load)
    return [(raw[0], rows, order, size * 5, "event_time")]


def land(
    spark, workload: Workload, out: Path, batch: str, schema: str | None = None, source_formats=("qlik_ct",)
) -> dict:
    """Write ``batch`` ('main': the full load and the changes before the
    increment; 'increment') of each of ``source_formats`` under ``out/raw``;
    register the tables in ``schema`` when given. Returns the rows per table."""
    if batch not in ("main", "increment"):
        raise ValueError(f"batch is 'main' or 'increment', got {batch!r}")
    unknown = set(source_formats) - set(FORMATS)
    if unknown:
        raise ValueError(f"unknown formats {sorted(unknown)}; expected some of {', '.join(FORMATS)}")
    raw = out / "raw"
    stream = _stream(spark, workload, out / "stream", batch)
    landed_until = time.time() - LANDED_BEFORE_NOW_S
    written = {}
    for source_format in source_formats:
        first = raw / RAW_TABLES[source_format][0]
        if batch == "main" and first.exists():
            raise FileExistsError(f"{first} exists: land the main batch into an empty directory")
        if batch == "increment" and not first.exists():
            raise FileNotFoundError(f"{first} does not exist: land the main batch first")
        tables = landed_rows(spark, workload, stream, source_format, batch)
        for table, rows, order, size, time_column in tables:
            _write(rows, raw / table, size, order)
            if batch == "main" and time_column:
                _set_landing_times(spark, raw / table, time_column, landed_until)
        for table, _, _, _, time_column in tables:
            if batch == "main" and time_column is None:
                # a full-load table lands before the first change
                first_landing = min(p.stat().st_mtime for p in (raw / tables[0][0]).glob("*.parquet")) - 60
                for file in (raw / table).glob("*.parquet"):
                    os.utime(file, (first_landing, first_landing))
            written[table] = spark.read.parquet(str(raw / table)).count()
            if schema:
                register(spark, schema, table, raw / table)
    if batch == "increment":
        write_truth(spark, stream, workload, out / "truth" / "current")
    return written


def register_landed(spark, out: Path, schema: str, source_formats=("qlik_ct",)) -> dict:
    """Register the raw tables of ``source_formats`` already under ``out/raw``
    (the main batch another run landed: bench.run's adopt) in ``schema``, as
    ``land`` does. Returns the rows per table."""
    registered = {}
    for source_format in source_formats:
        for table in RAW_TABLES[source_format]:
            path = out / "raw" / table
            if not path.exists():
                raise FileNotFoundError(f"{path} does not exist: nothing landed to register")
            register(spark, schema, table, path)
            registered[table] = spark.read.parquet(str(path)).count()
    return registered


def _stream(spark, workload: Workload, path: Path, batch: str):
    """The change stream, computed once (with the main batch) and kept at
    ``path``: every format and the increment read it instead of recomputing its
    window functions over the whole history."""
    if batch == "main" or not path.exists():
        events(spark, workload).write.mode("overwrite").parquet(str(path))
    return spark.read.parquet(str(path))


def register(spark, schema: str, table: str, path: Path) -> None:
    spark.sql(f"create database if not exists {schema}")
    spark.sql(f"create table if not exists {schema}.{table} using parquet location '{path}'")
    spark.sql(f"refresh table {schema}.{table}")


def write_truth(spark, stream, workload: Workload, path: Path) -> None:
    """The source table after every change: per key, its last change unless that
    deleted it (a key change deletes the old key and inserts the new one)."""
    stream.createOrReplaceTempView("_bench_all")
    columns = ", ".join(["id", *workload.data_columns])
    spark.sql(f"""
        select {columns}
        from (
            select *, row_number() over (partition by id order by seq desc) as newest_first
            from (
                select {columns}, seq, op from _bench_all where op <> 'K'
                union all
                select {columns}, seq, 'I' as op from _bench_all where op = 'K'
                union all
                select old_id as id, {", ".join(workload.data_columns)}, seq, 'D' as op
                from _bench_all where op = 'K'
            )
        )
        where newest_first = 1 and op <> 'D'
    """).write.mode("overwrite").parquet(str(path))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m testkit.workload", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="directory for raw/ and truth/")
    parser.add_argument("--batch", choices=["main", "increment"], default="main")
    parser.add_argument("--state-dir", type=Path, help="register the raw tables in this cdcflow state dir")
    parser.add_argument("--schema", default="bench_raw", help="schema of the raw tables (with --state-dir)")
    parser.add_argument("--formats", default="qlik_ct", help=f"comma-separated, of: {', '.join(FORMATS)}")
    parser.add_argument(
        "--register-only",
        action="store_true",
        help="register the main batch already under --out/raw (left by another run) instead of landing it",
    )
    for field, default in asdict(Workload()).items():
        parser.add_argument(f"--{field.replace('_', '-')}", type=type(default), default=default)
    args = parser.parse_args(argv)
    workload = Workload(**{field: getattr(args, field) for field in asdict(Workload())})
    from launcher.spark import build_session

    state_dir = args.state_dir or (args.out / "generator-state")
    if args.register_only and (not args.state_dir or args.batch != "main"):
        parser.error("--register-only registers the main batch in --state-dir")
    spark = build_session(state_dir=state_dir, app_name="cdcflow-bench-workload")
    if args.register_only:
        registered = register_landed(spark, args.out.resolve(), args.schema, args.formats.split(","))
        print(json.dumps({"workload": asdict(workload), "batch": "main", "registered": True, **registered}))
        return 0
    written = land(
        spark,
        workload,
        args.out.resolve(),
        args.batch,
        args.schema if args.state_dir else None,
        source_formats=args.formats.split(","),
    )
    print(json.dumps({"workload": asdict(workload), "batch": args.batch, **written}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
