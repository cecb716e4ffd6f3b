"""Check the pipeline's tables against the hand-written baseline's and the
source table's truth, and time change-mask decoding (native SQL vs Python UDF),
in one session on the benchmark's state dir.

    python -m bench.check --state-dir S --project-dir P --vars V --formats F,..
        --baseline DIR [--build-baseline-from RAW] [--truth DIR] [--decode]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from testkit.workload import FORMATS, KEY, TABLE, table_name


def _difference(spark, left: str, right: str) -> dict:
    """Whether two queries give the same multiset of rows: their counts, and the
    rows of each whose hash the other lacks (one aggregation per side, no shuffle
    of the rows themselves)."""

    def hashes(sql: str):
        return spark.sql(
            "select row_hash, count(*) as copies"
            f" from (select xxhash64(*) as row_hash from ({sql})) group by row_hash"
        )

    a, b = hashes(left), hashes(right)
    a.createOrReplaceTempView("_bench_left")
    b.createOrReplaceTempView("_bench_right")
    counts = spark.sql("""
        select
            (select coalesce(sum(copies), 0) from _bench_left) as rows,
            (select coalesce(sum(copies), 0) from _bench_right) as expected_rows,
            coalesce(sum(greatest(coalesce(l.copies, 0) - coalesce(r.copies, 0), 0)), 0) as unexpected,
            coalesce(sum(greatest(coalesce(r.copies, 0) - coalesce(l.copies, 0), 0)), 0) as missing
        from _bench_left as l
        full outer join _bench_right as r on l.row_hash = r.row_hash
    """).collect()[0]
    return counts.asDict()


# The version's identifiers (ordering value, transaction id) are each format's
# own (Qlik change_seq, Debezium LSNs, DirXML record ids): the baseline, built
# from the __ct stream, carries __ct's. Every format is compared on the columns
# it shares with it; DirXML's log has no commit times of the source, so its
# _current is compared on the table's columns.
HISTORY_SHARED = ["operation", "valid_from", "valid_to", "closed_by_operation", "is_current"]
IDENTIFIERS = ["change_order", "valid_to_change_order", "transaction_id"]


def compared_columns(source_format: str, columns: list[str]) -> tuple[list[str] | None, list[str]]:
    """(history columns or None, _current columns) compared with the baseline."""
    if source_format == "dirxml":
        return None, columns
    # Debezium's changed_columns are the values that differ (a mask may also name an unchanged one)
    changed = [] if source_format == "debezium" else ["changed_columns"]
    identifiers = IDENTIFIERS if source_format == "qlik_ct" else []
    history = [*columns, *HISTORY_SHARED, *identifiers, *changed]
    current = [*columns, "last_operation", "last_changed_at"]
    if source_format == "qlik_ct":
        current += ["last_change_order", "last_transaction_id"]
    return history, current


def compare(
    spark,
    schema: str,
    baseline: Path | None,
    truth: Path | None,
    columns: list[str],
    source_formats: list[str],
    baseline_format: str = "parquet",
) -> dict:
    """Named checks (``<format>_<table>_vs_<reference>``) of each format's tables
    (the baseline's written in ``baseline_format``)."""
    checks = {}
    for source_format in source_formats:
        table = f"{schema}.{table_name(source_format)}"
        history, current = compared_columns(source_format, columns)
        if baseline and history:
            checks[f"{source_format}_history_vs_baseline"] = _difference(
                spark,
                f"select {', '.join(history)} from {table}_history",
                f"select {', '.join(history)} from {baseline_format}.`{baseline / 'history'}`",
            )
        if baseline:
            checks[f"{source_format}_current_vs_baseline"] = _difference(
                spark,
                f"select {', '.join(current)} from {table}_current",
                f"select {', '.join(current)} from {baseline_format}.`{baseline / 'current'}`",
            )
        if truth:
            checks[f"{source_format}_current_vs_source_table"] = _difference(
                spark,
                f"select {', '.join(columns)} from {table}_current",
                f"select {', '.join(columns)} from parquet.`{truth}`",
            )
    return checks


def _compiled(state_dir: Path, project_dir: Path, sql: str, dbt_vars: str) -> str:
    from launcher.dbt_invoke import invoke_dbt

    result = invoke_dbt(
        ["compile", "--inline", sql, "--vars", dbt_vars], state_dir=state_dir, project_dir=project_dir
    )
    if not result.success:
        raise RuntimeError(f"dbt compile failed: {result.exception}")
    return result.result.results[0].node.compiled_code


def time_mask_decoding(spark, state_dir: Path, project_dir: Path, dbt_vars: str, columns: list[str]) -> dict:
    """Decode every change mask of the change table with each decoder (the
    macros as the models call them); seconds each and the UDF/native ratio."""
    template = (
        "select count(*) as masks, sum(size({{ cdcflow.decode_change_mask_%s('header__change_mask', "
        + json.dumps(columns)
        + ", 7) }})) as changed_columns from {{ source('qlik_ct', '"
        + TABLE
        + "__ct') }}"
    )
    spark.sql(
        _compiled(
            state_dir,
            project_dir,
            "select count(*) from {{ source('qlik_ct', '" + TABLE + "__ct') }}",
            dbt_vars,
        )
    ).collect()  # warm the file listing
    timings, answers = {}, {}
    for decoder in ("native", "udf"):
        sql = _compiled(state_dir, project_dir, template % decoder, dbt_vars)
        started = time.monotonic()
        answers[decoder] = tuple(spark.sql(sql).collect()[0])
        timings[decoder] = round(time.monotonic() - started, 2)
    if answers["native"] != answers["udf"]:
        raise AssertionError(f"the decoders disagree: {answers}")
    return {
        "masks": answers["native"][0],
        "native_s": timings["native"],
        "udf_s": timings["udf"],
        "udf_over_native": round(timings["udf"] / max(timings["native"], 0.01), 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.check", description=__doc__.splitlines()[0])
    parser.add_argument("--state-dir", type=Path, required=True)
    parser.add_argument("--project-dir", type=Path, required=True)
    parser.add_argument("--vars", required=True, help="the dbt --vars of the benchmark's runs")
    parser.add_argument("--schema", default="bench")
    parser.add_argument("--columns", required=True, help="JSON list of the table's columns")
    parser.add_argument("--baseline", type=Path, help="the baseline's output folder")
    parser.add_argument(
        "--build-baseline-from",
        type=Path,
        help="build the baseline first (bench/baseline.py, in this session) from this raw folder",
    )
    parser.add_argument("--truth", type=Path, help="the source table's current rows (parquet)")
    parser.add_argument(
        "--formats", default="qlik_ct", help=f"comma-separated formats to check, of: {', '.join(FORMATS)}"
    )
    parser.add_argument("--decode", action="store_true", help="also time the two change-mask decoders")
    args = parser.parse_args(argv)
    if args.build_baseline_from and not args.baseline:
        parser.error("--build-baseline-from needs --baseline (the folder to build it in)")
    from launcher.spark import build_session
    from launcher.table_format import project_table_format

    os.environ["CDCFLOW_SCHEMA"] = args.schema
    # the session of the runs' table format; the baseline is written in it too (parquet
    # beside Iceberg: a baseline's tables are folders)
    table_format = project_table_format(args.project_dir, args.vars)
    baseline_format = "delta" if table_format == "delta" else "parquet"
    spark = build_session(state_dir=args.state_dir, app_name="cdcflow-bench-check", table_format=table_format)
    columns = json.loads(args.columns)
    if args.build_baseline_from:
        from bench import baseline

        baseline.build(spark, args.build_baseline_from, args.baseline, TABLE, columns, KEY, baseline_format)
    source_formats = [f for f in args.formats.split(",") if f]
    report = {
        "checks": compare(
            spark, args.schema, args.baseline, args.truth, columns, source_formats, baseline_format
        )
    }
    if args.decode:
        report["mask_decoding"] = time_mask_decoding(
            spark, args.state_dir, args.project_dir, args.vars, columns
        )
    print("BENCH_CHECK " + json.dumps(report))
    failed = [name for name, c in report["checks"].items() if c["unexpected"] or c["missing"]]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
