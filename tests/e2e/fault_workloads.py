"""The workloads of the kill sweep (test_fault_injection, run by fault_worker):
what each lands per batch, the project and selection its runs build, the models
and partition writes it is killed in, and the tables compared after a kill.

* ``qlik_ct``: integration_tests/' Qlik `__ct` tables it_customers and
  it_order_lines (full load, then two batches of changes; batch 2 has late
  changes for old keys and replays).
* ``formats``: the cross-format equivalence's source table written in all four
  formats (tests/e2e/equivalence.py): batch 2 lands late transactions,
  second deliveries, the rest of a Qlik Kafka transaction held back since
  batch 1, every bad input of the census (bad_inputs.py) and the seeded fuzz's
  corrupted copies of batch 1's rows (fuzz_inputs.py); DirXML's outcomes
  are its memory of what it processed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from launcher import onboard
from tests.e2e import bad_inputs, equivalence, fuzz_inputs
from tests.e2e.helpers import (
    INTEGRATION_DIR,
    current_columns,
    history_columns,
    load_raw,
    make_project,
    read_seed,
    spark_rows,
)
from tests.e2e.qlik_ct_batches import BATCH_1, BATCH_2

# JSON events on stdout, the SQL statements (debug) included: the kill points
LOG_ARGS = ["--log-format", "json", "--log-level", "debug"]
QUARANTINE_COLUMNS = ["source_table", "raw_table", "reason", "raw_row"]

Point = tuple[str, str, float]


@dataclass(frozen=True)
class Workload:
    name: str
    schema: str
    groups: list[str]
    models: list[str]  # killed during each (1 s in), and before and after each when `around_models`
    versioned: list[str]  # and inside each one's partition write
    fast_points: list[Point]  # the subset CI runs (parquet)
    dbt_args: list[str]
    land: Callable  # (spark, raw schema, batch name)
    dump: Callable  # (spark, schema) -> {table: rows}
    project: Callable[[Path], Path]  # the dbt project, made under a scratch folder
    around_models: bool = True
    # what the clean run of batch 2 also answers, for the tests that share it:
    # (spark, schema, compile: Jinja SQL -> SQL) -> {name: rows}; not compared by the sweep
    checks: Callable | None = None
    fast_merge_points: list[Point] = field(default_factory=list)  # the subset CI runs on Delta Lake
    # what an analyst reads during a run (fault_worker --watch): (spark, schema) -> {table: rows}
    watch: Callable | None = None

    def points(self, sweep: bool, table_format: str = "parquet") -> list[Point]:
        """The kill points on ``table_format``. On Delta Lake and Iceberg a chain is
        written by one MERGE, whose commit is atomic: one point inside each
        (`commit`: its data files written, its commit not yet) replaces parquet's
        two inside each partition overwrite (one of them with the open partitions
        lost, which a commit cannot leave)."""
        if not sweep:
            return self.fast_points if table_format == "parquet" else self.fast_merge_points
        around = [(event, model, 0.0) for model in self.models for event in ("start", "end")]
        writes = ("overwrite", "overwrite-damaged") if table_format == "parquet" else ("commit",)
        return (
            [("hook", "on-run-start", 0.0), ("hook", "on-run-end", 0.0)]
            + (around if self.around_models else [])
            + [("start", model, 1.0) for model in self.models]
            + [(kind, model, 0.0) for model in self.versioned for kind in writes]
        )


def _states(spark, schema: str) -> list[list[str]]:
    return [
        list(row)
        for row in spark.sql(
            f"select name, state_name, state from {schema}.cdc_states_log order by state_seq"
        ).collect()
    ]


# -- qlik_ct -------------------------------------------------------------------

QLIK_CT_BATCHES = {
    "1": {"it_customers": read_seed("customers"), "it_order_lines": read_seed("order_lines"), **BATCH_1},
    "2": BATCH_2,
}
QLIK_CT_LOG_COLUMNS = {
    "customers": ["customer_id", "operation", "change_order", "email"],
    "order_lines": ["order_id", "line_no", "operation", "change_order", "quantity"],
}


def _land_qlik_ct(spark, raw_schema: str, batch: str) -> None:
    """Land a batch (table -> CSV rows) the way Replicate does (new files)."""
    for table, rows in QLIK_CT_BATCHES[batch].items():
        load_raw(spark, raw_schema, table, rows, change_table=table.endswith("__ct"))


def _dump_qlik_ct(spark, schema: str) -> dict[str, list]:
    """The marts, the change logs (every row: a change logged twice shows), the
    quarantine and each group's recorded states."""
    tables = {}
    for table in ("customers", "order_lines"):
        name = f"it_{table}"
        tables[f"{name}_history"] = spark_rows(spark, f"{schema}.{name}_history", history_columns(table))
        tables[f"{name}_current"] = spark_rows(spark, f"{schema}.{name}_current", current_columns(table))
        tables[f"{name}_log"] = spark_rows(
            spark, f"{schema}.int_{name}__changes_logged", QLIK_CT_LOG_COLUMNS[table]
        )
    tables["qlik_ct_quarantine"] = spark_rows(
        spark, f"{schema}.qlik_ct_quarantine", ["source_table", "change_seq", "reason", "raw_row"]
    )
    tables["states"] = _states(spark, schema)
    return tables


def _provider(spark, relation: str) -> str:
    """The table format of ``relation`` (its Provider, lower case), or ``view``."""
    details = {row[0]: row[1] for row in spark.sql(f"describe table extended {relation}").collect()}
    return "view" if details.get("Type") == "VIEW" else str(details.get("Provider")).lower()


QLIK_CT = Workload(
    name="qlik_ct",
    schema="fault",
    groups=["it_customers", "it_order_lines"],
    models=[
        "int_it_customers__before_images_waiting",
        "int_it_order_lines__before_images_waiting",
        "int_it_customers__changes_logged",
        "int_it_order_lines__changes_logged",
        "qlik_ct_quarantine",
        "int_it_customers__versioned",
        "int_it_order_lines__versioned",
        "it_customers_current",
        "it_customers_history",
        "it_order_lines_current",
        "it_order_lines_history",
    ],
    versioned=["int_it_customers__versioned", "int_it_order_lines__versioned"],
    # CI's parquet point: lost open partitions inside the last chain's overwrite (the
    # redo builds the chain beside the table and swaps it in); the formats workload's
    # runs on parquet are the flag's (CDCFLOW_EVERY_TABLE_FORMAT=1)
    fast_points=[("overwrite-damaged", "int_it_order_lines__versioned", 0.0)],
    # CI's Delta Lake point: inside the last chain's MERGE, before its commit (a
    # run of 11 models: the formats workload's 31 took about 400 s of a CI worker
    # to kill and redo; its merge points are the sweep's, CDCFLOW_FAULT_SWEEP=1)
    fast_merge_points=[("commit", "int_it_order_lines__versioned", 0.0)],
    dbt_args=["run", *LOG_ARGS, "--select", "source:qlik_ct+"],
    land=_land_qlik_ct,
    dump=_dump_qlik_ct,
    project=lambda _scratch: INTEGRATION_DIR,
)


# -- every format ----------------------------------------------------------------

FORMAT_TABLES = equivalence._tables()
# the models the package builds for the formats, shared by their tables
FORMAT_SHARED_MODELS = [
    "base_qlik_kafka__parsed_messages",
    "int_qlik_kafka__table_versions",
    "base_debezium__parsed_events",
    "dirxml_event_outcomes",
    "qlik_ct_quarantine",
    "qlik_kafka_quarantine",
    "debezium_quarantine",
    "dirxml_quarantine",
]
# the kill points are at models dbt starts: an ephemeral model (inlined) never starts
FORMAT_TABLE_MODELS = [
    Path(path).stem
    for name, entry in sorted(FORMAT_TABLES.items())
    for table in [onboard._table(name, entry)]
    for path in onboard.model_bodies(table)
    if Path(path).stem not in onboard.inlined_models(table)
]


def _land_formats(spark, raw_schema: str, batch: str) -> None:
    # the equivalence's raw schema (its vars name it); the worker's metastore is its own
    del raw_schema
    if batch == "1":
        equivalence._land(spark, equivalence.BATCH_1, first=True, offset=0)
    else:
        equivalence._land(spark, equivalence.BATCH_2, first=False, offset=100_000)
        bad_inputs.land(spark, equivalence._append)  # the census, next to the valid rows
        fuzz_inputs.land(spark, equivalence._append)  # corrupted copies of batch 1's rows


def _dump_formats(spark, schema: str) -> dict[str, list]:
    """Per table the marts and the change log (every row); the four quarantines,
    DirXML's outcomes and each group's recorded states."""
    tables = {}
    for table in FORMAT_TABLES:
        tables[f"{table}_history"] = spark_rows(
            spark, f"{schema}.{table}_history", [*equivalence.HISTORY, "change_order"]
        )
        tables[f"{table}_current"] = spark_rows(spark, f"{schema}.{table}_current", equivalence.CURRENT)
        tables[f"{table}_log"] = spark_rows(spark, f"{schema}.int_{table}__changes_logged", equivalence.LOG)
    for quarantine in (
        "qlik_ct_quarantine",
        "qlik_kafka_quarantine",
        "debezium_quarantine",
        "dirxml_quarantine",
    ):
        tables[quarantine] = spark_rows(spark, f"{schema}.{quarantine}", QUARANTINE_COLUMNS)
    tables["dirxml_event_outcomes"] = spark_rows(
        spark, f"{schema}.dirxml_event_outcomes", ["record_id", "status", "reason"]
    )
    tables["states"] = _states(spark, schema)
    tables["providers"] = [
        [relation, _provider(spark, f"{schema}.{relation}")]
        for table in sorted(FORMAT_TABLES)
        for relation in (f"int_{table}__changes_logged", f"int_{table}__versioned", f"{table}_current")
    ]
    return tables


def _watch_formats(spark, schema: str) -> dict[str, list]:
    """Two tables' _history and _current, as the dump reads them."""
    return {
        name: spark_rows(spark, f"{schema}.{name}", columns)
        for table in ("eq_ct", "eq_dirxml")
        for name, columns in (
            (f"{table}_history", [*equivalence.HISTORY, "change_order"]),
            (f"{table}_current", equivalence.CURRENT),
        )
    }


# the queries of the checks, compiled by one dbt compile (a statement each)
NEXT_QUERY = "\n;\n-- next query\n"


def _checks(spark, schema: str, compile_sql: Callable[[str], str]) -> dict[str, list]:
    """What the equivalence asks of the marts besides their rows: the point-in-time
    macros and the versions of tracked columns (their queries compiled at once).
    The marts the queries read are cached first (Spark's cache: the same rows, read
    from memory): the point-in-time query reads each table's _history 15 times (its
    87 unions, each with its own Delta scan and shuffles) and took 119 s of a CI
    worker's run alone (planned 25 s, run 94 s); with the four _history views cached,
    19 s, caching included (the formats workload on Delta Lake, the machine alone)."""
    point_in_time, tracked = compile_sql(_point_in_time_query() + NEXT_QUERY + _tracked_query()).split(
        NEXT_QUERY.strip()
    )
    for table in sorted(FORMAT_TABLES):
        spark.sql(f"cache table {schema}.{table}_history")
    spark.sql(point_in_time.strip().rstrip(";")).createOrReplaceTempView("_cdcflow_point_in_time")
    spark.sql(tracked.strip()).createOrReplaceTempView("_cdcflow_tracked")
    names = [
        "source_table",
        "query",
        "instant",
        *equivalence.ch.COLUMNS,
        "operation",
        "change_order",
        "committed_at",
    ]
    return {
        "point_in_time": spark_rows(spark, "_cdcflow_point_in_time", names),
        "tracked_history": spark_rows(
            spark, "_cdcflow_tracked", ["source_table", *equivalence.HISTORY, "change_order"]
        ),
    }


def _tracked_query() -> str:
    """Per table, its _history as track_history_columns: equivalence.TRACKED_COLUMNS would make
    it (the macro the history view calls, over the versions of every change)."""
    selects = []
    for table in sorted(FORMAT_TABLES):
        selects.append(
            f"{{% set cfg_{table} = cdcflow.table_config('{table}') %}}"
            f"{{% do cfg_{table}.update({{'history_columns': {equivalence.TRACKED_COLUMNS}}}) %}}"
            f"select '{table}' as source_table, {', '.join(equivalence.HISTORY)}, change_order from ("
            f"{{{{ cdcflow.fold_untracked_changes('(select * from ' ~ ref('{table}_history') ~ ')',"
            f" cfg_{table}) }}}}"
            ") as folded"
        )
    return "\nunion all\n".join(selects)


def _point_in_time_query() -> str:
    """Per table, cdcflow.as_of at each of the equivalence's instants and
    cdcflow.changes_between each instant and the next."""
    instants = equivalence.INSTANTS
    columns = ", ".join(f"`{c}`" for c in equivalence.ch.COLUMNS)
    selects = []
    for table in sorted(FORMAT_TABLES):
        for number, at in enumerate(instants):
            literal = f"\"timestamp'{at.isoformat(sep=' ')}'\""
            selects.append(
                f"select '{table}' as source_table, 'as_of' as query, {number} as instant, {columns},"
                " last_operation as operation, last_change_order as change_order,"
                f" last_changed_at as committed_at from {{{{ cdcflow.as_of('{table}', {literal}) }}}}"
            )
            if number + 1 < len(instants):
                after = f"\"timestamp'{instants[number + 1].isoformat(sep=' ')}'\""
                selects.append(
                    f"select '{table}', 'changes_between', {number}, {columns}, operation, change_order,"
                    f" committed_at from {{{{ cdcflow.changes_between('{table}', {literal}, {after}) }}}}"
                )
    return "\nunion all\n".join(selects)


FORMATS = Workload(
    name="formats",
    schema="fault_formats",
    groups=sorted(FORMAT_TABLES),
    models=[*FORMAT_SHARED_MODELS, *FORMAT_TABLE_MODELS],
    versioned=[f"int_{table}__versioned" for table in sorted(FORMAT_TABLES)],
    # on parquet, CI kills the qlik_ct workload's run (its points: the sweep's)
    fast_points=[],
    watch=_watch_formats,
    dbt_args=[
        "run",
        *LOG_ARGS,
        "--vars",
        json.dumps({"cdcflow_raw_schema": equivalence.RAW, "cdcflow_tables": FORMAT_TABLES}),
    ],
    land=_land_formats,
    dump=_dump_formats,
    project=lambda scratch: make_project(scratch, FORMAT_TABLES, {"cdcflow_raw_schema": equivalence.RAW}),
    checks=_checks,
    # a run of 31 models: killed during each (at its end when it takes less than
    # 1 s, which is also before the next), in its hooks and partition writes
    around_models=False,
)

WORKLOADS = {workload.name: workload for workload in (QLIK_CT, FORMATS)}
