"""Run dbt in this process, on the SparkSession the launcher created."""

from __future__ import annotations

import os
from pathlib import Path

from launcher.spark import PROJECT_DIR

# cdcflow's own profile (profile `cdcflow`: the embedded session and Thrift
# targets), installed with the launcher
BUNDLED_PROFILES_DIR = Path(__file__).resolve().parent


def profiles_dir(project_dir: Path = PROJECT_DIR) -> Path:
    """DBT_PROFILES_DIR if set, else ``project_dir`` when it holds a profiles.yml,
    else cdcflow's own (launcher/profiles.yml)."""
    if os.environ.get("DBT_PROFILES_DIR"):
        return Path(os.environ["DBT_PROFILES_DIR"])
    if (Path(project_dir) / "profiles.yml").is_file():
        return Path(project_dir)
    return BUNDLED_PROFILES_DIR


def invoke_dbt(
    args: list[str],
    *,
    state_dir: Path,
    target: str = "session",
    project_dir: Path = PROJECT_DIR,
    callbacks: list | None = None,
    target_path: Path | None = None,
):
    """Invoke dbt with ``args`` against this project (or ``project_dir``); return
    dbt's result object. ``callbacks`` receive dbt's events. dbt writes its
    artifacts to ``target_path`` (default: ``state_dir``/target) and its log to
    ``state_dir``/logs."""
    from dbt.cli.main import dbtRunner

    full_args = [
        *args,
        "--project-dir",
        str(project_dir),
        "--profiles-dir",
        str(profiles_dir(project_dir)),
        "--target",
        target,
        "--target-path",
        str(target_path or Path(state_dir) / "target"),
        "--log-path",
        str(Path(state_dir) / "logs"),
    ]
    return dbtRunner(callbacks=callbacks or []).invoke(full_args)
