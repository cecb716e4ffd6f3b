"""The lint, as tests of the suite (`make lint` runs this file alone; `make test`
runs it beside the other files, in the session its worker keeps): ruff over
the Python, sqlfluff (`.sqlfluff`) over the SQL that dbt compiles every model
and data test of the project to, and the singular tests of integration_tests/
(the decoder proofs; its models are the samples'). Unit tests are left out:
their compiled SQL is dbt's fixture scaffolding."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.helpers import PROJECT_DIR, run_dbt, target_path

BIN = Path(sys.executable).parent
SCHEMA = "e2e_lint"


def _tool(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(BIN / command[0]), *command[1:]], cwd=PROJECT_DIR, capture_output=True, text=True
    )


@pytest.mark.parametrize(
    "command", [("ruff", "check", "."), ("ruff", "format", "--check", ".")], ids=" ".join
)
def test_ruff(command):
    completed = _tool(*command)
    assert completed.returncode == 0, completed.stdout + completed.stderr


@pytest.mark.spark
def test_the_compiled_sql_passes_sqlfluff(spark, state_dir, integration_project):
    compiled = []
    for project, selection in [
        (PROJECT_DIR, ("--exclude", "test_type:unit")),
        (integration_project, ("--select", "test_type:singular")),
    ]:
        folder = target_path(state_dir, project, SCHEMA) / "compiled"
        shutil.rmtree(folder, ignore_errors=True)  # no file of an earlier compile linted again
        run_dbt(state_dir, "compile", *selection, "--quiet", schema=SCHEMA, project_dir=project)
        assert any(folder.rglob("*.sql")), f"dbt compiled nothing into {folder}"
        compiled.append(str(folder))
    completed = _tool(
        "sqlfluff", "lint", *compiled, "--config", str(PROJECT_DIR / ".sqlfluff"), "--processes", "2"
    )
    assert completed.returncode == 0, completed.stdout[-20000:] + completed.stderr[-5000:]
