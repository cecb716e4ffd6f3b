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


def workload_project(project: Path, source_formats=("qlik_ct",)) -> Path:
    """A project onboarding the benchmark's table once per format (bench/workload.py
    names): per table its staging, change log, versioned table, ``_current`` and
    ``_history``, and its format's quarantine (DirXML: and its event outcomes)."""
    from bench.workload import RAW_TABLES, table_name

    per_format = {
        "qlik_ct": lambda t: {
            f"staging/stg_qlik_ct__{t}_changes": f"stg_qlik_ct_changes('{t}')",
            f"staging/stg_qlik_ct__{t}_full_load": f"stg_qlik_ct_full_load('{t}')",
            "marts/qlik_ct_quarantine": "qlik_ct_quarantine()",
        },
        "qlik_kafka": lambda t: {
            f"staging/stg_qlik_kafka__{t}_messages": f"stg_qlik_kafka_messages('{t}')",
            "intermediate/int_qlik_kafka__table_versions": "qlik_kafka_table_versions()",
            "marts/qlik_kafka_quarantine": "qlik_kafka_quarantine()",
        },
        "debezium": lambda t: {
            f"staging/stg_debezium__{t}_events": f"stg_debezium_events('{t}')",
            "marts/debezium_quarantine": "debezium_quarantine()",
        },
        "dirxml": lambda t: {
            f"staging/stg_dirxml__{t}_events": f"stg_dirxml_events('{t}')",
            "marts/dirxml_event_outcomes": "dirxml_event_outcomes()",
            "marts/dirxml_quarantine": "dirxml_quarantine()",
        },
    }
    models = {}
    for source_format in source_formats:
        table = table_name(source_format)
        models.update(per_format[source_format](table))
        models[f"intermediate/int_{table}__changes_logged"] = f"{source_format}_change_log('{table}')"
        models[f"intermediate/int_{table}__versioned"] = f"versioned_model('{table}')"
        models[f"marts/{table}_current"] = f"scd1_current('{table}')"
        models[f"marts/{table}_history"] = f"history_view('{table}')"
    sources = {source_format: RAW_TABLES[source_format] for source_format in source_formats}
    return onboarded_project(project, sources, models)
