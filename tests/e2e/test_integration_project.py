"""integration_tests/: a dbt project that installs cdcflow as a package
(packages.yml, `local: ../`), onboards a table of every format from its own
seeds (the samples' payloads under names of its own) with `cdcflow onboard`,
and builds: the dbt unit tests of the macros, the mask-decoder proofs and every
data test pass, the package's hooks record the ranges, and the marts equal the
samples' expected tables."""

import pytest

from tests.e2e.helpers import TABLES, current_columns, history_columns, read_expected, run_dbt, spark_rows

SCHEMA = "e2e_package"

pytestmark = pytest.mark.spark


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
