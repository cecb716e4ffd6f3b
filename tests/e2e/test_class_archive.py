"""The driver JVM's class-data archive (launcher/class_archive.py) with a real JVM:
the first session of an installation makes it when its JVM ends, the next maps
Spark's classes from it. Sessions without a spark-defaults.conf of their own, as
a user's are (the suite's own folder of settings rules the archive out)."""

import os
import subprocess
import sys

import pytest

from tests.e2e.helpers import PROJECT_DIR

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


def test_the_first_session_makes_the_archive_and_the_next_maps_spark_s_classes_from_it(tmp_path):
    archives = tmp_path / "archives"
    environment = {key: value for key, value in os.environ.items() if key != "SPARK_CONF_DIR"}
    environment.update(CDCFLOW_CLASS_ARCHIVE_DIR=str(archives))

    first = _session(tmp_path, "first", environment)
    made = sorted(path.name for path in archives.iterdir())
    assert len(made) == 1 and made[0].startswith("spark-") and made[0].endswith(".jsa"), made
    assert "org.apache.spark.SparkContext source: file:" in first  # from its jar

    second = _session(tmp_path, "second", environment)
    assert "org.apache.spark.SparkContext source: shared objects file (top)" in second
    assert sorted(path.name for path in archives.iterdir()) == made  # no lock or part left
