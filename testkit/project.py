"""A dbt project that onboards tables the way docs/onboarding.md says: it installs
cdcflow as a package (``packages.yml``, ``local:`` this repository), configures
its tables in ``vars``, and ``cdcflow onboard`` writes its models. The
benchmark builds its tables this way; so do the end-to-end tests whose tables
are their own. Nothing of the repository is copied."""

from __future__ import annotations

from pathlib import Path

import yaml

from launcher import onboard
from testkit.workload import table_config, table_name

PROJECT_DIR = Path(__file__).resolve().parent.parent


def install_packages(project: Path) -> None:
    """``dbt deps``: links the local cdcflow package into dbt_packages/ (no network)."""
    from dbt.cli.main import dbtRunner

    from launcher.dbt_invoke import profiles_dir

    state = project / ".dbt-deps"
    result = dbtRunner().invoke(
        [
            "deps",
            "--project-dir",
            str(project),
            "--profiles-dir",
            str(profiles_dir(project)),
            "--log-path",
            str(state / "logs"),
        ]
    )
    if not result.success:
        raise RuntimeError(f"dbt deps failed in {project}: {result.exception}")


def onboarded_project(
    project: Path,
    tables: dict[str, dict],
    settings: dict | None = None,
    name: str = "cdcflow_onboarded",
    project_config: dict | None = None,
) -> Path:
    """Create ``project``: dbt_project.yml with ``settings`` (cdcflow's other
    vars, e.g. cdcflow_raw_schema), ``tables`` (vars.cdcflow_tables) and
    ``project_config`` (more dbt_project.yml keys), packages.yml, the models
    ``cdcflow onboard`` writes, cdcflow installed."""
    project.mkdir(parents=True)
    document = {
        "name": name,
        "version": "0.1.0",
        "config-version": 2,
        "profile": "cdcflow",
        "model-paths": ["models"],
        "vars": {**(settings or {}), "cdcflow_tables": tables},
        **(project_config or {}),
    }
    (project / "dbt_project.yml").write_text(yaml.safe_dump(document, sort_keys=False))
    (project / "packages.yml").write_text(yaml.safe_dump({"packages": [{"local": str(PROJECT_DIR)}]}))
    onboard.write(project)
    install_packages(project)
    return project


def workload_project(project: Path, workload, source_formats=("qlik_ct",), raw_schema: str = "") -> Path:
    """A project onboarding the benchmark's table once per format (testkit/workload.py
    names); the package brings each format's shared models (quarantine, DirXML's
    event outcomes, Qlik Kafka's table versions)."""
    tables = {table_name(f): table_config(workload, f) for f in source_formats}
    return onboarded_project(project, tables, {"cdcflow_raw_schema": raw_schema}, name="cdcflow_bench")
