"""A project that sets vars.cdcflow_table_format gets a Spark session that serves
that format (the jars `make setup` installed, its extension and `spark_catalog`):
`cdcflow dbt` runs a dbt-spark incremental model of that file_format twice, the
second run a MERGE, and the table holds the merged rows; the session still reads
and writes plain Hive (parquet) tables beside it. The second run replaces a table
model's Delta table, and prints no ERROR line of Spark's log (launcher/spark.py,
RECOVERED_FAILURE_LOGGERS). `cdcflow serve` in the folder of
a Delta project serves it the same way to dbt over Thrift. Each format runs in a process
of its own: a JVM takes its jars and catalog when it starts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from launcher.dbt_invoke import BUNDLED_PROFILES_DIR
from tests.e2e.helpers import free_port, stop_process_group, wait_for_line
from tests.e2e.suite import full_suite_only

pytestmark = pytest.mark.spark

MODEL = """\
{{ config(
    materialized='incremental', incremental_strategy='merge', unique_key='id',
    file_format=var('cdcflow_table_format')
) }}
select * from values
{%- if var('batch') == 1 %} (1, 'a'), (2, 'b'){% else %} (2, 'B'), (3, 'c'){% endif %}
as accounts(id, name)
"""

# a table model: each run replaces its table (`create or replace table ... as select`)
TABLE_MODEL = """\
{{ config(materialized='table', file_format=var('cdcflow_table_format')) }}
select count(*) as accounts, {{ var('batch') }} as batch from {{ ref('accounts') }}
"""

# two `cdcflow dbt` runs in one process (one JVM), then what the session sees
SCRIPT = """\
import json, sys
from launcher.cli import main
from pyspark.sql import SparkSession

project, state = sys.argv[1], sys.argv[2]
for batch in (1, 2):
    code = main(["dbt", "--project-dir", project, "--state-dir", state, "--", "run",
                 "--vars", json.dumps({"batch": batch})])
    assert code == 0, f"dbt run of batch {batch} failed"
spark = SparkSession.getActiveSession()
spark.sql("create table fmt.plain (id int) using parquet")
spark.sql("insert into fmt.plain values (7)")
provider = [r for r in spark.sql("describe table extended fmt.accounts").collect() if r[0] == "Provider"]
print(json.dumps({
    "rows": [list(r) for r in spark.sql("select id, name from fmt.accounts order by id").collect()],
    "provider": provider[0][1].lower() if provider else None,
    "catalog": spark.conf.get("spark.sql.catalog.spark_catalog"),
    "plain": [r[0] for r in spark.sql("select id from fmt.plain").collect()],
    "counted": [list(r) for r in spark.sql("select accounts, batch from fmt.account_count").collect()],
}))
"""


def _project(tmp_path, table_format: str):
    project = tmp_path / "project"
    (project / "models").mkdir(parents=True)
    (project / "dbt_project.yml").write_text(
        textwrap.dedent(
            f"""\
            name: formats
            profile: cdcflow
            vars:
              cdcflow_table_format: {table_format}
              batch: 1
            """
        )
    )
    (project / "models" / "accounts.sql").write_text(MODEL)
    return project


def test_a_projects_table_format_is_served_and_merged_into(tmp_path):
    # Delta here: the CLI reads the format from the project (the equivalence runs
    # cdcflow's own models on Delta Lake and Iceberg sessions, tests/e2e/equivalence.py)
    table_format, catalog = "delta", "org.apache.spark.sql.delta.catalog.DeltaCatalog"
    project = _project(tmp_path, table_format)
    (project / "models" / "account_count.sql").write_text(TABLE_MODEL)
    finished = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(project), str(tmp_path / "state")],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "CDCFLOW_SCHEMA": "fmt", "CDCFLOW_TABLE_FORMAT": ""},
    )
    assert finished.returncode == 0, finished.stdout[-3000:] + finished.stderr[-3000:]
    seen = json.loads(finished.stdout.strip().splitlines()[-1])
    assert seen == {
        "rows": [[1, "a"], [2, "B"], [3, "c"]],
        "provider": table_format,
        "catalog": catalog,
        "plain": [7],
        "counted": [[3, 2]],
    }
    # Delta's `create or replace` of the table the first run made: Hive's refusal to
    # store its schema as Hive columns, which Spark recovers from, is not printed
    assert [line for line in finished.stderr.splitlines() if " ERROR " in line] == []


@full_suite_only("test_thrift.py: the quickstart's `cdcflow serve` and dbt over Thrift, on Delta Lake")
def test_cdcflow_serve_serves_the_projects_delta_to_dbt_over_thrift(tmp_path):
    project = _project(tmp_path, "delta")
    port = free_port()
    env = {
        **os.environ,
        "CDCFLOW_SCHEMA": "fmt",
        "CDCFLOW_TABLE_FORMAT": "",
        "CDCFLOW_THRIFT_PORT": str(port),
        "CDCFLOW_STATE_DIR": str(tmp_path / "state"),
    }
    env.pop("DBT_PROFILES_DIR", None)
    log_path = tmp_path / "serve.log"
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "launcher.cli", "serve", "--master", "local[2]"],
            cwd=project,  # the project of its folder chooses the format
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            wait_for_line(log_path, "listening", server, "Thrift server")
            dbt = str(Path(sys.executable).parent / "dbt")
            for batch in (1, 2):
                finished = subprocess.run(
                    [dbt, "run", "--target", "thrift", "--profiles-dir", str(BUNDLED_PROFILES_DIR),
                     "--vars", json.dumps({"batch": batch})],
                    cwd=project,
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=600,
                )  # fmt: skip
                assert finished.returncode == 0, finished.stdout[-3000:] + finished.stderr[-3000:]
            from pyhive import hive

            with hive.connect(host="127.0.0.1", port=port, username="cdcflow") as connection:
                cursor = connection.cursor()
                cursor.execute("select id, name from fmt.accounts order by id")
                rows = [list(row) for row in cursor.fetchall()]
                cursor.execute("describe table extended fmt.accounts")
                provider = [row[1] for row in cursor.fetchall() if row[0] == "Provider"]
                cursor.execute("describe history fmt.accounts")
                operations = sorted(row[4] for row in cursor.fetchall())
        finally:
            stop_process_group(server)
    assert rows == [[1, "a"], [2, "B"], [3, "c"]]
    assert provider == ["delta"]
    assert operations == ["CREATE OR REPLACE TABLE AS SELECT", "MERGE"]
