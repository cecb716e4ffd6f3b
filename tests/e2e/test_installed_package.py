"""A user's own project, the way docs/onboarding.md installs cdcflow: the Python
side with `pip install <cdcflow>` into a virtual environment of its own (the
launcher, the UDFs, the pinned dbt, dbt-spark and PySpark), the dbt package with
packages.yml; then `dbt deps`, `cdcflow onboard`, `cdcflow dbt -- seed` and
`cdcflow dbt -- build` in the project's folder, after `cdcflow jars --install`
(the default table format, Delta Lake, needs its jars). Nothing here runs from the
repository's own environment."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.e2e.helpers import EXPECTED_DIR, SEEDS_DIR, dbt_warnings, tracked_copy

pytestmark = pytest.mark.spark

SCHEMA = "shop"
CT_COLUMN_TYPES = {
    "header__change_seq": "string",
    "header__change_oper": "string",
    "header__change_mask": "string",  # CSV holds the mask as hex text; staging reads either
    "header__stream_position": "string",
    "header__operation": "string",
    "header__transaction_id": "string",
    "header__timestamp": "timestamp",
}
COLUMNS = {"customer_id": "int", "first_name": "string", "last_name": "string", "email": "string"}
CURRENT_TYPES = {
    **COLUMNS,
    "last_operation": "string",
    "last_change_order": "string",
    "last_changed_at": "timestamp",
}


def _sql_text(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _consumer_project(folder: Path, cdcflow: Path) -> Path:
    """A project of its own: one Qlik `__ct` table in vars (named as one of
    cdcflow's samples), its raw tables as seeds, and a data test comparing its
    `_current` with the expected one."""
    seeds = folder / "seeds"
    seeds.mkdir(parents=True)
    shutil.copy(SEEDS_DIR / "customers__ct.csv", seeds / "customers__ct.csv")
    shutil.copy(SEEDS_DIR / "customers.csv", seeds / "customers.csv")
    (folder / "packages.yml").write_text(f"packages:\n  - local: {cdcflow}\n")
    project = {
        "name": "shop",
        "version": "1.0.0",
        "config-version": 2,
        "profile": "cdcflow",
        "vars": {
            "cdcflow_tables": {
                "customers": {
                    "format": "qlik_ct",
                    "change_table": "customers__ct",
                    "full_load_table": "customers",
                    "key": ["customer_id"],
                    "columns": COLUMNS,
                }
            }
        },
        # the raw tables land in <schema>_raw, where the models read them by default
        "seeds": {"shop": {"+schema": "raw", "+file_format": "parquet"}},
    }
    (folder / "dbt_project.yml").write_text(json.dumps(project, indent=2))
    seed_types = {
        "customers__ct": {**CT_COLUMN_TYPES, **COLUMNS},
        "customers": COLUMNS,
    }
    (seeds / "_seeds.yml").write_text(
        json.dumps(
            {
                "version": 2,
                "seeds": [{"name": n, "config": {"column_types": t}} for n, t in seed_types.items()],
            }
        )
    )
    # the expected `_current`, inline (a test reading a seed would leave the build with the
    # seeds excluded)
    with open(EXPECTED_DIR / "customers_current.csv", newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        assert header == list(CURRENT_TYPES), header
        rows = [
            "("
            + ", ".join(
                f"cast({_sql_text(value)} as {data_type})" if value else f"cast(null as {data_type})"
                for value, data_type in zip(row, CURRENT_TYPES.values(), strict=True)
            )
            + ")"
            for row in reader
        ]
    columns = ", ".join(CURRENT_TYPES)
    (folder / "tests").mkdir()
    (folder / "tests" / "customers_current_is_expected.sql").write_text(
        textwrap.dedent(
            f"""\
            with actual as (select {columns} from {{{{ ref('customers_current') }}}}),
            expected as (select * from values {", ".join(rows)} as expected({columns}))
            select 'missing' as side, * from (select * from expected except all select * from actual)
            union all
            select 'unexpected' as side, * from (select * from actual except all select * from expected)
            """
        )
    )
    return folder


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the project's folder, its environment, each command's result): cdcflow
    installed with pip into a new virtual environment, the project onboarded and
    built there."""
    base = tmp_path_factory.mktemp("installed")
    # pip builds in the folder it installs from: a copy, the repository stays clean
    cdcflow = tracked_copy(base / "cdcflow")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bin_dir = venv / "bin"
    pip = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(cdcflow)],
        capture_output=True,
        text=True,
    )
    assert pip.returncode == 0, pip.stderr[-3000:]
    project = _consumer_project(base / "shop", cdcflow)
    env = {key: value for key, value in os.environ.items() if key not in ("DBT_PROFILES_DIR", "PYTHONPATH")}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env['PATH']}", CDCFLOW_SCHEMA=SCHEMA, VIRTUAL_ENV=str(venv))
    env.pop("CDCFLOW_STATE_DIR", None)
    steps = {}
    for name, command in (
        ("where", ["python", "-c", "import launcher, udfs; print(launcher.__file__, udfs.__file__)"]),
        ("deps", ["dbt", "deps"]),
        ("onboard", ["cdcflow", "onboard"]),
        # the Delta Lake jars of the default table format, with Maven (from its local
        # repository, which `make setup` filled, or Maven Central), into the venv
        ("jars", ["cdcflow", "jars", "--install"]),
        ("seed", ["cdcflow", "dbt", "--", "seed"]),
        ("build", ["cdcflow", "dbt", "--", "build", "--exclude", "resource_type:seed"]),
        ("run outside a clone", ["cdcflow", "run"]),
    ):
        steps[name] = subprocess.run(
            [str(bin_dir / command[0]), *command[1:]], cwd=project, env=env, capture_output=True, text=True
        )
        if name != "run outside a clone":
            assert steps[name].returncode == 0, (name, (steps[name].stdout + steps[name].stderr)[-4000:])
    return project, venv, steps


def test_the_launcher_and_udfs_come_from_the_users_environment(installed):
    _, venv, steps = installed
    paths = [Path(p) for p in steps["where"].stdout.split()]
    assert len(paths) == 2 and all(venv in p.parents for p in paths), paths


def test_a_users_project_builds_with_the_installed_cdcflow(installed):
    project, venv, steps = installed
    # the jars went into the user's environment, and the tables are Delta Lake's
    jars = sorted(Path(line).name for line in steps["jars"].stdout.split())
    assert any(jar.startswith("delta-spark_") for jar in jars), jars
    assert all((venv / "share" / "cdcflow" / "jars" / jar).is_file() for jar in jars)
    assert (
        project / ".cdcflow" / "spark-warehouse" / "shop.db" / "customers_current" / "_delta_log"
    ).is_dir()
    assert (project / "models" / "staging" / "qlik_ct" / "stg_qlik_ct__customers_changes.sql").is_file()
    # the state (warehouse, metastore, dbt's artifacts) is the project's own
    results = json.loads((project / ".cdcflow" / "target" / "run_results.json").read_text())["results"]
    status = {r["unique_id"]: r["status"] for r in results}
    assert status["test.shop.customers_current_is_expected"] == "pass"
    assert status["model.shop.customers_current"] == "success"
    # the quarantine's tests warn of the samples' bad rows; nothing fails
    assert [uid for uid, s in status.items() if s not in ("success", "pass", "warn")] == []
    # the package's tests are on its own models only (none of its samples' on the
    # user's table of the same name)
    manifest = json.loads((project / ".cdcflow" / "target" / "manifest.json").read_text())
    tested = {
        parent
        for uid in status
        if uid.startswith("test.cdcflow.")
        for parent in manifest["nodes"][uid]["depends_on"]["nodes"]
    }
    assert tested and all(parent.startswith("model.cdcflow.") for parent in tested), tested
    assert "cdcflow: what this run did, per table" in steps["build"].stdout + steps["build"].stderr
    # the JVM logs with the launcher's configuration (launcher/log4j2.properties, installed
    # with it): none of Spark's default-profile lines, nor Hadoop's native-library warning
    started = steps["build"].stderr
    assert "Using Spark's default log4j profile" not in started and "NativeCodeLoader" not in started, started
    # dbt warns of nothing the package makes (its samples, their tests, its refs)
    for name in ("deps", "onboard", "seed", "build"):
        assert dbt_warnings(steps[name].stdout + steps[name].stderr) == [], (name, steps[name].stdout[-3000:])


def test_cdcflow_run_outside_a_clone_says_what_to_run_instead(installed):
    _, _, steps = installed
    outside = steps["run outside a clone"]
    assert outside.returncode == 2
    assert outside.stderr.strip() == (
        "cdcflow run builds the samples of a clone of cdcflow (`make run` there); in your own"
        " project: cdcflow dbt -- build"
    )
