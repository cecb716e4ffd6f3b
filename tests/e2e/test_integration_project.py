"""integration_tests/: a dbt project that installs cdcflow as a package
(packages.yml, `local: ../`), onboards a table of every format from its own
seeds (the samples' payloads under names of its own) with `cdcflow onboard`,
and builds: the dbt unit tests of the macros, the mask-decoder proofs and every
data test pass, the package's hooks record the ranges, and the marts equal the
samples' expected tables."""

import json

import pytest

from tests.e2e.helpers import TABLES, current_columns, history_columns, read_expected, run_dbt, spark_rows

SCHEMA = "e2e_package"

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def manifest(built, state_dir):
    """The manifest of the build (no other dbt invocation of this module follows it)."""
    return json.loads((state_dir / "target" / "manifest.json").read_text())


@pytest.fixture(scope="module")
def built(spark, state_dir, integration_project):
    run_dbt(state_dir, "seed", schema=SCHEMA, project_dir=integration_project)
    # everything: unit tests, the exhaustive mask-decoder proof, the data tests
    run_dbt(
        state_dir, "build", "--exclude", "resource_type:seed", schema=SCHEMA, project_dir=integration_project
    )
    return spark


@pytest.mark.parametrize("table", list(TABLES))
def test_history_equals_the_samples_expected(built, table):
    header, expected = read_expected(f"{table}_history")
    assert header == history_columns(table)
    assert spark_rows(built, f"{SCHEMA}.it_{table}_history", header) == expected


@pytest.mark.parametrize("table", list(TABLES))
def test_current_equals_the_samples_expected(built, table):
    header, expected = read_expected(f"{table}_current")
    assert header == current_columns(table)
    assert spark_rows(built, f"{SCHEMA}.it_{table}_current", header) == expected


def test_the_package_hooks_record_every_group(built):
    states = built.sql(f"select name, state_name from {SCHEMA}.cdc_states").collect()
    assert sorted(tuple(row) for row in states) == sorted((f"it_{table}", "TFEND") for table in TABLES)


def test_the_package_builds_none_of_its_samples(built):
    tables = {row.tableName for row in built.sql(f"show tables in {SCHEMA}").collect() if not row.isTemporary}
    assert not {f"{table}_history" for table in TABLES} & tables
    assert {"qlik_ct_quarantine", "dirxml_event_outcomes", "int_qlik_kafka__table_versions"} <= tables
    raw = {
        row.tableName for row in built.sql(f"show tables in {SCHEMA}_raw").collect() if not row.isTemporary
    }
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


def test_source_freshness_reads_each_feeds_landing_time(built, state_dir, integration_project):
    """`dbt source freshness` checks the feeds (change and landing tables) on
    when their rows landed, and leaves out what is written once (full loads)
    or kept as it is now (DirXML's query-back tables)."""
    run_dbt(state_dir, "source", "freshness", schema=SCHEMA, project_dir=integration_project)
    results = json.loads((state_dir / "target" / "sources.json").read_text())["results"]
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
