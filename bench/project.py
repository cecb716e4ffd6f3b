"""A copy of the cdcflow project that onboards other tables, the way the README
says: the project's configuration and macros, a sources file and one-line
model files. The benchmark builds its table this way; so do the end-to-end tests."""

from __future__ import annotations

import shutil
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent


def onboarded_project(project: Path, sources: dict[str, list[str]], models: dict[str, str]) -> Path:
    """Create ``project``: dbt_project.yml and macros/ of cdcflow, ``sources``
    (source name -> raw tables, in var cdcflow_raw_schema) and ``models`` (path
    under models/ -> the cdcflow macro call making its body)."""
    project.mkdir(parents=True)
    shutil.copy(PROJECT_DIR / "dbt_project.yml", project)
    shutil.copytree(PROJECT_DIR / "macros", project / "macros")
    for folder in ("staging", "intermediate", "marts"):
        (project / "models" / folder).mkdir(parents=True)
    (project / "models" / "staging" / "_sources.yml").write_text(
        "version: 2\nsources:\n"
        + "".join(
            f"  - name: {source}\n    schema: \"{{{{ var('cdcflow_raw_schema') }}}}\"\n    tables:\n"
            + "".join(f"      - name: {table}\n" for table in tables)
            for source, tables in sources.items()
        )
    )
    for model, call in models.items():
        (project / "models" / f"{model}.sql").write_text(f"{{{{ cdcflow.{call} }}}}\n")
    return project


def qlik_ct_project(project: Path, table: str) -> Path:
    """A project with one Qlik ``__ct`` table: its staging, change log,
    versioned table, ``_current`` and ``_history``, and the quarantine."""
    return onboarded_project(
        project,
        {"qlik_ct": [f"{table}__ct", table]},
        {
            f"staging/stg_qlik_ct__{table}_changes": f"stg_qlik_ct_changes('{table}')",
            f"staging/stg_qlik_ct__{table}_full_load": f"stg_qlik_ct_full_load('{table}')",
            f"intermediate/int_{table}__changes_logged": f"qlik_ct_change_log('{table}')",
            f"intermediate/int_{table}__versioned": f"versioned_model('{table}')",
            f"marts/{table}_current": f"scd1_current('{table}')",
            f"marts/{table}_history": f"history_view('{table}')",
            "marts/qlik_ct_quarantine": "qlik_ct_quarantine()",
        },
    )
