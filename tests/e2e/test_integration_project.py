"""integration_tests/: a dbt project that installs cdcflow as a package
(packages.yml, `local: ../`), onboards a table of every format from the
package's sample seeds (loaded under names of its own, it_) with `cdcflow
onboard`, and builds once for the whole module: the dbt unit tests of the
macros, the mask-decoder proofs and every data test pass, the package's hooks
record the ranges, the marts, quarantines and DirXML outcomes equal the
hand-written expected tables (tests/e2e/expected/, derived from the reference
rules for the sample rows), and a second run changes nothing."""

import json
import re

import pytest

from tests.e2e.helpers import (
    DIRXML_OUTCOME_COLUMNS,
    DIRXML_QUARANTINE_COLUMNS,
    MESSAGE_QUARANTINE_COLUMNS,
    PROJECT_DIR,
    TABLES,
    compile_inline,
    current_columns,
    env,
    history_columns,
    invoke_dbt_in,
    read_expected,
    run_dbt,
    sample_rows,
    spark_rows,
    target_path,
)
from tests.e2e.suite import full_suite_only

SCHEMA = "e2e_package"
RAW = f"{SCHEMA}_raw"
FORMATS = {
    "customers": "qlik_ct",
    "order_lines": "qlik_ct",
    "products": "qlik_kafka",
    "sqlserver_customers": "debezium",
    "sqlserver_orders": "debezium",
    "emp": "dirxml",
    "emp_roles": "dirxml",
}

pytestmark = pytest.mark.spark


def it(table: str) -> str:
    """The integration project's name of a sample table (or raw table)."""
    return f"it_{table}"


@pytest.fixture(scope="module")
def build(spark, state_dir, integration_project):
    """The module's build: (the session, the build's manifest, read before the
    module's other dbt invocations write theirs)."""
    run_dbt(state_dir, "seed", schema=SCHEMA, project_dir=integration_project)
    # everything: unit tests, the exhaustive mask-decoder proof, the data tests
    run_dbt(
        state_dir,
        "build",
        "--exclude",
        "resource_type:seed",
        schema=SCHEMA,
        project_dir=integration_project,
        artifacts=True,
    )
    artifacts = target_path(state_dir, integration_project, SCHEMA)
    return spark, json.loads((artifacts / "manifest.json").read_text())


@pytest.fixture(scope="module")
def built(build):
    return build[0]


@pytest.fixture(scope="module")
def manifest(build):
    return build[1]


@pytest.mark.parametrize("table", list(TABLES))
def test_history_equals_the_samples_expected(built, table):
    header, expected = read_expected(f"{table}_history")
    assert header == history_columns(table)
    assert spark_rows(built, f"{SCHEMA}.{it(table)}_history", header) == expected


@pytest.mark.parametrize("table", list(TABLES))
def test_current_equals_the_samples_expected(built, table):
    header, expected = read_expected(f"{table}_current")
    assert header == current_columns(table)
    assert spark_rows(built, f"{SCHEMA}.{it(table)}_current", header) == expected


def test_bad_rows_are_quarantined_with_reasons(built):
    header, expected = read_expected("qlik_ct_quarantine")
    assert sample_rows(built, f"{SCHEMA}.qlik_ct_quarantine", header) == expected
    raw = built.sql(f"select raw_row from {SCHEMA}.qlik_ct_quarantine where change_seq like '%1015'").first()
    assert '"header__change_oper":"X"' in raw.raw_row


@pytest.mark.parametrize("quarantine", ["qlik_kafka_quarantine", "debezium_quarantine"])
def test_bad_messages_are_quarantined_with_reasons(built, quarantine):
    header, expected = read_expected(quarantine)
    assert header == MESSAGE_QUARANTINE_COLUMNS
    assert sample_rows(built, f"{SCHEMA}.{quarantine}", header) == expected
    # the raw message is kept whole: the landed row with its Kafka coordinates
    raw = built.sql(f"select raw_row from {SCHEMA}.{quarantine} where reason = 'unparsable JSON'").first()
    assert '"offset":' in raw.raw_row and '"value":' in raw.raw_row


def test_bad_dirxml_events_are_quarantined_with_reasons(built):
    header, expected = read_expected("dirxml_quarantine")
    assert header == DIRXML_QUARANTINE_COLUMNS
    assert sample_rows(built, f"{SCHEMA}.dirxml_quarantine", header) == expected
    raw = built.sql(f"select raw_row from {SCHEMA}.dirxml_quarantine where record_id = 29").first()
    assert '"new_value":"@@not base64@@"' in raw.raw_row and '"table_key":"empno=2"' in raw.raw_row


def test_dirxml_outcome_of_every_new_event(built):
    header, expected = read_expected("dirxml_event_outcomes")
    assert header == DIRXML_OUTCOME_COLUMNS
    assert sample_rows(built, f"{SCHEMA}.dirxml_event_outcomes", header) == expected
    # every status-N record has one outcome; the one a publisher already processed (S) is not read
    records = built.sql(f"select record_id, status from {RAW}.{it('dirxml_event_log')}").collect()
    assert sorted(r.record_id for r in records if r.status == "N") == sorted(int(row[1]) for row in expected)


def test_qlik_kafka_transaction_still_incomplete_is_held_back(built):
    # transaction ...A008 (id 6) has landed its first record, not its last one
    assert built.sql(f"select count(*) from {SCHEMA}.it_products_current where id = 6").first()[0] == 0
    assert (
        built.sql(f"select count(*) from {SCHEMA}.int_it_products__changes_logged where id = 6").first()[0]
        == 0
    )


def test_the_package_hooks_record_every_group(built):
    states = built.sql(f"select name, state_name from {SCHEMA}.cdc_states").collect()
    assert sorted(tuple(row) for row in states) == sorted((it(table), "TFEND") for table in TABLES)


def test_the_package_builds_none_of_its_samples(built):
    tables = {row.tableName for row in built.sql(f"show tables in {SCHEMA}").collect() if not row.isTemporary}
    assert not {f"{table}_history" for table in TABLES} & tables
    assert {"qlik_ct_quarantine", "dirxml_event_outcomes", "int_qlik_kafka__table_versions"} <= tables
    raw = {row.tableName for row in built.sql(f"show tables in {RAW}").collect() if not row.isTemporary}
    assert raw == {
        "it_customers__ct",
        "it_customers",
        "it_order_lines__ct",
        "it_order_lines",
        "it_qlik_kafka_messages",
        "it_debezium_events",
        "it_dirxml_event_log",
        "it_emp",
        "it_emp_roles",
    }


def test_every_model_and_column_is_described(built, manifest):
    """dbt docs show what each model and each of its columns is: the columns of
    every table the build wrote (the package's shared models and the generated
    ones) each have a description in the models' YAML."""
    gaps = []
    for node in manifest["nodes"].values():
        if node["resource_type"] != "model":
            continue
        if not node["description"].strip():
            gaps.append(f"{node['name']}: no description")
        if node["config"]["materialized"] == "ephemeral":
            continue
        described = {
            name.lower() for name, column in node["columns"].items() if column["description"].strip()
        }
        written = built.table(f"{node['schema']}.{node['alias']}").columns
        missing = [column for column in written if column.lower() not in described]
        if missing:
            gaps.append(f"{node['name']}: {', '.join(missing)}")
    assert gaps == []


def _run_summaries(spark, which: str) -> dict[str, tuple]:
    """The run summaries (cdc_states_runs) of the first or the last run, per table."""
    order = "asc" if which == "first" else "desc"
    return {
        row.name: (
            row.state_name,
            row.changes_logged,
            row.versions_opened,
            row.versions_closed,
            row.current_versions,
            row.rows_quarantined,
        )
        for row in spark.sql(
            f"select * from (select *, row_number() over (partition by name order by loaded_at {order}) as n "
            f"from {SCHEMA}.cdc_states_runs) where n = 1"
        ).collect()
    }


def _table_figures(spark, table: str) -> tuple:
    """What a first run of ``table`` did, counted from its tables."""
    logged = spark.sql(f"select count(*) from {SCHEMA}.int_{it(table)}__changes_logged").first()[0]
    history = spark.sql(
        f"select count(*), count_if(valid_to is not null) from {SCHEMA}.{it(table)}_history"
    ).first()
    current = spark.sql(f"select count(*) from {SCHEMA}.{it(table)}_current").first()[0]
    quarantine = f"{SCHEMA}.{FORMATS[table]}_quarantine"
    quarantined = spark.sql(f"select count(*) from {quarantine} where source_table = '{it(table)}'").first()[
        0
    ]
    return ("TFEND", logged, history[0], history[1], current, quarantined)


def test_the_first_run_reports_what_it_did_per_table(built):
    # every change logged opened a version of _history (deletes close one); the
    # closed ones are those no longer current
    assert _run_summaries(built, "first") == {it(table): _table_figures(built, table) for table in TABLES}


def test_every_group_of_every_format_records_its_ranges(built):
    # run by the module's first build (and test_rerun_changes_nothing's, if it ran first)
    rows = built.sql(f"select * from {SCHEMA}.cdc_states order by name").collect()
    assert [(row.name, row.state_name) for row in rows] == [(it(table), "TFEND") for table in sorted(TABLES)]
    for row in rows:
        assert row.state == f"TFEND/CS/{row.current_start_lsn}/TS/{row.updated_at.isoformat()}0/"
        assert row.current_start_lsn.startswith("0x") and len(row.current_start_lsn) == 22
    first_runs = built.sql(
        f"select name, collect_list(state_name) as names from (select * from {SCHEMA}.cdc_states_log "
        "order by state_seq) group by name"
    ).collect()
    for row in first_runs:
        assert row.names[:4] == ["ILSTART", "ILEND", "ILUPDATE", "TFEND"], row
    # the first run read its range (bounded by CE) and flagged it: the initial range is reprocessing
    initial_end = built.sql(
        f"select current_end_at from {SCHEMA}.cdc_states_log "
        "where name = 'it_customers' and state_name = 'ILUPDATE'"
    ).first()[0]
    logged = built.sql(
        f"select landed_until, reprocessing, count(*) from {SCHEMA}.int_it_customers__changes_logged "
        "group by 1, 2"
    ).collect()
    assert [tuple(row) for row in logged] == [(initial_end, True, 13)]
    # products held back the transaction still incomplete: its next range starts before it
    products = {
        row.state_name: row
        for row in built.sql(f"select * from {SCHEMA}.cdc_states_log where name = 'it_products'").collect()
    }
    assert products["TFEND"].current_start_at < products["ILUPDATE"].current_end_at


@pytest.mark.parametrize("decoder", ["native", "udf"])
def test_qlik_kafka_reference_change_mask_example(built, state_dir, decoder):
    # reference 000: UPDATE mask 0B = binary 1011 -> the columns at ordinals 1, 2 and 4;
    # the column list is per message there (the metadata in effect), a SQL array
    sql = compile_inline(
        state_dir,
        "select {{ cdcflow.decode_change_mask(\"unhex('0B')\", \"array('o1', 'o2', 'o3', 'o4')\") }}",
        "--vars",
        f"{{cdcflow_mask_decoder: {decoder}}}",
    )
    assert built.sql(sql).first()[0] == ["o1", "o2", "o4"]


@full_suite_only(
    "the UDF decoder on the reference's example (test_qlik_kafka_reference_change_mask_example)"
    " and against the native one on generated masks (assert_mask_decoders_agree_on_generated_masks)"
)
def test_udf_decoder_gives_the_same_marts(built, state_dir, integration_project):
    # the formats whose change masks are decoded: Qlik __ct and Qlik Kafka
    schema = SCHEMA + "_udf"
    run_dbt(
        state_dir,
        "run",
        "--select",
        "source:qlik_ct+",
        "source:qlik_kafka+",
        "--vars",
        f"{{cdcflow_mask_decoder: udf, cdcflow_raw_schema: {RAW}}}",
        schema=schema,
        project_dir=integration_project,
    )
    for table in ("customers", "order_lines", "products"):
        columns = history_columns(table)
        assert spark_rows(built, f"{schema}.{it(table)}_history", columns) == spark_rows(
            built, f"{SCHEMA}.{it(table)}_history", columns
        )


def test_source_freshness_reads_each_feeds_landing_time(built, state_dir, integration_project):
    """`dbt source freshness` checks the feeds (change and landing tables) on
    when their rows landed, and leaves out what is written once (full loads)
    or kept as it is now (DirXML's query-back tables)."""
    run_dbt(state_dir, "source", "freshness", schema=SCHEMA, project_dir=integration_project, artifacts=True)
    artifacts = target_path(state_dir, integration_project, SCHEMA)
    results = json.loads((artifacts / "sources.json").read_text())["results"]
    checked = {result["unique_id"].rsplit(".", 1)[1]: result["status"] for result in results}
    assert checked == {
        name: "pass"
        for name in (
            "it_customers__ct",
            "it_order_lines__ct",
            "it_qlik_kafka_messages",
            "it_debezium_events",
            "it_dirxml_event_log",
        )
    }


def test_cdcflow_docs_writes_the_site_with_lineage_and_columns(built, state_dir, integration_project):
    """`cdcflow docs --no-serve` (in this process: one Derby metastore per state
    directory): the catalog holds every mart with its columns, the manifest
    the lineage from the raw tables and the package's overview page."""
    from launcher.cli import main

    with env(CDCFLOW_SCHEMA=SCHEMA):
        command = [
            "docs",
            "--no-serve",
            "--state-dir",
            str(state_dir),
            "--project-dir",
            str(integration_project),
        ]
        assert main(command) == 0
    site = state_dir / "target"
    assert (site / "index.html").exists()
    catalog = json.loads((site / "catalog.json").read_text())["nodes"]
    docs = json.loads((site / "manifest.json").read_text())
    project = "model.cdcflow_integration_tests"
    for table in TABLES:
        columns = catalog[f"{project}.{it(table)}_current"]["columns"]
        assert {c.lower() for c in current_columns(table)} <= set(columns), table
    assert {
        f"{project}.stg_qlik_ct__it_customers_changes",
        f"{project}.stg_qlik_ct__it_customers_full_load",
    } <= set(docs["parent_map"][f"{project}.int_it_customers__changes_logged"])
    assert "The data path of one table" in docs["docs"]["doc.cdcflow.__overview__"]["block_contents"]


def test_a_selector_per_table_selects_its_marts_and_what_they_are_built_from(
    built, state_dir, integration_project
):
    listed = invoke_dbt_in(
        state_dir,
        ["ls", "--selector", "it_products", "--resource-type", "model", "--output", "name"],
        schema=SCHEMA,
        project_dir=integration_project,
    )
    assert listed.success, listed.exception
    assert sorted(listed.result) == [
        "base_qlik_kafka__parsed_messages",
        "int_it_products__changes_logged",
        "int_it_products__messages_decoded",
        "int_it_products__versioned",
        "int_qlik_kafka__table_versions",
        "it_products_current",
        "it_products_history",
        "stg_qlik_kafka__it_products_messages",
    ]


def test_describe_reads_a_landed_change_tables_columns(
    built, tmp_path, monkeypatch, capsys, integration_project
):
    """`cdcflow onboard --describe`: the project's entries agree with their landed
    change tables and full loads; an entry that does not is told what differs; a
    table with no entry yet gets the entry to paste."""
    import launcher.cli
    from launcher.cli import main
    from launcher.describe import describe
    from launcher.onboard import read_project

    _, tables = read_project(integration_project)
    for name in ("it_customers", "it_order_lines"):
        assert describe(built, name, tables[name], RAW) == (
            f"{name}: the entry's columns match {RAW}.{name}__ct",
            [],
        )
    columns = {**tables["it_customers"]["columns"], "customer_id": "bigint", "phone": "string"}
    assert describe(built, "it_customers", {**tables["it_customers"], "columns": columns}, RAW)[1] == [
        f"column phone of the entry's columns is not in {RAW}.it_customers__ct",
        f"column customer_id is bigint in the entry's columns but int in {RAW}.it_customers__ct",
        f"column phone of the entry's columns is not in {RAW}.it_customers",
        f"column customer_id is bigint in the entry's columns but int in {RAW}.it_customers",
    ]

    monkeypatch.setattr(launcher.cli, "_session", lambda args: built)
    (tmp_path / "dbt_project.yml").write_text("name: mine\n")
    command = ["onboard", "--describe", "--project-dir", str(tmp_path), "--raw-schema", RAW]
    assert main([*command, "it_order_lines"]) == 0
    assert capsys.readouterr().out == (
        f"# the vars entry of it_order_lines, read from {RAW}.it_order_lines__ct: add it under"
        " vars.cdcflow_tables,\n"
        "# name its key, then run `cdcflow onboard it_order_lines`\n"
        "it_order_lines:\n"
        "  format: qlik_ct\n"
        "  change_table: it_order_lines__ct\n"
        "  full_load_table: it_order_lines\n"
        "  key: []  # the primary-key columns: a change table does not name them\n"
        "  columns:\n"
        "    order_id: int\n"
        "    line_no: int\n"
        "    product: string\n"
        "    quantity: int\n"
        "    unit_price: decimal(10,2)\n"
    )
    assert main([*command, "invoices"]) == 2
    assert capsys.readouterr().err == (
        f"cdcflow onboard: no table {RAW}.invoices__ct in the warehouse: land the change table first, or set"
        " change_table: (and the raw schema, vars.cdcflow_raw_schema) in the entry of 'invoices'\n"
    )


def test_hives_function_registry_loads_in_a_session(spark):
    """A Thrift session's close can load Hive's function registry (SessionState.close,
    on a thread without a Hive client of its own); it names a class of Hive's LLAP
    jars, which Spark 4 does not ship: the launcher puts hive-llap-common on every
    session's classpath (launcher/table_format.py, HIVE_FUNCTIONS_JAR)."""
    registry = spark.sparkContext._jvm.org.apache.hadoop.hive.ql.exec.FunctionRegistry
    names = registry.getFunctionNames()
    assert names.contains("get_splits") and names.contains("concat_ws")


def test_thrift_sessions_and_the_catalog_give_the_metastore_the_same_connection_settings(spark):
    """The Thrift server (`cdcflow serve`) opens its sessions with the Hive settings
    of Spark's execution client; the catalog reads tables with its own client's.
    The metastore keeps one connection factory and rebuilds it whenever the
    DataNucleus/JDO settings it is given differ from the last ones (Hive's
    ObjectStore.setConf): with one setting apart, every dbt connection rebuilt it
    twice, most of the server's CPU. Built as the server builds it (HiveUtils)."""
    jvm = spark.sparkContext._jvm
    session = spark._jsparkSession
    hive_utils = getattr(getattr(jvm.org.apache.spark.sql.hive, "HiveUtils$"), "MODULE$")
    execution = hive_utils.newClientForExecution(
        spark.sparkContext._jsc.sc().conf(), session.sessionState().newHadoopConf()
    )
    catalog = session.sharedState().externalCatalog().unwrapped().client()

    def connection_settings(hive_conf) -> dict[str, str]:
        settings, entries = {}, hive_conf.iterator()
        while entries.hasNext():
            key = entries.next().getKey()
            if "datanucleus" in key or "jdo" in key:
                settings[key] = hive_conf.get(key)
        return settings

    sessions = connection_settings(execution.conf())
    assert "javax.jdo.option.ConnectionURL" in sessions
    assert sessions == connection_settings(catalog.conf())


def test_a_second_cdcflow_command_on_the_state_folder_stops_at_once(built, state_dir):
    """This test process's Spark session holds the state folder: `cdcflow run` on
    it stops before Spark starts, with one line naming this process."""
    import os
    import subprocess
    import sys

    refused = subprocess.run(
        [sys.executable, "-m", "launcher.cli", "run", "--state-dir", str(state_dir)],
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode == 2
    assert refused.stderr.startswith(f"cdcflow: {state_dir.resolve()} is in use by process {os.getpid()} (`")
    assert refused.stderr.count("\n") == 1, refused.stderr


def test_rerun_changes_nothing(built, state_dir, integration_project):
    """Last: a second build of the whole project, nothing landed since the first."""
    before = spark_rows(built, f"{SCHEMA}.it_customers_history", history_columns("customers"))
    log_file = state_dir / "logs" / "dbt.log"
    log_starts = log_file.stat().st_size
    # the generic data tests: the singular ones are the decoders' proofs, which read no
    # model (the mask decoders' took 40 of the 44 s of this build in a CI run)
    rerun = ("build", "--exclude", "resource_type:seed", "resource_type:unit_test", "test_type:singular")
    results = run_dbt(state_dir, *rerun, schema=SCHEMA, project_dir=integration_project).result.results
    with log_file.open("rb") as log:
        log.seek(log_starts)
        rerun_log = log.read().decode(errors="replace")
    # its data tests pass reading nothing (cdcflow's test materialization, which the
    # project takes: macros/test_materialization.sql): the first ones run a constant
    # statement (one per dbt thread at most: they start side by side), the others
    # reuse its result and run no statement
    tests = [r for r in results if r.node.resource_type == "test"]
    assert len(tests) > 20 and {str(r.status) for r in tests} == {"pass"}
    statements = rerun_log.count("select 0 as failures, false as should_warn, false as should_error")
    assert 1 <= statements <= 4, statements
    # the tables written once per run (the staging) and the state across runs (DirXML's decided
    # events, the __ct before images waiting for their UPDATE) left as they are
    left = {
        r.node.name: str(r.message)
        for r in results
        if r.node.config.materialized == "cdcflow_table"
        or r.node.name.endswith(("__events_decided", "__before_images_waiting"))
    }
    assert {
        "stg_dirxml__it_emp_events",
        "int_it_emp__events_decided",
        "int_it_emp_roles__events_decided",
        "int_it_customers__before_images_waiting",
    } <= set(left)
    assert set(left.values()) == {"nothing new"}, left
    # and says so: nothing logged, opened, closed or quarantined; _current as it was
    assert _run_summaries(built, "last") == {
        it(table): ("TFEND", 0, 0, 0, _table_figures(built, table)[4], 0) for table in TABLES
    }
    assert spark_rows(built, f"{SCHEMA}.it_customers_history", history_columns("customers")) == before
    assert built.sql(f"select count(*) from {SCHEMA}.int_it_customers__changes_logged").first()[0] == 13
    assert built.sql(f"select count(*) from {SCHEMA}.qlik_ct_quarantine").first()[0] == 4
    assert built.sql(f"select count(*) from {SCHEMA}.qlik_kafka_quarantine").first()[0] == 5
    assert built.sql(f"select count(*) from {SCHEMA}.debezium_quarantine").first()[0] == 4
    assert (
        built.sql(f"select count(*) from {SCHEMA}.int_it_sqlserver_customers__changes_logged").first()[0] == 8
    )
    assert built.sql(f"select count(*) from {SCHEMA}.int_it_emp__changes_logged").first()[0] == 13
    assert built.sql(f"select count(*) from {SCHEMA}.dirxml_quarantine").first()[0] == 6
    assert built.sql(f"select count(*) from {SCHEMA}.dirxml_event_outcomes").first()[0] == 39


def test_a_consumer_project_gets_no_warning_of_the_packages_making(state_dir, integration_project, tmp_path):
    """integration_tests/ installs cdcflow as a user's project does: parsing it (every
    format's tables, the package's shared models reading their models) warns of
    nothing — in particular not that a package node depends on a root project node."""
    from launcher.dbt_invoke import invoke_dbt

    warnings = []

    def collect(event) -> None:
        if event.info.level in ("warn", "error"):
            warnings.append(f"{event.info.name}: {event.info.msg}")

    with env(CDCFLOW_SCHEMA=SCHEMA):
        result = invoke_dbt(
            ["parse", "--no-partial-parse"],
            state_dir=state_dir,
            project_dir=integration_project,
            callbacks=[collect],
            target_path=tmp_path / "target",
        )
    assert result.success, result.exception
    assert warnings == []


def test_the_readmes_sample_summary_is_a_first_runs(built):
    """The per-table figures the README shows for `make run` are those of a first
    run of the samples (here under integration_tests/' names)."""
    readme = (PROJECT_DIR / "README.md").read_text()
    block = readme.split("cdcflow run summary\n", 1)[1].split("```", 1)[0]
    rows = re.findall(r"^ {4}(\w+) +(TFEND) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+)$", block, re.M)
    assert len(rows) >= 3, block
    first = _run_summaries(built, "first")
    for table, *figures in rows:
        assert tuple(str(v) for v in first[it(table)]) == tuple(figures), table
