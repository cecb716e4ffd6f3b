"""(b) Incremental: a first batch, a build; a second batch (late changes for old
keys, one re-opening a closed version, replayed rows, bad rows), an incremental
build -> identical to a full refresh over both batches (recorded:
tests/e2e/references.py), and no regression of current state. Raw tables are
written the way Replicate lands them (binary change_mask, one new set of files per
batch).

The project's default table format (Delta Lake) throughout; on parquet, whose
chain is merge-on-read, the same two runs with batch 1 landed long before the first
(`parquet_incremental`) and a run compacting (`compacted`, with CDCFLOW_FULL_SUITE=1:
tests/e2e/suite.py) give the same marts. Iceberg's incremental runs are the
cross-format equivalence's (it needs a session of its own)."""

import os
import time
from pathlib import Path

import pytest

from tests.e2e.helpers import (
    INTEGRATION_DIR,
    current_columns,
    history_columns,
    invoke_dbt_in,
    load_raw,
    read_seed,
    run_dbt,
    spark_rows,
    target_path,
)
from tests.e2e.qlik_ct_batches import BATCH_1, BATCH_2, ct_row
from tests.e2e.references import full_refresh
from tests.e2e.suite import full_suite_only

pytestmark = pytest.mark.spark

# the qlik_ct tables of integration_tests/ only: these raw schemas hold no Kafka landing
# tables; the data tests, not the dbt unit tests of the macros (test_integration_project.py
# runs those, on no raw data)
BUILD = (
    *("build", "--select", "source:qlik_ct+"),
    *("--exclude", "resource_type:seed", "resource_type:unit_test", "tag:exhaustive"),
)
# the models alone: the first of two runs (the second's data tests read its tables too)
RUN = ("run", "--select", "source:qlik_ct+")


MARTS = {
    "it_customers_history": history_columns("customers"),
    "it_customers_current": current_columns("customers"),
    "it_order_lines_history": history_columns("order_lines"),
    "it_order_lines_current": current_columns("order_lines"),
    "qlik_ct_quarantine": ["source_table", "change_seq", "reason", "raw_row"],
}


# the inc runs' chain and _current, a few rows, turn deletion vectors on at their first
# MERGE (a table turns them on once it holds vars.cdcflow_deletion_vectors_from_mb MB)
DELETION_VECTORS = "cdcflow_deletion_vectors_from_mb: 0"


def _dbt(state_dir, *args: str, schema: str) -> None:
    run_dbt(state_dir, *args, schema=schema, project_dir=INTEGRATION_DIR)


def _load(spark, raw_schema, batch):
    for table, rows in batch.items():
        load_raw(spark, raw_schema, table, rows, change_table=True)


def _load_full_load(spark, raw_schema):
    for table in ("customers", "order_lines"):
        load_raw(spark, raw_schema, f"it_{table}", read_seed(table), change_table=False)


@pytest.fixture(scope="module")
def incremental_and_full(spark, state_dir, integration_project):
    # incremental: batch 1, build, batch 2, build (the UDF decoder; the landing overlap
    # reads batch 1 again: its rows and the replayed ones must be caught by the
    # de-duplication). Both runs have the same vars: dbt parses the project again, in
    # full, when the vars change (tests/e2e/helpers.py, target_path)
    udf = f"{{cdcflow_raw_schema: inc_raw, cdcflow_mask_decoder: udf, {DELETION_VECTORS}}}"
    _load_full_load(spark, "inc_raw")
    _load(spark, "inc_raw", BATCH_1)
    _dbt(state_dir, *RUN, "--vars", udf, schema="inc")
    after_first = spark_rows(spark, "inc.it_customers_current", MARTS["it_customers_current"])
    quarantined_first = spark_rows(spark, "inc.qlik_ct_quarantine", ["change_seq"])
    _load(spark, "inc_raw", BATCH_2)
    args = (*BUILD, "--vars", udf)
    second = run_dbt(state_dir, *args, schema="inc", project_dir=INTEGRATION_DIR)
    # the second run's chain of it_customers: its query, and the statement that wrote it (the MERGE)
    [chain] = [r.node for r in second.result.results if r.node.name == "int_it_customers__versioned"]
    [written] = (target_path(state_dir, INTEGRATION_DIR, "inc", args) / "run").rglob(f"{chain.name}.sql")
    return spark, after_first, quarantined_first, (chain.compiled_code, written.read_text())


@pytest.fixture(scope="module")
def full(spark, state_dir, integration_project):
    """The marts of a full refresh (with its data tests) over both batches landed at
    once: recorded (tests/e2e/references.py), built with CDCFLOW_FULL_SUITE=1."""

    def build():
        _load_full_load(spark, "full_raw")
        _load(spark, "full_raw", BATCH_1)
        _load(spark, "full_raw", BATCH_2)
        _dbt(state_dir, *BUILD, "--full-refresh", "--vars", "{cdcflow_raw_schema: full_raw}", schema="full")
        marts = {mart: spark_rows(spark, f"full.{mart}", columns) for mart, columns in MARTS.items()}
        return {**marts, QUARANTINED: spark_rows(spark, "full.qlik_ct_quarantine", ["change_seq"])}

    return full_refresh("incremental_batches_1_and_2", build)


# the change sequences the full refresh quarantined
QUARANTINED = "qlik_ct_quarantine.change_seq"


@pytest.mark.parametrize("mart", sorted(MARTS))
def test_incremental_equals_full_refresh(incremental_and_full, full, mart):
    spark, *_ = incremental_and_full
    columns = MARTS[mart]
    incremental = spark_rows(spark, f"inc.{mart}", columns)
    assert incremental == full[mart]
    assert incremental, f"{mart} is empty"


def test_late_change_takes_its_place_in_history(incremental_and_full):
    spark, *_ = incremental_and_full
    alice = spark.sql(
        "select email, change_order, valid_to_change_order, is_current from inc.it_customers_history "
        "where customer_id = 1 order by change_order"
    ).collect()
    assert [(r.email, r.is_current) for r in alice] == [
        ("alice@example.com", False),
        ("alice.early@example.com", False),
        ("alice.martin@example.com", True),
    ]
    assert alice[1].valid_to_change_order == alice[2].change_order
    dan = spark.sql(
        "select email, valid_to_change_order from inc.it_customers_history where customer_id = 4 "
        "order by change_order"
    ).collect()
    assert [r.email for r in dan] == [
        "dan@example.com",
        "dan@example.com",
        "dan.late@example.com",
        "dan.petitjean@example.com",
        "dan.petitjean@example.com",
    ]
    assert dan[-1].valid_to_change_order == "202403011006000000000000000000010140"  # the delete


def test_late_change_does_not_regress_current_state(incremental_and_full):
    spark, *_ = incremental_and_full
    row = spark.sql(
        "select email, last_change_order from inc.it_customers_current where customer_id = 1"
    ).first()
    assert row.email == "alice.martin@example.com"
    assert row.last_change_order == "202403011000052500000000000000010030"


def test_first_batch_state_was_right(incremental_and_full):
    _, after_first, *_ = incremental_and_full
    # batch 1 ends with customer 2 deleted (seq 1008) and 4 updated twice
    assert [r[0] for r in after_first] == ["1", "3", "4"]


def test_a_before_image_cut_from_its_update_waits_for_it(incremental_and_full, full):
    """The first run read 1010's before image without its UPDATE: landed within
    the landing overlap before the end of its range, it waited instead of being
    quarantined; the second run read it again with its UPDATE and applied the
    primary-key update (3 -> 30: the delete of 3 and the insert of 30) as a run
    reading both at once does (the marts equal the full refresh's)."""
    spark, _, quarantined_first, _ = incremental_and_full
    assert quarantined_first == []
    # the rejects of batch 2; not 1010's before image, nor batch 2's own orphan
    # before image (1019), which landed within the overlap too: it waits for the next run
    quarantined = spark_rows(spark, "inc.qlik_ct_quarantine", ["change_seq"])
    assert quarantined == full[QUARANTINED]
    assert quarantined == [
        ("20240301100700000000000000000001015",),
        ("20240301100701000000000000000001016",),
        ("2024030110070200-not-a-seq",),
        ("20240301100704000000000000000001020",),
    ]
    moved = spark.sql(
        "select customer_id, operation from inc.int_it_customers__changes_logged"
        " where change_order like '20240301100300000000000000000001010%' order by customer_id"
    ).collect()
    assert [tuple(row) for row in moved] == [(3, "D"), (30, "I")]


def test_replayed_rows_are_not_logged_twice(incremental_and_full):
    spark, *_ = incremental_and_full
    duplicates = spark.sql(
        "select customer_id, change_order, count(*) from inc.int_it_customers__changes_logged "
        "group by 1, 2 having count(*) > 1"
    ).collect()
    assert duplicates == []
    assert spark.sql("select count(*) from inc.int_it_customers__changes_logged").first()[0] == 15


def test_on_delta_the_second_run_merged_into_the_chain_and_current(incremental_and_full):
    spark, *_ = incremental_and_full
    for table in ("inc.int_it_customers__versioned", "inc.it_customers_current"):
        history = spark.sql(f"describe history {table}").collect()
        # newest first, without _current's mark of what it merged (a table property)
        operations = [row.operation for row in history if row.operation != "SET TBLPROPERTIES"]
        assert operations == ["MERGE", "CREATE OR REPLACE TABLE AS SELECT"], table
    chain = spark.table("inc.int_it_customers__versioned")
    assert "written_in_run" not in chain.columns
    assert chain.groupBy("customer_id", "change_order").count().where("count > 1").count() == 0


def test_a_small_increment_is_broadcast_so_the_chain_is_never_shuffled(incremental_and_full):
    # a few changes (under vars cdcflow_broadcast_keys and cdcflow_broadcast_links): the
    # stored links they re-open are found by a broadcast of their keys, and the MERGE
    # sends the recomputed links to every task (at 10M changes the chain's shuffles
    # were most of an incremental run: docs/operations.md)
    *_, (query, merge) = incremental_and_full
    assert "/*+ broadcast(affected_keys) */" in query
    assert merge.lstrip().startswith("merge into")
    assert "/*+ broadcast(recomputed_link) */" in merge


PARQUET = "cdcflow_table_format: parquet"
# the vars of every run of pq_raw's landings (one parse of the project for them all)
PARQUET_RUN = f"{{cdcflow_raw_schema: pq_raw, cdcflow_mask_decoder: udf, {PARQUET}}}"


def _landed_long_ago(spark, raw_schema: str) -> None:
    """The raw tables' files as if landed half an hour ago."""
    landed = time.time() - 30 * 60
    for table in ("it_customers", "it_order_lines", "it_customers__ct", "it_order_lines__ct"):
        for uri in spark.table(f"{raw_schema}.{table}").inputFiles():
            os.utime(uri.removeprefix("file:"), (landed, landed))
        spark.sql(f"refresh table {raw_schema}.{table}")


@pytest.fixture(scope="module")
def parquet_incremental(incremental_and_full, state_dir):
    """The two incremental runs of `incremental_and_full` on parquet, batch 1 landed
    half an hour before the first run listed the raw tables: the second run's range
    starts at the first's end, nothing of batch 1 read again (landing_overlap_bound),
    and 1010's before image, read without its UPDATE, is quarantined at once instead
    of waiting; batch 2's UPDATE then pairs with it from the quarantine. (On Delta
    Lake, `incremental_and_full`'s runs read batch 1 again within the overlap.)"""
    spark, *_ = incremental_and_full
    _load_full_load(spark, "pq_raw")
    _load(spark, "pq_raw", BATCH_1)
    _landed_long_ago(spark, "pq_raw")
    _dbt(state_dir, *RUN, "--vars", PARQUET_RUN, schema="pq")
    quarantined_first = spark_rows(spark, "pq.qlik_ct_quarantine", ["change_seq"])
    _load(spark, "pq_raw", BATCH_2)
    _dbt(state_dir, *BUILD, "--vars", PARQUET_RUN, schema="pq")
    return spark, quarantined_first


def test_the_tables_are_delta_by_default_and_parquet_when_the_project_says(parquet_incremental):
    spark, _ = parquet_incremental
    for schema, provider in (("inc", "delta"), ("pq", "parquet")):
        for table in (
            "int_it_customers__versioned",
            "int_it_customers__changes_logged",
            "qlik_ct_quarantine",
        ):
            described = spark.sql(f"describe table extended {schema}.{table}").collect()
            assert {row.data_type for row in described if row.col_name == "Provider"} == {provider}, table
        # a table each run rebuilds whole and reads within the run: parquet on Delta Lake and
        # parquet projects (Iceberg keeps its own: launcher/onboard.py, RUN_TABLE_FORMAT)
        described = spark.sql(f"describe table extended {schema}.stg_qlik_ct__it_customers_changes").collect()
        assert {row.data_type for row in described if row.col_name == "Provider"} == {"parquet"}


def test_on_delta_the_tables_a_run_merges_into_alone_have_deletion_vectors(incremental_and_full):
    """The chain and _current, once as large as vars.cdcflow_deletion_vectors_from_mb
    says (0 here): a MERGE marks the rows it replaces (the incremental run's MERGE into
    the chain wrote deletion vectors); a table a run appends to or rebuilds has none
    (Delta plans each read of such a table with a listing more)."""
    spark, *_ = incremental_and_full

    def deletion_vectors(table):
        properties = dict(spark.sql(f"show tblproperties inc.{table}").collect())
        return properties.get("delta.enableDeletionVectors")

    assert deletion_vectors("int_it_customers__versioned") == "true"
    assert deletion_vectors("it_customers_current") == "true"
    assert deletion_vectors("int_it_customers__changes_logged") is None
    assert deletion_vectors("qlik_ct_quarantine") is None
    history = spark.sql("describe history inc.int_it_customers__versioned")
    merges = history.where("operation = 'MERGE'").collect()
    assert merges and int(merges[0].operationMetrics["numTargetDeletionVectorsAdded"]) > 0, merges


@pytest.mark.parametrize("mart", sorted(m for m in MARTS if m != "qlik_ct_quarantine"))
def test_parquets_runs_long_after_a_landing_equal_the_full_refresh(parquet_incremental, full, mart):
    spark, _ = parquet_incremental
    assert spark_rows(spark, f"pq.{mart}", MARTS[mart]) == full[mart]


def test_a_before_image_landed_long_before_the_run_is_quarantined_then_paired(parquet_incremental, full):
    spark, quarantined_first = parquet_incremental
    assert quarantined_first == [("20240301100300000000000000000001010",)]
    resolved = spark_rows(spark, "pq.qlik_ct_quarantine_resolved", ["change_seq"])
    assert ("20240301100300000000000000000001010",) in resolved
    # the rest of the quarantine is what a full refresh quarantines
    assert (
        sorted(set(spark_rows(spark, "pq.qlik_ct_quarantine", ["change_seq"])) - set(resolved))
        == (full[QUARANTINED])
    )


def _partitions(spark, table):
    return sorted(
        row[0].removeprefix("written_in_run=") for row in spark.sql(f"show partitions {table}").collect()
    )


def test_parquets_runs_append_and_the_marts_drop_superseded_copies(parquet_incremental):
    spark, _ = parquet_incremental
    partitions = _partitions(spark, "pq.int_it_customers__versioned")
    # merge-on-read: each run added its open partition; nothing was rewritten
    assert len([p for p in partitions if p.startswith("open-")]) == 2, partitions
    copies = spark.sql(
        "select count(*) from (select customer_id, change_order from pq.int_it_customers__versioned"
        " where change_order is not null group by 1, 2 having count(*) > 1)"
    ).first()[0]
    assert copies > 0  # stored twice: the first run's copy is superseded, not deleted
    touches = spark.sql(
        "select customer_id, valid_to_change_order from pq.int_it_customers__versioned"
        " where change_order is null and customer_id is not null"
    ).collect()
    # one per key the second run logged a change of
    second_run = spark.sql(
        "select distinct customer_id from pq.int_it_customers__changes_logged"
        " where loaded_at = (select max(loaded_at) from pq.int_it_customers__changes_logged)"
    ).collect()
    assert sorted(row.customer_id for row in touches) == sorted(row.customer_id for row in second_run)
    assert {1, 4} <= {row.customer_id for row in touches}


@pytest.fixture(scope="module")
def change_log_dropped(parquet_incremental, state_dir):
    """After parquet_incremental's runs (their tests above read them first), nothing
    landed since: the customers' change log dropped, as one does to build it again,
    then a run. Batch 1 landed long before the first run: the second run's staging
    held batch 2 alone, so a run that took the group as one with nothing new (its
    staging left as it was) would build the log again from batch 2's rows."""
    spark, _ = parquet_incremental
    log, columns = "pq.int_it_customers__changes_logged", ["customer_id", "change_order", "operation"]
    logged = spark_rows(spark, log, columns)
    spark.sql(f"drop table {log}")
    result = run_dbt(
        state_dir,
        *RUN,
        "--vars",
        PARQUET_RUN,
        schema="pq",
        project_dir=INTEGRATION_DIR,
    )
    return spark, logged, spark_rows(spark, log, columns), result.result.results


def test_a_change_log_dropped_between_runs_is_built_again_from_every_landed_row(change_log_dropped, full):
    spark, logged, rebuilt, results = change_log_dropped
    assert rebuilt == logged
    # the group was built from scratch (record_groups_built_from_scratch), not left idle:
    # its staging read every landed row again; the other group had nothing new
    messages = {r.node.name: str(r.message) for r in results}
    assert messages["stg_qlik_ct__it_customers_changes"] != "nothing new"
    assert messages["stg_qlik_ct__it_order_lines_changes"] == "nothing new"
    for mart in ("it_customers_history", "it_customers_current"):
        assert spark_rows(spark, f"pq.{mart}", MARTS[mart]) == full[mart], mart


@pytest.fixture(scope="module")
def compacted(incremental_and_full, state_dir):
    """The incremental runs again on parquet, compacting at every run
    (cdcflow_compact_after_runs: 1)."""
    spark, *_ = incremental_and_full
    compact = f"{{cdcflow_raw_schema: cmp_raw, cdcflow_compact_after_runs: 1, {PARQUET}}}"
    _load_full_load(spark, "cmp_raw")
    _load(spark, "cmp_raw", BATCH_1)
    _dbt(state_dir, *BUILD, "--vars", compact, schema="cmp")
    _load(spark, "cmp_raw", BATCH_2)
    _dbt(state_dir, *BUILD, "--vars", compact, schema="cmp")
    return spark


@full_suite_only("parquet's incremental runs without compaction, and its kill point")
def test_a_compacting_run_leaves_one_copy_of_each_link_and_the_same_marts(compacted, full):
    spark = compacted
    for mart, columns in MARTS.items():
        assert spark_rows(spark, f"cmp.{mart}", columns) == full[mart], mart
    for table, key in (
        ("cmp.int_it_customers__versioned", "customer_id"),
        ("cmp.int_it_order_lines__versioned", "order_id, line_no"),
    ):
        partitions = _partitions(spark, table)
        assert len([p for p in partitions if p.startswith("open-")]) == 1, partitions
        copies = spark.sql(
            f"select count(*) from (select {key}, change_order from {table} where change_order is not null"
            f" group by {key}, change_order having count(*) > 1)"
        ).first()[0]
        assert copies == 0, table
        # no touches left: nothing is superseded any more
        assert (
            spark.sql(
                f"select count(*) from {table}"
                " where change_order is null and valid_to_change_order is not null"
            ).first()[0]
            == 0
        ), table


def _states(spark, schema, group):
    return [
        (row.state_name, row.state, row.error_text, row.reprocessing)
        for row in spark.sql(
            f"select state_name, state, error_text, reprocessing from {schema}.cdc_states_log "
            f"where name = '{group}' order by state_seq"
        ).collect()
    ]


def test_each_run_records_its_range_in_the_state_table(incremental_and_full):
    spark, *_ = incremental_and_full
    for group in ("it_customers", "it_order_lines"):
        states = _states(spark, "inc", group)
        assert [state[0] for state in states] == ["ILSTART", "ILEND", "ILUPDATE", "TFEND", "TFSTART", "TFEND"]
        initial_update, first_end, second_start = states[2][1], states[3][1], states[4][1]
        first_ce = initial_update.split("/CE/")[1].split("/")[0]
        assert first_end.startswith(f"TFEND/CS/{first_ce}/TS/")  # the next range starts where it ended
        assert second_start.startswith(f"TFSTART/CS/{first_ce}/CE/0x")
        assert [state[3] for state in states] == [False, False, True, False, False, False]
    table = spark.sql("select * from inc.cdc_states order by name").collect()
    assert [(row.name, row.state_name) for row in table] == [
        ("it_customers", "TFEND"),
        ("it_order_lines", "TFEND"),
    ]
    assert all(row.current_start_at is not None and row.current_end_lsn is None for row in table)


@pytest.fixture(scope="module")
def failed_then_recovered(incremental_and_full, state_dir):
    """Batch 1 processed; the full-load table is missing when the next two runs
    start (renamed away): they fail; it comes back, batch 2 lands; the next run."""
    spark, *_ = incremental_and_full
    select = ("run", "--select", "source:qlik_ct+", "--vars", "{cdcflow_raw_schema: err_raw}")
    _load_full_load(spark, "err_raw")
    _load(spark, "err_raw", BATCH_1)
    _dbt(state_dir, *select, schema="err")
    marts_before = {mart: spark_rows(spark, f"err.{mart}", columns) for mart, columns in MARTS.items()}
    spark.sql("alter table err_raw.it_customers rename to err_raw.it_customers_away")
    log = Path(state_dir) / "logs" / "dbt.log"
    logged_before = log.stat().st_size if log.exists() else 0
    failed = invoke_dbt_in(state_dir, list(select), schema="err", project_dir=INTEGRATION_DIR)
    assert not failed.success
    with open(log, encoding="utf-8", errors="replace") as text:
        text.seek(logged_before)
        report = text.read().split("cdcflow: what this run did, per table")[-1].splitlines()
    after_failure = spark.sql("select * from err.cdc_states order by name").collect()
    after_failure.append(report)
    # a redo (TFREDO) whose change log fails again: the version chain it would
    # rebuild is kept until a rebuild completes
    assert not invoke_dbt_in(state_dir, list(select), schema="err", project_dir=INTEGRATION_DIR).success
    marts_during = {mart: spark_rows(spark, f"err.{mart}", columns) for mart, columns in MARTS.items()}
    spark.sql("alter table err_raw.it_customers_away rename to err_raw.it_customers")
    _load(spark, "err_raw", BATCH_2)  # lands after the failed runs: the next one reads it
    _dbt(state_dir, *select, schema="err")
    return spark, after_failure, marts_before, marts_during


def test_a_failed_run_leaves_error_with_a_short_readable_message(failed_then_recovered):
    _, after_failure, _, _ = failed_then_recovered
    customers, report = after_failure[0], after_failure[-1]
    assert customers.name == "it_customers" and customers.state_name == "ERROR"
    # recorded by on-run-start, which found the raw table missing: the group read
    # nothing (an empty range, never TFEND over it)
    assert customers.error_text == (
        "raw table err_raw.it_customers (vars.cdcflow_tables.it_customers.full_load_table) does not exist:"
        " a misspelt name, or not landed yet (the next run reads it once it has landed)"
    )
    assert customers.current_end_lsn == customers.current_start_lsn
    assert customers.state == (
        f"ERROR/CS/{customers.current_start_lsn}/CE/{customers.current_end_lsn}"
        f"/TS/{customers.state.split('/TS/')[1].split('/')[0]}/ER/{customers.error_text}"
    )
    # order_lines shares the quarantine, which leaves customers out and runs: its run ended well
    assert after_failure[1].state_name == "TFEND"
    # the run's report names the cause first, before the table of what each group did
    assert report[1].endswith(f"  FAILED it_customers: {customers.error_text}"), report[:3]
    assert report[2].split() == ["table", "state", "changes", "opened", "closed", "current", "quarantined"]


def test_failed_redos_leave_the_marts_readable_and_as_they_were(failed_then_recovered):
    spark, _, marts_before, marts_during = failed_then_recovered
    assert marts_during == marts_before
    states = _states(spark, "err", "it_customers")
    assert [state[0] for state in states][-6:-2] == ["TFSTART", "ERROR", "TFREDO", "ERROR"]


def test_the_next_run_retries_the_failed_range_and_recovers(failed_then_recovered, full):
    spark, after_failure, _, _ = failed_then_recovered
    states = _states(spark, "err", "it_customers")
    assert [state[0] for state in states][-2:] == ["TFREDO", "TFEND"]
    failed = after_failure[0]
    # the failed range was empty: the redo reads up to the landing end of its start
    redo_end = states[-2][1].split("/CE/")[1].split("/")[0]
    assert states[-2][1].startswith(f"TFREDO/CS/{failed.current_start_lsn}/CE/")
    assert int(redo_end, 16) > int(failed.current_start_lsn, 16)
    for mart, columns in MARTS.items():
        assert spark_rows(spark, f"err.{mart}", columns) == full[mart], mart
    # a Delta table's MERGE commits or not: nothing is rebuilt beside the chain (parquet's
    # redo rebuilds beside it and swaps it in: tests/e2e/test_fault_injection.py)
    assert not spark.catalog.tableExists("err.int_it_customers__versioned__rebuilt")
    # the range was reprocessed: the changes it logged carry the flag
    by_run = spark.sql(
        "select loaded_at, count_if(reprocessing), count(*) from err.int_it_customers__changes_logged "
        "group by loaded_at order by loaded_at"
    ).collect()
    # the first run (ILUPDATE) and the redone one (TFREDO) flag theirs; the failed one logged nothing
    assert len(by_run) == 2 and all(row[1] == row[2] > 0 for row in by_run), by_run


def test_on_delta_a_small_tables_merge_rewrites_its_files_without_deletion_vectors(failed_then_recovered):
    """Below vars.cdcflow_deletion_vectors_from_mb (16 MB by default), the redo's MERGE
    into the chain and _current left them without deletion vectors."""
    spark, *_ = failed_then_recovered
    for table in ("err.int_it_customers__versioned", "err.it_customers_current"):
        merges = spark.sql(f"describe history {table}").where("operation = 'MERGE'").collect()
        assert merges, table
        assert "delta.enableDeletionVectors" not in dict(spark.sql(f"show tblproperties {table}").collect())
        assert int(merges[0].operationMetrics["numTargetDeletionVectorsAdded"]) == 0, merges[0]
        assert int(merges[0].operationMetrics["numTargetFilesRemoved"]) > 0, merges[0]


@pytest.fixture(scope="module")
def one_table_misconfigured(failed_then_recovered, state_dir):
    """Batch 1 landed for both tables; customers' configuration names a column
    its change table lacks (`emial`): one run."""
    import json

    import yaml

    spark = failed_then_recovered[0]
    _load_full_load(spark, "typo_raw")
    _load(spark, "typo_raw", BATCH_1)
    # the project's tables (the models of the others must parse), customers' email misspelt
    tables = yaml.safe_load((INTEGRATION_DIR / "dbt_project.yml").read_text())["vars"]["cdcflow_tables"]
    columns = tables["it_customers"]["columns"].items()
    tables["it_customers"]["columns"] = {
        ("emial" if name == "email" else name): kind for name, kind in columns
    }
    settings = json.dumps({"cdcflow_raw_schema": "typo_raw", "cdcflow_tables": tables})
    result = invoke_dbt_in(
        state_dir,
        ["run", "--select", "source:qlik_ct+", "--vars", settings],
        schema="typo",
        project_dir=INTEGRATION_DIR,
    )
    states = {row.name: row for row in spark.sql("select * from typo.cdc_states").collect()}
    return spark, result, states


def test_one_tables_mistake_fails_its_group_alone(one_table_misconfigured, failed_then_recovered):
    spark, result, states = one_table_misconfigured
    assert not result.success
    failed = sorted(r.node.name for r in result.result.results if str(r.status) != "success")
    assert failed == [
        "int_it_customers__changes_logged",
        "int_it_customers__versioned",
        "it_customers_current",
        "it_customers_history",
        # the view of resolved quarantine entries reads every change log: skipped
        # (it is no table's model, so it_order_lines' range still ends well)
        "qlik_ct_quarantine_resolved",
    ]
    # the message names the column and lists the change table's real ones
    assert states["it_customers"].state_name == "ERROR"
    assert states["it_customers"].error_text.startswith(
        "int_it_customers__changes_logged failed: cdcflow: table 'it_customers': no column 'emial' in "
        "typo_raw.it_customers__ct (vars.cdcflow_tables.it_customers.columns); its columns are:"
        " header__change_seq,"
    )
    # the shared quarantine ran for order_lines, whose group ended well with the
    # same tables as a run of batch 1 with a right configuration
    assert states["it_order_lines"].state_name == "TFEND"
    marts_before = failed_then_recovered[2]
    for mart in ("it_order_lines_history", "it_order_lines_current"):
        assert spark_rows(spark, f"typo.{mart}", MARTS[mart]) == marts_before[mart], mart
    quarantined = spark_rows(spark, "typo.qlik_ct_quarantine", MARTS["qlik_ct_quarantine"])
    assert quarantined == [row for row in marts_before["qlik_ct_quarantine"] if row[0] == "it_order_lines"]


# a customers change that cannot be applied (its change_seq is no sequence), landed alone
LONE_BAD_ROW = ct_row(
    "2024030111000000-not-a-seq",
    "U",
    "0004",
    "1",
    "Alice",
    "Martin",
    "alice.lone@example.com",
    "2024-03-01 11:00:00",
)


@pytest.fixture(scope="module")
def one_group_with_new_rows(failed_then_recovered, state_dir):
    """After the recovery, one row lands for customers alone: the next run's
    order_lines group has nothing new."""
    spark = failed_then_recovered[0]
    quarantined_before = spark_rows(spark, "err.qlik_ct_quarantine", MARTS["qlik_ct_quarantine"])
    _load(spark, "err_raw", {"it_customers__ct": [LONE_BAD_ROW]})
    result = invoke_dbt_in(
        state_dir,
        ["run", "--select", "source:qlik_ct+", "--vars", "{cdcflow_raw_schema: err_raw}"],
        schema="err",
        project_dir=INTEGRATION_DIR,
    )
    assert result.success, result.exception
    quarantined = spark_rows(spark, "err.qlik_ct_quarantine", MARTS["qlik_ct_quarantine"])
    return spark, result.result.results, quarantined_before, quarantined


def test_a_shared_quarantine_reads_only_the_groups_with_new_rows(one_group_with_new_rows):
    from tests.e2e.helpers import NOTHING_NEW_QUERY

    spark, results, before, after = one_group_with_new_rows
    compiled = {r.node.name: r.node.compiled_code for r in results}
    # the quarantine both tables share reads customers' new row, not order_lines' tables
    assert "stg_qlik_ct__it_customers_changes" in compiled["qlik_ct_quarantine"]
    assert "it_order_lines" not in compiled["qlik_ct_quarantine"]
    assert compiled["int_it_order_lines__changes_logged"].strip() == NOTHING_NEW_QUERY
    # and it quarantines what it read, as before
    new = [row for row in after if row not in before]
    assert [(row[0], row[1]) for row in new] == [("it_customers", "2024030111000000-not-a-seq")]
    assert [row for row in before if row not in after] == []
    states = {row.name: row for row in spark.sql("select * from err.cdc_states").collect()}
    assert {name: row.state_name for name, row in states.items()} == {
        "it_customers": "TFEND",
        "it_order_lines": "TFEND",
    }


RANGE_GROUPS = {
    # (state_name, CS, CE, minutes after 10:00 it was recorded), oldest first
    "listed_long_after": [("ILUPDATE", None, 0, 30), ("TFEND", 0, None, 35), ("TFSTART", 0, 40, 41)],
    "listed_just_after": [("ILUPDATE", None, 0, 4), ("TFEND", 0, None, 5), ("TFSTART", 0, 40, 41)],
    # a run with nothing new (an empty range) read nothing: its listing does not count
    "listing_unknown": [("TFSTART", 0, 0, 35), ("TFEND", 0, None, 36), ("TFSTART", 0, 40, 41)],
}


def test_the_landing_overlap_counts_back_from_when_the_last_range_was_listed(
    spark, state_dir, integration_project
):
    """A range's rows are read from its start CS less the landing overlap (10
    minutes) only as far as the run that took the range ending at CS could have
    missed them: rows landed more than the overlap before it listed the raw tables
    were visible to it. 'settled' is the same bound at the range's end: the next
    run's start, up to which an orphan before image is quarantined, not kept waiting."""
    from tests.e2e.helpers import compile_inline

    settings = ("--vars", "{cdcflow_state_table: range_states}")
    compile_inline(
        state_dir,
        "{% if execute %}{% do cdcflow.create_cdc_state_relations(cdcflow.cdc_state_relations()) %}"
        "{% endif %}",
        *settings,
    )

    def at(minutes):
        return None if minutes is None else f"timestamp'2026-01-01 10:00:00' + interval {minutes} minutes"

    rows = [
        f"('{group}', '{name}', '{name}', null, null, null, null, {at(recorded)}, null, false,"
        f" {at(start) or 'null'}, {at(end) or 'null'}, {seq}, 'test')"
        for seq, (group, name, start, end, recorded) in enumerate(
            (group, *state) for group, states in RANGE_GROUPS.items() for state in states
        )
    ]
    spark.sql(f"insert into e2e_compile.range_states_log values {', '.join(rows)}")
    compiled = compile_inline(
        state_dir,
        "{% for group in " + str(sorted(RANGE_GROUPS)) + " %}{% set r = cdcflow.processing_range(group) %}"
        "{{ group }} {{ r.start }} {{ r.end }} {{ r.settled }};{% endfor %}",
        *settings,
    )
    assert [line.strip() for line in compiled.split(";") if line.strip()] == [
        # listed 4 minutes after CS: from 10:04 less the overlap; settled: 10:41 less it
        "listed_just_after timestamp'2026-01-01 09:54:00.000000' timestamp'2026-01-01 10:40:00.000000'"
        " timestamp'2026-01-01 10:31:00.000000'",
        # listed 30 minutes after CS: from CS, nothing read again
        "listed_long_after timestamp'2026-01-01 10:00:00.000000' timestamp'2026-01-01 10:40:00.000000'"
        " timestamp'2026-01-01 10:31:00.000000'",
        # CS less the overlap, as when no listing is known
        "listing_unknown timestamp'2026-01-01 09:50:00.000000' timestamp'2026-01-01 10:40:00.000000'"
        " timestamp'2026-01-01 10:31:00.000000'",
    ]
