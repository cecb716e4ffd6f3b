"""Run dbt in this process, on the SparkSession the launcher created."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from launcher.spark import PROJECT_DIR


def profiles_dir(state_dir: Path) -> Path:
    """DBT_PROFILES_DIR if set, else a folder holding profiles.example.yml as profiles.yml."""
    configured = os.environ.get("DBT_PROFILES_DIR")
    if configured:
        return Path(configured)
    folder = Path(state_dir) / "profiles"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(PROJECT_DIR / "profiles.example.yml", folder / "profiles.yml")
    return folder


def invoke_dbt(args: list[str], *, state_dir: Path, target: str = "session", project_dir: Path = PROJECT_DIR):
    """Invoke dbt with ``args`` against this project (or ``project_dir``); return
    dbt's result object."""
    from dbt.cli.main import dbtRunner

    full_args = [
        *args,
        "--project-dir",
        str(project_dir),
        "--profiles-dir",
        str(profiles_dir(state_dir)),
        "--target",
        target,
        "--target-path",
        str(Path(state_dir) / "target"),
        "--log-path",
        str(Path(state_dir) / "logs"),
    ]
    return dbtRunner().invoke(full_args)
