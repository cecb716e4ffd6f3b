"""The driver JVM's class-data archive (launcher/class_archive.py) with a real JVM:
`cdcflow class-archive` (`make setup`) makes it as its JVM ends, the next session
maps Spark's classes from it. The suite gives its settings as a properties file,
which keeps the archive (a SPARK_CONF_DIR holding files rules it out)."""

import os
import subprocess
import sys

import pytest

from tests.e2e.helpers import PROJECT_DIR
from tests.e2e.suite import full_suite_only

pytestmark = pytest.mark.spark

SESSION = """
import sys
from pathlib import Path
from launcher.spark import build_session
spark = build_session(state_dir=Path(sys.argv[1]), master="local[1]", table_format="parquet",
                      extra_conf={"spark.driver.defaultJavaOptions": sys.argv[2]})
assert spark.sql("select 1 as one").collect()[0].one == 1
"""


def _session(tmp_path, name: str, environment: dict) -> subprocess.CompletedProcess:
    loaded = tmp_path / f"{name}-classes.log"
    completed = subprocess.run(
        [sys.executable, "-c", SESSION, str(tmp_path / name), f"-Xlog:class+load=info:file={loaded}"],
        cwd=PROJECT_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return loaded.read_text()


@full_suite_only(
    "`make setup` makes the archive with `cdcflow class-archive`, and every Spark the suite"
    " starts maps its classes from it; tests/unit/test_class_archive.py"
)
def test_cdcflow_class_archive_makes_the_archive_and_the_next_session_maps_spark_s_classes_from_it(tmp_path):
    # what `make setup` runs; without it, the first session of an installation makes it as it ends
    archives = tmp_path / "archives"
    environment = {key: value for key, value in os.environ.items() if key != "SPARK_CONF_DIR"}
    environment.update(CDCFLOW_CLASS_ARCHIVE_DIR=str(archives))

    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "launcher.cli",
            "class-archive",
            "--table-format",
            "parquet",
            "--master",
            "local[1]",
        ],
        cwd=PROJECT_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert made.returncode == 0, made.stderr[-3000:]
    archive = sorted(path.name for path in archives.iterdir())
    assert len(archive) == 1 and archive[0].startswith("spark-") and archive[0].endswith(".jsa"), archive
    assert made.stdout == f"cdcflow: class-data archive {archives / archive[0]}\n"

    session = _session(tmp_path, "session", environment)
    assert "org.apache.spark.SparkContext source: shared objects file (top)" in session
    assert sorted(path.name for path in archives.iterdir()) == archive  # no lock or part left
