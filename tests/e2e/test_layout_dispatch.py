"""The table format chooses the chain's code in one place (cdcflow.layout_macro,
adapter.dispatch in namespace cdcflow): a project replaces a layout's macro with
one of its own, as it would any package's."""

import pytest

from testkit.project import onboarded_project
from tests.e2e.helpers import invoke_dbt_in

pytestmark = pytest.mark.spark

OVERRIDE = """{% macro spark__merged_valid_versions(versions, versioned, key_columns) %}
    {{ return('select * from ' ~ versions ~ ' as version where not is_test_row') }}
{% endmacro %}
"""
CALL = "{{ cdcflow.layout_macro('valid_versions')('chain', 'chain', ['id']) }}"


@pytest.fixture(scope="module")
def overriding_project(tmp_path_factory):
    """A project installing cdcflow, no table, with its own Delta/Iceberg
    valid_versions and dispatch config putting it first."""
    project = onboarded_project(
        tmp_path_factory.mktemp("dispatch") / "project",
        {},
        name="cdcflow_dispatching",
        project_config={
            "models": {"cdcflow": {"+enabled": False}},
            "dispatch": [{"macro_namespace": "cdcflow", "search_order": ["cdcflow_dispatching", "cdcflow"]}],
        },
    )
    (project / "macros").mkdir(exist_ok=True)
    (project / "macros" / "merged_valid_versions.sql").write_text(OVERRIDE)
    return project


def _compiled(project, state_dir, *extra: str) -> str:
    result = invoke_dbt_in(
        state_dir, ["compile", "--inline", CALL, *extra], schema="e2e_dispatch", project_dir=project
    )
    assert result.success, result.exception
    return " ".join(result.result.results[0].node.compiled_code.split())


def test_a_project_replaces_a_layouts_macro_by_dispatch(spark, state_dir, overriding_project):
    # Delta (the default) and Iceberg: the project's macro
    assert _compiled(overriding_project, state_dir) == "select * from chain as version where not is_test_row"
    assert (
        _compiled(overriding_project, state_dir, "--vars", "{cdcflow_table_format: iceberg}")
        == "select * from chain as version where not is_test_row"
    )
    # parquet's layout is cdcflow's own: the links no later touch superseded
    parquet = _compiled(overriding_project, state_dir, "--vars", "{cdcflow_table_format: parquet}")
    assert parquet.startswith(
        "select link.* from chain as link left anti join "
        "(select id, valid_to_change_order as first_new_change_order"
    )
    assert "where written_in_run >= 'open' and change_order is null" in parquet
