"""The floor the pipeline is measured against: a hand-written PySpark job that
computes the same ``_history`` and ``_current`` tables from the same Qlik
``__ct`` change table and full-load table, directly with DataFrame operations
— no dbt, no incremental bookkeeping, no quarantine, no processing ranges. It
knows this feed: no second deliveries, no 1970 placeholder timestamps. It
writes the table format the pipeline is measured in (--table-format: delta or
parquet; Iceberg's tables need a catalog, not a folder).

    python -m bench.baseline --raw DIR --out DIR --columns JSON [--table-format delta]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pyspark.sql import Column, DataFrame, SparkSession, Window
from pyspark.sql import functions as F

from testkit.workload import KEY, TABLE

HEADERS = 7  # the change table's header columns: the first data column is bit 7


def _bit_is_set(mask: Column, bit: int) -> Column:
    byte = F.conv(F.hex(F.substring(mask, bit // 8 + 1, 1)), 16, 10).cast("int")
    return (F.coalesce(byte, F.lit(0)).bitwiseAND(1 << (bit % 8))) != 0


def versions(change_table: DataFrame, full_load: DataFrame, columns: list[str], key: str) -> DataFrame:
    """Every version of every key, with its validity (deletes included)."""
    data = [c for c in columns if c != key]
    mask = F.col("header__change_mask")
    changed = F.filter(
        F.array(*[F.when(_bit_is_set(mask, HEADERS + i), F.lit(c)) for i, c in enumerate(columns)]),
        lambda c: c.isNotNull(),
    )
    changes = change_table.where(F.col("header__change_oper").isin("I", "U", "D"))
    before_keys = change_table.where(F.col("header__change_oper") == "B").select(
        "header__change_seq", F.col(key).alias("before_key")
    )
    paired = changes.join(before_keys, "header__change_seq", "left").select(
        *columns,
        F.col("header__change_oper").alias("operation"),
        F.col("header__change_seq").alias("change_seq"),
        F.col("header__timestamp").alias("committed_at"),
        F.col("header__transaction_id").alias("transaction_id"),
        changed.alias("changed_columns"),
        (F.col("before_key").isNotNull() & (F.col("before_key") != F.col(key))).alias("is_key_change"),
        "before_key",
    )
    all_columns = F.array(*[F.lit(c) for c in columns])
    event = ["operation", "change_order", "committed_at", "transaction_id", "changed_columns"]
    kept = paired.where(~F.col("is_key_change")).withColumn(
        "change_order", F.concat("change_seq", F.lit("0"))
    )
    moved = paired.where("is_key_change")
    old_key_deleted = moved.select(
        F.col("before_key").alias(key),
        *[F.lit(None).alias(c) for c in data],
        F.lit("D").alias("operation"),
        F.concat("change_seq", F.lit("1")).alias("change_order"),
        "committed_at",
        "transaction_id",
        F.array(F.lit(key)).alias("changed_columns"),
    )
    new_key_inserted = moved.select(
        *columns,
        F.lit("I").alias("operation"),
        F.concat("change_seq", F.lit("0")).alias("change_order"),
        "committed_at",
        "transaction_id",
        all_columns.alias("changed_columns"),
    )
    loaded = full_load.select(
        *columns,
        F.lit("L").alias("operation"),
        F.lit("0" * 36).alias("change_order"),
        F.lit(None).cast("timestamp").alias("committed_at"),
        F.lit(None).cast("string").alias("transaction_id"),
        all_columns.alias("changed_columns"),
    )
    every_change = (
        kept.select(*columns, *event)
        .unionByName(old_key_deleted.select(*columns, *event), allowMissingColumns=False)
        .unionByName(new_key_inserted.select(*columns, *event))
        .unionByName(loaded.select(*columns, *event))
    )
    by_key = Window.partitionBy(key).orderBy("change_order")
    is_delete = F.col("operation") == "D"
    return every_change.select(
        key,
        *[F.when(~is_delete, F.col(c)).alias(c) for c in data],
        "operation",
        "change_order",
        F.col("committed_at").alias("valid_from"),
        F.lead("committed_at").over(by_key).alias("valid_to"),
        F.lead("change_order").over(by_key).alias("valid_to_change_order"),
        F.lead("operation").over(by_key).alias("closed_by_operation"),
        (F.lead("change_order").over(by_key).isNull() & ~is_delete).alias("is_current"),
        "transaction_id",
        "changed_columns",
    )


BASELINE_FORMATS = ("delta", "parquet")


def build(
    spark: SparkSession,
    raw: Path,
    out: Path,
    table: str,
    columns: list[str],
    key: str,
    table_format: str = "parquet",
) -> dict:
    """history/ and current/ in ``out``, written in ``table_format`` (delta, parquet)."""
    change_table = spark.read.parquet(str(raw / f"{table}__ct"))
    full_load = spark.read.parquet(str(raw / table))
    every_version = versions(change_table, full_load, columns, key).cache()
    history = every_version.where(F.col("operation") != "D")
    current = every_version.where("is_current").select(
        *columns,
        F.col("operation").alias("last_operation"),
        F.col("change_order").alias("last_change_order"),
        F.col("valid_from").alias("last_changed_at"),
        F.col("transaction_id").alias("last_transaction_id"),
    )
    history.write.format(table_format).mode("overwrite").save(str(out / "history"))
    current.write.format(table_format).mode("overwrite").save(str(out / "current"))
    every_version.unpersist()
    return {"history_rows": spark.read.format(table_format).load(str(out / "history")).count()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.baseline", description=__doc__.splitlines()[0])
    parser.add_argument("--raw", type=Path, required=True, help="folder holding <table>__ct and <table>")
    parser.add_argument("--out", type=Path, required=True, help="folder for history/ and current/")
    parser.add_argument("--table", default=TABLE)
    parser.add_argument("--columns", required=True, help="JSON list of the table's columns, in order")
    parser.add_argument("--key", default=KEY)
    parser.add_argument("--table-format", choices=BASELINE_FORMATS, default="parquet")
    args = parser.parse_args(argv)
    from launcher.spark import spark_conf
    from launcher.table_format import session_settings

    builder = SparkSession.builder.master("local[*]").appName("cdcflow-bench-baseline")
    conf = {**spark_conf(args.out / "spark-state"), **session_settings(args.table_format)}
    for name, value in conf.items():
        builder = builder.config(name, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    built = build(
        spark, args.raw, args.out, args.table, json.loads(args.columns), args.key, args.table_format
    )
    print(json.dumps(built))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
