"""Deliveries that land late or in pieces, across runs, against a full refresh over
the same landings (what the acceptance workloads found, issue 42). One source
table is written as a Qlik Kafka topic, a Debezium topic and a Qlik `__ct`
change table, onboarded in a project of its own; runs land one batch each:

1. batch 1: the changes of the first transactions (Kafka with its metadata
   message, the `__ct` table with its full load); one primary-key UPDATE of the
   `__ct` table lands without its BEFOREIMAGE;
2. batch 2: the Qlik Kafka REFRESH (full-load) messages and the Debezium
   snapshot reads (``op: r``) land late: baseline rows with no commit time,
   older than every change applied; the late BEFOREIMAGE; more transactions;
   one Kafka message of each topic cut off (truncated JSON);
3. batch 3 lands and its run fails (every table's history mart cannot be
   created); then batch 4 lands, and the next run must take the failed range
   and batch 4 in one go.

After runs 2 and 4 every mart equals a full refresh over the same landings, and
the source table as it was; then a run with nothing landed does no work, and
after it batch 5 lands and is read as a full refresh reads it. The full refreshes
are recorded (tests/e2e/references.py: built again with CDCFLOW_FULL_SUITE=1).
CI makes runs 1 and 2, the late deliveries; the runs after them, with
CDCFLOW_FULL_SUITE=1 (LATER_RUNS says what covers them in CI)."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from testkit import change_history as ch
from testkit.vendors import KAFKA_LANDING
from tests.e2e.helpers import append_rows, as_text, invoke_dbt_in, make_project, run_dbt, spark_rows
from tests.e2e.references import full_refresh
from tests.e2e.suite import full_suite_only

pytestmark = pytest.mark.spark

SCHEMA = "e2e_late"
FULL = "e2e_late_full"
HISTORY_OF_SOURCE = ch.simulate(seed=42, keys=12, transactions=36)
KEY_CHANGE = next(
    number
    for number, changes in enumerate(HISTORY_OF_SOURCE.transactions[:12])
    if any(change.is_key_change for change in changes)
)
BATCHES = {
    1: list(range(0, 12)),
    2: list(range(12, 24)),
    3: list(range(24, 30)),
    4: list(range(30, 33)),
    5: list(range(33, 36)),
}
TABLES = {
    "lt_kafka": {
        "format": "qlik_kafka",
        "raw_table": "lt_kafka_messages",
        "source_schema": "dbo",
        "source_table": "ACCOUNTS",
    },
    "lt_dbz": {"format": "debezium", "raw_table": "lt_dbz_events", "topic": "server1.dbo.accounts"},
    "lt_ct": {"format": "qlik_ct", "change_table": "lt_ct__ct", "full_load_table": "lt_ct"},
}
for _entry in TABLES.values():
    _entry.update(key=[ch.KEY], columns=dict(ch.COLUMNS))
HISTORY = [*ch.COLUMNS, "operation", "change_order", "valid_from", "valid_to", "closed_by_operation"]
CURRENT = [*ch.COLUMNS, "last_operation", "last_change_order", "last_changed_at"]
KAFKA_TOPIC = "dbo.accounts"
LEFT_CLAIM = "killed-over-a-server-0001"
# the materializations that write a table (and skip a model with nothing new)
INCREMENTAL_OR_TABLE = (
    "cdcflow_incremental",
    "cdcflow_table",
    "cdcflow_versioned",
    "cdcflow_partitioned_chain",
    "cdcflow_current",
)
# the state log and run summaries of SCHEMA's runs are compacted by every run after
# the first (more than 2 files: each run appends two to the log), FULL's never
COMPACTING = {SCHEMA: {"cdcflow_state_table_max_files": 2}, FULL: {}}
# the package's tables of every Kafka message landed in a run, parsed once
PARSED_LANDINGS = ("base_qlik_kafka__parsed_messages", "base_debezium__parsed_events")
# the runs after the late deliveries' two: CI covers what they check with
# test_incremental.py's failed run and the run after it, test_integration_project.py's
# and test_incremental.py's runs with nothing new, test_thrift.py's claim left by a killed run
LATER_RUNS = full_suite_only(
    "the late deliveries' two runs here; a failed run and the next, runs with nothing new and a"
    " killed run's claim in test_incremental.py, test_integration_project.py and test_thrift.py"
)
STATE_LOG = ["state_seq", "name", "state", "state_name", "current_end_lsn", "invocation_id"]
TRUNCATED = '{"magic":"atMSG","type":"DT","message":{"schema":"dbo","table":"ACCOUNTS","data":{"ID":"'


def _key_change_rows(rows: list[dict]) -> tuple[list[dict], list[dict]]:
    """The `__ct` rows of batch 1 less the BEFOREIMAGE of its primary-key UPDATE,
    and that before image (it lands in batch 2)."""
    [key_change] = [c for c in HISTORY_OF_SOURCE.transactions[KEY_CHANGE] if c.is_key_change][:1]
    seq = ch._change_seq(key_change)
    late = [r for r in rows if r["header__change_seq"] == seq and r["header__change_oper"] == "B"]
    assert len(late) == 1
    return [r for r in rows if r not in late], late


def _land(spark, raw: str, batch: int) -> None:
    """Land ``batch`` in the raw schema ``raw`` (new files of each raw table)."""
    history, transactions = HISTORY_OF_SOURCE, BATCHES[batch]
    kafka = ch.kafka_messages(history, transactions, schema="dbo", table="ACCOUNTS", refresh=batch == 2)
    events = ch.debezium_events(history, transactions, table="accounts", snapshot=batch == 2)
    ct_rows = ch.ct_rows(history, transactions)
    if batch == 1:
        kafka = [(0, ch.kafka_metadata("dbo", "ACCOUNTS")), *kafka]
        ct_rows, _ = _key_change_rows(ct_rows)
    if batch == 2:
        ct_rows = _key_change_rows(ch.ct_rows(history, BATCHES[1]))[1] + ct_rows
        kafka.append((None, TRUNCATED))
        events.append((None, '{"schema":null,"payload":{"before":null,"after":{"id":'))
    offset = 1000 * batch
    append_rows(
        spark, raw, "lt_kafka_messages", KAFKA_LANDING, ch.kafka_landing_rows(KAFKA_TOPIC, kafka, offset)
    )
    append_rows(
        spark,
        raw,
        "lt_dbz_events",
        KAFKA_LANDING,
        ch.kafka_landing_rows(TABLES["lt_dbz"]["topic"], events, offset),
    )
    append_rows(spark, raw, "lt_ct__ct", {**ch.CT_HEADERS, **ch.COLUMNS}, ct_rows)
    append_rows(spark, raw, "lt_ct", ch.COLUMNS, ch.ct_full_load(history) if batch == 1 else [])


def _marts(spark, schema: str) -> dict[str, list]:
    tables = {}
    for table in TABLES:
        tables[f"{table}_history"] = spark_rows(spark, f"{schema}.{table}_history", HISTORY)
        tables[f"{table}_current"] = spark_rows(spark, f"{schema}.{table}_current", CURRENT)
    return tables


def _truth(transactions: list[int]) -> list[tuple]:
    return sorted(
        tuple(as_text(row[c]) for c in ch.COLUMNS)
        for row in HISTORY_OF_SOURCE.state_after(transactions).values()
    )


def _states(spark, schema: str) -> dict[str, str]:
    return {
        row[0]: row[1] for row in spark.sql(f"select name, state_name from {schema}.cdc_states").collect()
    }


@pytest.fixture(scope="module")
def late_project(spark, state_dir, tmp_path_factory, integration_project):
    """(dbt: a run of the project in a schema, full: the marts of a full refresh at a
    point): the project the runs of this file share."""
    del integration_project  # cdcflow's dbt deps link, shared by the projects of the tests
    project = make_project(tmp_path_factory.mktemp("late"), TABLES, {"cdcflow_raw_schema": f"{SCHEMA}_raw"})

    def dbt(schema: str, *args: str):
        # FULL's full refreshes read the landings SCHEMA's runs read, as they stand then
        dbt_vars = {"cdcflow_raw_schema": f"{SCHEMA}_raw", **COMPACTING[schema]}
        return run_dbt(
            state_dir, "run", *args, "--vars", json.dumps(dbt_vars), schema=schema, project_dir=project
        )

    def full(point: int) -> dict[str, list]:
        """The marts of a full refresh over the landings as they stand (recorded)."""

        def build():
            dbt(FULL, "--full-refresh")
            return _marts(spark, FULL)

        return full_refresh(f"late_deliveries_{point}", build)

    return project, dbt, full


@pytest.fixture(scope="module")
def runs(spark, late_project):
    """What runs 1 and 2 left (batches 1 and 2: the late deliveries)."""
    _, dbt, full = late_project
    seen = {}
    _land(spark, f"{SCHEMA}_raw", 1)
    # a project built before the parsed Kafka landings were parquet has them on Delta
    # Lake: its next run replaces the table with a parquet one
    spark.sql(f"create database if not exists {SCHEMA}")
    spark.sql(f"create table {SCHEMA}.base_debezium__parsed_events using delta as select 1 as stale")
    dbt(SCHEMA)
    seen["providers_1"] = {
        table: {
            row.data_type
            for row in spark.sql(f"describe table extended {SCHEMA}.{table}").collect()
            if row.col_name == "Provider"
        }
        for table in (*PARSED_LANDINGS, "int_lt_kafka__changes_logged", "int_lt_dbz__changes_logged")
    }
    seen["ct_history_1"] = spark_rows(spark, f"{SCHEMA}.lt_ct_history", HISTORY)
    _land(spark, f"{SCHEMA}_raw", 2)
    dbt(SCHEMA)
    seen["incremental_2"] = _marts(spark, SCHEMA)
    seen["quarantined"] = {
        quarantine: spark_rows(spark, f"{SCHEMA}.{quarantine}", ["source_table", "topic", "reason"])
        for quarantine in ("qlik_kafka_quarantine", "debezium_quarantine")
    }
    seen["summaries_2"] = spark_rows(
        spark, f"{SCHEMA}.cdc_states_runs", ["name", "rows_quarantined", "quarantine", "loaded_at"]
    )
    seen["full_2"] = full(2)
    return seen


@pytest.fixture(scope="module")
def later_runs(spark, state_dir, late_project, runs):
    """``runs`` and what the runs after them left: a failed run, the run after it, a
    run with nothing new, then batch 5's run (CDCFLOW_FULL_SUITE=1)."""
    project, dbt, full = late_project
    seen = dict(runs)
    # a run over batch 3 that fails: no table's history mart can be created
    _land(spark, f"{SCHEMA}_raw", 3)
    failing = {
        "cdcflow_raw_schema": f"{SCHEMA}_raw",
        **COMPACTING[SCHEMA],
        "cdcflow_tables": {
            name: {**entry, "valid_to_current": "cdcflow_no_such_function()"}
            for name, entry in TABLES.items()
        },
    }
    result = invoke_dbt_in(
        state_dir, ["run", "--vars", json.dumps(failing)], schema=SCHEMA, project_dir=project
    )
    assert not result.success
    seen["states_failed"] = _states(spark, SCHEMA)
    _land(spark, f"{SCHEMA}_raw", 4)
    dbt(SCHEMA)
    seen["states_4"] = _states(spark, SCHEMA)
    seen["incremental_4"] = _marts(spark, SCHEMA)
    seen["full_4"] = full(4)

    # nothing landed since: a run that does no work, and leaves everything as it was;
    # it finds the claim a run killed over a server left, and takes it over (the
    # embedded session holds its state folder alone: it makes no claim of its own)
    ranges = f"select name, current_start_lsn from {SCHEMA}.cdc_states"
    seen["ranges_4"] = sorted(tuple(row) for row in spark.sql(ranges).collect())
    # a compaction of the state log killed after the log was renamed away, its copy
    # complete; one of the run summaries killed while it copied (an empty copy)
    seen["log_4"] = spark_rows(spark, f"{SCHEMA}.cdc_states_log", STATE_LOG)
    spark.sql(f"alter table {SCHEMA}.cdc_states_log rename to {SCHEMA}.cdc_states_log__replaced")
    spark.sql(
        f"create table {SCHEMA}.cdc_states_log__compacted using parquet"
        f" as select * from {SCHEMA}.cdc_states_log__replaced"
    )
    spark.sql(f"create table {SCHEMA}.cdc_states_runs__compacted like {SCHEMA}.cdc_states_runs")
    spark.sql(
        f"create view {SCHEMA}.cdc_states_claim as select '{LEFT_CLAIM}' as invocation_id,"
        " timestamp'2026-01-02 03:04:05' as started_at, 'lt_ct' as cdc_groups, 'dbt run' as command"
    )
    dbt_log = state_dir / "logs" / "dbt.log"
    logged_before_idle = dbt_log.stat().st_size
    seen["idle"] = run_dbt(
        state_dir,
        "build",
        "--vars",
        json.dumps({"cdcflow_raw_schema": f"{SCHEMA}_raw", **COMPACTING[SCHEMA]}),
        schema=SCHEMA,
        project_dir=project,
    ).result.results
    seen["ranges_5"] = sorted(tuple(row) for row in spark.sql(ranges).collect())
    seen["log_5"] = spark_rows(spark, f"{SCHEMA}.cdc_states_log", STATE_LOG)
    seen["left_5"] = spark.sql(f"show tables in {SCHEMA} like 'cdc_states_*__*'").collect()
    seen["claims_5"] = spark.sql(f"show views in {SCHEMA} like 'cdc_states_claim'").collect()
    seen["log"] = dbt_log.read_text(errors="replace")
    seen["idle_log"] = dbt_log.read_bytes()[logged_before_idle:].decode(errors="replace")
    seen["states_5"] = _states(spark, SCHEMA)
    seen["incremental_5"] = _marts(spark, SCHEMA)

    # then batch 5: the run after one that did nothing reads it (its range starts where
    # the idle run's did), as a full refresh over everything does
    _land(spark, f"{SCHEMA}_raw", 5)
    dbt(SCHEMA)
    seen["incremental_6"] = _marts(spark, SCHEMA)
    seen["state_files_6"] = {
        table: spark.sql(f"select count(distinct _metadata.file_path) from {SCHEMA}.{table}").first()[0]
        for table in ("cdc_states_log", "cdc_states_runs")
    }
    seen["runs_logged_6"] = spark.sql(
        f"select count(distinct invocation_id) from {SCHEMA}.cdc_states_log"
    ).first()[0]
    seen["properties_6"] = dict(
        tuple(row) for row in spark.sql(f"show tblproperties {SCHEMA}.cdc_states_runs").collect()
    )
    seen["full_6"] = full(6)
    return seen


@pytest.mark.parametrize("mart", [f"{t}_{kind}" for t in TABLES for kind in ("history", "current")])
def test_late_baseline_rows_and_before_images_give_the_full_refresh(runs, mart):
    # the late REFRESH / snapshot rows and the late before image, in a second run
    assert runs["incremental_2"][mart] == runs["full_2"][mart]


def test_the_parsed_landings_are_parquet_and_the_change_logs_delta(runs):
    # each run rebuilds the parsed landings whole and reads them within the run (macro
    # run_table_format): a Delta Lake log, snapshot and commit would buy them nothing
    assert runs["providers_1"] == {
        **dict.fromkeys(PARSED_LANDINGS, {"parquet"}),
        "int_lt_kafka__changes_logged": {"delta"},
        "int_lt_dbz__changes_logged": {"delta"},
    }


def _assert_the_source_table(runs: dict, seen: str, transactions: list[int]) -> None:
    for table in TABLES:
        current = [row[: len(ch.COLUMNS)] for row in runs[seen][f"{table}_current"]]
        assert current == _truth(transactions), (seen, table)


def test_the_tables_are_the_source_table_after_the_late_deliveries(runs):
    _assert_the_source_table(runs, "incremental_2", BATCHES[1] + BATCHES[2])


@LATER_RUNS
def test_the_tables_are_the_source_table_after_each_later_run(later_runs):
    everything = [t for batch in BATCHES.values() for t in batch]
    _assert_the_source_table(later_runs, "incremental_4", [t for t in everything if t not in BATCHES[5]])
    _assert_the_source_table(later_runs, "incremental_6", everything)


def test_a_key_change_read_before_its_before_image_leaves_no_phantom_version(runs):
    key_change = next(c for c in HISTORY_OF_SOURCE.transactions[KEY_CHANGE] if c.is_key_change)
    new_key, operation = str(key_change.after[ch.KEY]), len(ch.COLUMNS)
    change_order = HISTORY.index("change_order")
    # run 1 read the UPDATE without its before image: an update of the new key...
    first = [row for row in runs["ct_history_1"] if row[0] == new_key]
    assert first and first[0][operation] == "U", first
    # ...which run 2, pairing it with the late before image, replaced by the insert
    versions = [row for row in runs["incremental_2"]["lt_ct_history"] if row[0] == new_key]
    assert versions and versions[0][operation] == "I", versions
    assert first[0][change_order] == versions[0][change_order]
    assert [
        row for row in versions if row[operation] == "U" and row[change_order] == first[0][change_order]
    ] == []

    # the same history as Debezium's, where the key change arrives whole (change orders aside)
    def without_order(rows):
        return sorted(row[:change_order] + row[change_order + 1 :] for row in rows)

    assert without_order(runs["incremental_2"]["lt_ct_history"]) == without_order(
        runs["incremental_2"]["lt_dbz_history"]
    )


@LATER_RUNS
def test_a_run_after_a_failed_one_takes_what_landed_since(later_runs):
    assert set(later_runs["states_failed"].values()) == {"ERROR"}
    assert set(later_runs["states_4"].values()) == {"TFEND"}
    assert later_runs["incremental_4"] == later_runs["full_4"]


def test_a_truncated_message_is_quarantined_under_its_topics_table(runs):
    assert ("lt_kafka", KAFKA_TOPIC, "unparsable JSON") in runs["quarantined"]["qlik_kafka_quarantine"]
    assert all(row[0] for row in runs["quarantined"]["qlik_kafka_quarantine"])
    dbz = runs["quarantined"]["debezium_quarantine"]
    assert [row for row in dbz if row[0] != "lt_dbz"] == []
    assert any("JSON" in row[2] for row in dbz), dbz
    # the run summary counts it for the table, with its query
    last = max(row[3] for row in runs["summaries_2"])
    summary = {row[0]: row for row in runs["summaries_2"] if row[3] == last}
    assert int(summary["lt_kafka"][1]) >= 1
    assert summary["lt_kafka"][2]


@LATER_RUNS
def test_a_run_with_nothing_new_does_no_work_and_changes_nothing(later_runs):
    from tests.e2e.helpers import NOTHING_NEW_QUERY

    assert later_runs["incremental_5"] == later_runs["incremental_4"]
    assert set(later_runs["states_5"].values()) == {"TFEND"}
    assert later_runs["ranges_5"] == later_runs["ranges_4"]  # the next range starts where it did
    models = [r for r in later_runs["idle"] if r.node.resource_type == "model"]
    assert models and all(str(r.status) == "success" for r in models)
    # every table and incremental model of the three tables renders the constant its
    # materialization skips (the marts, views, are left as they are when their query is)
    written = [r for r in models if r.node.config.materialized in INCREMENTAL_OR_TABLE]
    assert len(written) > 6
    assert [r.node.name for r in written if r.node.compiled_code.strip() != NOTHING_NEW_QUERY] == []
    # and no model ran a statement of its own: each says so (left_as_it_is), its views
    # included (qlik_ct_quarantine_resolved, a view of no table's range, because every
    # model it reads has nothing new)
    kept = [r for r in models if r.node.config.materialized.startswith("cdcflow_")]
    assert len(kept) == len(models)
    assert {r.node.name: str(r.message) for r in kept if str(r.message) != "nothing new"} == {}
    assert {r.adapter_response.get("code") for r in kept} == {"NOTHING NEW"}


@LATER_RUNS
def test_a_run_with_nothing_new_checks_no_tables_columns_again(later_runs):
    # the run before it ended TFEND with the same configured columns, recorded on the
    # run summaries (record_columns_checked): no table of the three groups is described
    assert "dbt_internal_test" in later_runs["idle_log"]  # its log: its data tests' statements
    assert re.findall(r"describe extended \S+", later_runs["idle_log"]) == []
    # each group's fingerprint, as the next run reads it back from dbt's listing
    fingerprint = hashlib.md5(",".join(ch.COLUMNS).lower().encode()).hexdigest()
    assert {
        key.removeprefix("cdcflow.columns_checked."): value
        for key, value in later_runs["properties_6"].items()
        if key.startswith("cdcflow.columns_checked.")
    } == dict.fromkeys(TABLES, fingerprint)


@LATER_RUNS
def test_an_embedded_run_takes_over_a_claim_left_by_a_killed_run_and_leaves_none(later_runs):
    assert later_runs["claims_5"] == []
    assert (
        f"cdcflow: taking over the claim of dbt invocation {LEFT_CLAIM} (`dbt run`, started"
        " 2026-01-02 03:04:05 UTC, groups lt_ct), left by a run that was killed (this embedded"
        " session holds its state folder alone)"
    ) in later_runs["log"]


@LATER_RUNS
def test_the_run_after_one_with_nothing_new_reads_what_landed_since(later_runs):
    assert later_runs["incremental_6"] == later_runs["full_6"]
    assert later_runs["incremental_6"] != later_runs["incremental_5"]


@LATER_RUNS
def test_the_state_tables_are_compacted_and_a_killed_compaction_loses_no_state(later_runs):
    # every run of SCHEMA rewrote its state log and run summaries into one file before
    # appending its own (two files a run, without compaction): the log holds the
    # states of its six runs in three files at most
    assert later_runs["state_files_6"]["cdc_states_log"] <= 3, later_runs["state_files_6"]
    assert later_runs["state_files_6"]["cdc_states_runs"] <= 2, later_runs["state_files_6"]
    assert later_runs["runs_logged_6"] == 6
    # the run after a compaction killed midway took the complete copy as the log and
    # dropped the rest: every state recorded before it is there, once, then its own
    assert later_runs["left_5"] == []
    assert set(later_runs["log_4"]) < set(later_runs["log_5"])
    assert len({row[0] for row in later_runs["log_5"]}) == len(later_runs["log_5"])
