"""The table format of a project (vars.cdcflow_table_format) and what its Spark
session needs for it: the format's jars, fetched once with Maven into the
environment cdcflow is installed in (`cdcflow jars --install`; `make setup`
runs it), its SQL extension and the catalog of `spark_catalog`.

Delta Lake and Apache Iceberg both replace `spark_catalog` (dbt-spark writes to
the session catalog: it names no other), so a session serves one of them; plain
Hive tables (parquet) stay readable and writable in both."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

FORMATS = ("delta", "iceberg", "parquet")
# a project that does not say (vars.cdcflow_table_format) writes Delta Lake
DEFAULT_FORMAT = "delta"
POM = Path(__file__).resolve().parent / "table_format_jars.pom.xml"
# Hadoop's local file system, as every format writes a warehouse on local disk (the
# embedded session, `cdcflow serve`), without its shell commands: Hadoop without its
# native library forks `chmod` for every file and folder it creates and `readlink` for
# every rename (3,700 processes in one 6-minute test file); this one (a jar of 16 KB)
# sets permissions with Java's file API. A table's checksum files (Delta writes one per
# commit) go through it too, not through Hadoop's FileContext.
LOCAL_FILE_SYSTEM_JAR = "hadoop-bare-naked-local-fs"
LOCAL_FILE_SYSTEM_SETTINGS = {
    "spark.hadoop.fs.file.impl": "com.globalmentor.apache.hadoop.fs.BareLocalFileSystem",
    "spark.sql.streaming.checkpointFileManagerClass": (
        "org.apache.spark.sql.execution.streaming.checkpointing.FileSystemBasedCheckpointFileManager"
    ),
}
# Hive's function registry (Hive 2.3's FunctionRegistry) registers a table function
# that names a class of Hive's LLAP jars, which Spark 4 no longer ships (SPARK-51041):
# without it the registry cannot load. A Thrift session's close reaches it when the
# connection's thread holds no compatible Hive client (SessionState.close, to uncache
# DataNucleus's class loaders): the close failed with NoClassDefFoundError
# LlapSigner$Signable, and the client's close with it (hive-llap-common 2.3.10,
# Apache-2.0, 0.3 MB; every session, as the launcher builds `cdcflow serve`'s too)
HIVE_FUNCTIONS_JAR = "hive-llap-common"
# the jars of each format (names as Maven copies them, without their version)
JARS = {
    "delta": ("delta-spark_4.1_2.13", "delta-storage", LOCAL_FILE_SYSTEM_JAR, HIVE_FUNCTIONS_JAR),
    "iceberg": ("iceberg-spark-runtime-4.1_2.13", LOCAL_FILE_SYSTEM_JAR, HIVE_FUNCTIONS_JAR),
    "parquet": (LOCAL_FILE_SYSTEM_JAR, HIVE_FUNCTIONS_JAR),
}
SESSION_SETTINGS = {
    "delta": {
        "spark.sql.extensions": "io.delta.sql.DeltaSparkSessionExtension",
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
        # a table's state (its files) is rebuilt from its log in this many tasks (default 50),
        # and every scan's file listing is a job over it: cdcflow's logs are small (a commit
        # per run, a few files a commit). The samples' first build took 177 s with 50, 102 s
        # with 2; one task instead of two: tests/e2e/test_late_deliveries.py alone 208 -> 196 s
        # (its Spark event log, with three full refreshes more then: 2,500 jobs, 1,400 Delta's)
        "spark.databricks.delta.snapshotPartitions": "1",
        # a commit on local disk is written with the FileSystem API (a temporary file
        # renamed, one JVM writing: the state folder is one process's), not FileContext,
        # whose rename forks `readlink` to test the target
        "spark.delta.logStore.file.impl": "io.delta.storage.LocalLogStore",
        # (no default of deletion vectors for every table: the tables a run MERGEs into
        # turn them on once large, macro deletion_vectors_when_large; Delta plans each
        # read of a table with the feature with one more job listing its files.
        # tests/e2e/test_late_deliveries.py alone: 196 s with every table's, 177 s with the
        # merged tables' alone, 150 s with none)
        #
        # a machine whose clock is not on UTC (the JVM's time zone) made each commit
        # verify its checksum's file list by rebuilding the table's state: a job more
        # per commit, a Delta `create or replace` 0.52 -> 0.77 s on a small table
        # (TZ=Europe/Paris); the list is written for that check alone
        "spark.databricks.delta.allFilesInCrc.verificationMode.forceOnNonUTC.enabled": "false",
    },
    "iceberg": {
        "spark.sql.extensions": "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions",
        # Iceberg tables in the session's Hive metastore, beside its plain tables (a
        # Hadoop catalog's tables are not listed by SHOW TABLES, dbt's relation cache:
        # the next run replaced the table it did not find)
        "spark.sql.catalog.spark_catalog": "org.apache.iceberg.spark.SparkSessionCatalog",
        "spark.sql.catalog.spark_catalog.type": "hive",
        # Iceberg's Hive catalog opens a metastore client of its own, with Hive's
        # default connection pool (BoneCP), which Spark does not ship; HikariCP it does
        "spark.hadoop.datanucleus.connectionPoolingType": "HikariCP",
        # a commit swaps the table's metadata pointer with the metastore's atomic
        # alter_table (HIVE-26882, in Spark's Hive 2.3.10) instead of taking a Hive
        # lock: with the lock, the first run over the embedded Derby metastore hung
        "spark.hadoop.iceberg.engine.hive.lock-enabled": "false",
    },
    "parquet": {},
}


class TableFormatError(RuntimeError):
    """A table format cdcflow does not know, or whose jars are not installed."""


def jars_dir() -> Path:
    """Where the formats' jars are: $CDCFLOW_JARS_DIR, else share/cdcflow/jars of the
    Python environment cdcflow runs in (its virtual environment: ignored by git,
    removed with it)."""
    given = os.environ.get("CDCFLOW_JARS_DIR")
    return Path(given) if given else Path(sys.prefix) / "share" / "cdcflow" / "jars"


def check_format(table_format: str) -> str:
    """`table_format`, or a TableFormatError naming the ones cdcflow knows."""
    if table_format not in FORMATS:
        raise TableFormatError(
            f"cdcflow: var cdcflow_table_format is {table_format!r}; use one of: {', '.join(FORMATS)}."
        )
    return table_format


def project_table_format(project_dir: Path | None, dbt_vars: str | None = None) -> str:
    """vars.cdcflow_table_format of the project (dbt_project.yml), or of the --vars
    given to dbt (they win, as in dbt); else DEFAULT_FORMAT."""
    chosen = None
    project_file = Path(project_dir) / "dbt_project.yml" if project_dir else None
    if project_file and project_file.is_file():
        project_vars = (yaml.safe_load(project_file.read_text()) or {}).get("vars") or {}
        chosen = project_vars.get("cdcflow_table_format")
    if dbt_vars:
        given = yaml.safe_load(dbt_vars)
        if isinstance(given, dict) and given.get("cdcflow_table_format"):
            chosen = given["cdcflow_table_format"]
    return check_format(chosen or DEFAULT_FORMAT)


def format_jars(table_format: str, folder: Path | None = None) -> list[Path]:
    """The jars `table_format` needs, installed in `folder` (jars_dir()); a
    TableFormatError saying how to install them when one is missing."""
    folder = folder or jars_dir()
    found = []
    for name in JARS[check_format(table_format)]:
        matches = sorted(folder.glob(f"{name}-[0-9]*.jar"))
        if not matches:
            raise TableFormatError(
                f"cdcflow: the {table_format} jars are not installed ({name}-*.jar is not in {folder}):"
                " run `cdcflow jars --install` (in a clone, `make setup` does), or set CDCFLOW_JARS_DIR"
                " to the folder that has them."
            )
        found.append(matches[-1])
    return found


def session_settings(table_format: str, folder: Path | None = None) -> dict[str, str]:
    """The Spark settings of a session serving `table_format`: its jars (on the
    driver's classpath, and spark.jars for the executors), extension and
    `spark_catalog`, and the local file system (LOCAL_FILE_SYSTEM_SETTINGS)."""
    jars = format_jars(table_format, folder)
    settings = {**SESSION_SETTINGS[table_format], **LOCAL_FILE_SYSTEM_SETTINGS}
    if jars:
        # on the driver's classpath from its start: the Thrift server's threads find a
        # format's classes there, not among the jars spark.jars adds later (it ships
        # them to the executors)
        settings["spark.driver.extraClassPath"] = os.pathsep.join(str(jar) for jar in jars)
        settings["spark.jars"] = ",".join(str(jar) for jar in jars)
    return settings


def install_jars(folder: Path | None = None) -> list[Path]:
    """Copy the formats' jars (table_format_jars.pom.xml) into `folder` with Maven;
    return them. A TableFormatError when Maven is missing or fails."""
    folder = Path(folder or jars_dir())
    maven = shutil.which("mvn")
    if maven is None:
        raise TableFormatError(
            "cdcflow: Maven (mvn) is needed once to fetch the Delta Lake and Iceberg jars from Maven"
            " Central; install it (e.g. sudo apt-get install maven) and retry."
        )
    folder.mkdir(parents=True, exist_ok=True)
    command = [
        maven, "--batch-mode", "--quiet", "-f", str(POM), "dependency:copy-dependencies",
        f"-DoutputDirectory={folder}", "-DincludeScope=runtime",
    ]  # fmt: skip
    finished = subprocess.run(command, capture_output=True, text=True, check=False)
    if finished.returncode != 0:
        raise TableFormatError(
            f"cdcflow: `{' '.join(command)}` failed:\n{(finished.stdout + finished.stderr).strip()[-3000:]}"
        )
    return list(dict.fromkeys(jar for table_format in FORMATS for jar in format_jars(table_format, folder)))
