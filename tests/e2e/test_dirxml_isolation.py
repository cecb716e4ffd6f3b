"""One DirXML table's configuration mistake fails its own group alone: the
samples' event log (emp and emp_roles share it), emp configured with a column
its query-back source table lacks. emp_roles' events are judged and applied,
emp's stay unprocessed (no outcome) until a run with the configuration fixed,
which then gives every table and outcome the samples expect."""

import json

import pytest
import yaml

from tests.e2e.helpers import (
    DIRXML_OUTCOME_COLUMNS,
    INTEGRATION_DIR,
    current_columns,
    history_columns,
    invoke_dbt_in,
    read_expected,
    run_dbt,
    sample_rows,
    spark_rows,
)

pytestmark = pytest.mark.spark

SCHEMA = "e2e_dirxml_isolation"


def _settings(misspelt: bool) -> str:
    tables = yaml.safe_load((INTEGRATION_DIR / "dbt_project.yml").read_text())["vars"]["cdcflow_tables"]
    if misspelt:
        tables["it_emp"]["columns"] = {
            ("picture" if name == "photo" else name): kind
            for name, kind in tables["it_emp"]["columns"].items()
        }
    return json.dumps({"cdcflow_tables": tables})


@pytest.fixture(scope="module")
def runs(spark, state_dir, integration_project):
    run_dbt(
        state_dir,
        "seed",
        "--select",
        # the package's samples, loaded as it_dirxml_event_log, it_emp and it_emp_roles
        "cdcflow.dirxml",
        schema=SCHEMA,
        project_dir=integration_project,
    )
    misconfigured = invoke_dbt_in(
        state_dir,
        ["run", "--select", "source:dirxml+", "--vars", _settings(misspelt=True)],
        schema=SCHEMA,
        project_dir=integration_project,
    )
    after_mistake = {
        "states": {row.name: row for row in spark.sql(f"select * from {SCHEMA}.cdc_states").collect()},
        "outcomes": sample_rows(spark, f"{SCHEMA}.dirxml_event_outcomes", DIRXML_OUTCOME_COLUMNS),
        "emp_roles_current": spark_rows(
            spark, f"{SCHEMA}.it_emp_roles_current", current_columns("emp_roles")
        ),
    }
    fixed = _settings(misspelt=False)
    run_dbt(
        state_dir,
        "run",
        "--select",
        "source:dirxml+",
        "--vars",
        fixed,
        schema=SCHEMA,
        project_dir=integration_project,
    )
    return spark, misconfigured, after_mistake


def test_the_misconfigured_table_fails_alone(runs):
    _, misconfigured, after_mistake = runs
    assert not misconfigured.success
    failed = sorted(r.node.name for r in misconfigured.result.results if str(r.status) != "success")
    assert failed == [
        "int_it_emp__changes_logged",
        "int_it_emp__versioned",
        "it_emp_current",
        "it_emp_history",
    ]
    states = after_mistake["states"]
    assert states["it_emp"].state_name == "ERROR"
    assert states["it_emp"].error_text.startswith(
        "int_it_emp__changes_logged failed: cdcflow: column 'picture' of table 'it_emp' is not in its"
        f" source table {SCHEMA}_raw.it_emp (its columns: empno, fname, lname, photo)"
    )
    assert states["it_emp_roles"].state_name == "TFEND"
    assert after_mistake["emp_roles_current"] == read_expected("emp_roles_current")[1]


def test_the_other_tables_events_are_judged_and_its_own_wait(runs):
    _, _, after_mistake = runs
    expected = read_expected("dirxml_event_outcomes")[1]
    source_table = DIRXML_OUTCOME_COLUMNS.index("source_table")
    assert after_mistake["outcomes"] == [row for row in expected if row[source_table] != "emp"]


def test_the_run_with_the_configuration_fixed_loses_nothing(runs):
    spark, _, _ = runs
    assert (
        sample_rows(spark, f"{SCHEMA}.dirxml_event_outcomes", DIRXML_OUTCOME_COLUMNS)
        == read_expected("dirxml_event_outcomes")[1]
    )
    for table in ("emp", "emp_roles"):
        assert (
            spark_rows(spark, f"{SCHEMA}.it_{table}_history", history_columns(table))
            == read_expected(f"{table}_history")[1]
        )
        assert (
            spark_rows(spark, f"{SCHEMA}.it_{table}_current", current_columns(table))
            == read_expected(f"{table}_current")[1]
        )
    states = {row.name: row.state_name for row in spark.sql(f"select * from {SCHEMA}.cdc_states").collect()}
    assert states == {"it_emp": "TFEND", "it_emp_roles": "TFEND"}
