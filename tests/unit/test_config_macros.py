"""launcher/config_macros.py: onboard validates a vars entry with the run's own
macro (macros/config/table_config.sql), the one the project installed."""

import shutil

import pytest
import yaml

from launcher import config_macros
from launcher.onboard import OnboardingError, write

ENTRY = {"format": "qlik_ct", "key": ["id"], "columns": {"id": "int", "name": "string"}}


def _project(tmp_path, **settings):
    document = {"name": "my_project", "vars": {"cdcflow_tables": {"t": ENTRY}}, **settings}
    (tmp_path / "dbt_project.yml").write_text(yaml.safe_dump(document))
    return tmp_path


def test_table_config_rendered_outside_dbt_gives_what_a_run_reads():
    config = config_macros.table_config("t", {"cdcflow_tables": {"t": ENTRY}})
    assert (config["change_table"], config["key"], config["data_columns"]) == ("t__ct", ["id"], ["name"])
    assert (config["first_data_bit"], config["history_columns"], config["deletes"]) == (7, None, "remove")
    with pytest.raises(config_macros.MacroError, match="cdcflow: table 'nope' is not configured"):
        config_macros.table_config("nope", {"cdcflow_tables": {"t": ENTRY}})


@pytest.mark.parametrize("install_path", [None, "packages"])
def test_onboard_reads_the_macros_of_the_cdcflow_the_project_installed(tmp_path, install_path):
    project = _project(tmp_path, **({"packages-install-path": install_path} if install_path else {}))
    installed = project / (install_path or "dbt_packages") / "cdcflow" / "macros" / "config"
    shutil.copytree(config_macros.CHECKOUT_DIR, installed)
    # the installed version's rule, not the clone's: its message is the one onboard gives
    rule = installed / "table_config.sql"
    refusal = "{{ exceptions.raise_compiler_error('cdcflow: installed rule') }}"
    line = "{%- set raw = tables[table_name] -%}"
    rule.write_text(rule.read_text().replace(line, line + refusal))
    with pytest.raises(OnboardingError, match="^installed rule$"):
        write(project)


def test_onboard_before_dbt_deps_says_to_run_it(tmp_path, monkeypatch):
    monkeypatch.setattr(config_macros, "CHECKOUT_DIR", tmp_path / "not-a-clone")
    project = _project(tmp_path)
    message = r"cdcflow's macros are not installed in .*: run `dbt deps` first"
    with pytest.raises(OnboardingError, match=message):
        write(project)
    assert not (project / "models").exists()
