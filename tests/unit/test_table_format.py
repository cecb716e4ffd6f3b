"""The table format a project's Spark session serves (launcher/table_format.py):
read from vars.cdcflow_table_format, its jars found in the environment, and a
message that says what to do when they are missing."""

from pathlib import Path

import pytest

from launcher import table_format
from launcher.table_format import TableFormatError, format_jars, project_table_format, session_settings


def _project(tmp_path: Path, project_vars: dict | None) -> Path:
    import yaml

    document = {"name": "p", "profile": "cdcflow"}
    if project_vars is not None:
        document["vars"] = project_vars
    (tmp_path / "dbt_project.yml").write_text(yaml.safe_dump(document))
    return tmp_path


def _jars(tmp_path: Path, *names: str) -> Path:
    folder = tmp_path / "jars"
    folder.mkdir()
    for name in names:
        (folder / name).write_bytes(b"")
    return folder


def test_the_project_var_chooses_the_format_and_dbt_vars_win(tmp_path):
    project = _project(tmp_path, {"cdcflow_table_format": "iceberg"})
    assert project_table_format(project) == "iceberg"
    assert project_table_format(project, '{"cdcflow_table_format": "delta"}') == "delta"
    assert project_table_format(project, "{cdcflow_raw_schema: raw}") == "iceberg"
    assert project_table_format(_project(tmp_path, None)) == table_format.DEFAULT_FORMAT
    assert project_table_format(None) == table_format.DEFAULT_FORMAT


def test_an_unknown_format_is_named_with_the_known_ones(tmp_path):
    with pytest.raises(TableFormatError) as raised:
        project_table_format(_project(tmp_path, {"cdcflow_table_format": "hudi"}))
    assert str(raised.value) == (
        "cdcflow: var cdcflow_table_format is 'hudi'; use one of: delta, iceberg, parquet."
    )


def test_a_format_gets_its_jars_extension_and_catalog(tmp_path):
    folder = _jars(
        tmp_path,
        "delta-spark_4.1_2.13-4.4.0.jar",
        "delta-storage-4.4.0.jar",
        "iceberg-spark-runtime-4.1_2.13-1.11.0.jar",
        "hadoop-bare-naked-local-fs-0.1.0.jar",
        "hive-llap-common-2.3.10.jar",
    )
    local_fs_jar = f"{folder}/hadoop-bare-naked-local-fs-0.1.0.jar"
    hive_jar = f"{folder}/hive-llap-common-2.3.10.jar"
    # every format: Hadoop's local file system without shell commands
    local_fs = {
        "spark.hadoop.fs.file.impl": "com.globalmentor.apache.hadoop.fs.BareLocalFileSystem",
        "spark.sql.streaming.checkpointFileManagerClass": (
            "org.apache.spark.sql.execution.streaming.checkpointing.FileSystemBasedCheckpointFileManager"
        ),
    }
    delta_jars = [
        f"{folder}/delta-spark_4.1_2.13-4.4.0.jar",
        f"{folder}/delta-storage-4.4.0.jar",
        local_fs_jar,
        hive_jar,
    ]
    delta = session_settings("delta", folder)
    assert delta == {
        "spark.sql.extensions": "io.delta.sql.DeltaSparkSessionExtension",
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
        "spark.databricks.delta.snapshotPartitions": "1",
        "spark.delta.logStore.file.impl": "io.delta.storage.LocalLogStore",
        "spark.databricks.delta.allFilesInCrc.verificationMode.forceOnNonUTC.enabled": "false",
        **local_fs,
        "spark.driver.extraClassPath": ":".join(delta_jars),
        "spark.jars": ",".join(delta_jars),
    }
    iceberg = session_settings("iceberg", folder)
    assert iceberg == {
        "spark.sql.extensions": "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions",
        "spark.sql.catalog.spark_catalog": "org.apache.iceberg.spark.SparkSessionCatalog",
        "spark.sql.catalog.spark_catalog.type": "hive",
        "spark.hadoop.datanucleus.connectionPoolingType": "HikariCP",
        "spark.hadoop.iceberg.engine.hive.lock-enabled": "false",
        **local_fs,
        "spark.driver.extraClassPath": (
            f"{folder}/iceberg-spark-runtime-4.1_2.13-1.11.0.jar:{local_fs_jar}:{hive_jar}"
        ),
        "spark.jars": f"{folder}/iceberg-spark-runtime-4.1_2.13-1.11.0.jar,{local_fs_jar},{hive_jar}",
    }
    assert session_settings("parquet", folder) == {
        **local_fs,
        "spark.driver.extraClassPath": f"{local_fs_jar}:{hive_jar}",
        "spark.jars": f"{local_fs_jar},{hive_jar}",
    }


def test_missing_jars_say_how_to_install_them(tmp_path, monkeypatch):
    folder = _jars(tmp_path, "delta-spark_4.1_2.13-4.4.0.jar")
    with pytest.raises(TableFormatError) as raised:
        format_jars("delta", folder)
    assert str(raised.value) == (
        f"cdcflow: the delta jars are not installed (delta-storage-*.jar is not in {folder}): run"
        " `cdcflow jars --install` (in a clone, `make setup` does), or set CDCFLOW_JARS_DIR to the"
        " folder that has them."
    )
    monkeypatch.setenv("CDCFLOW_JARS_DIR", str(folder))
    assert table_format.jars_dir() == folder
    with pytest.raises(TableFormatError, match="hadoop-bare-naked-local-fs-"):
        format_jars("parquet")


def test_the_installed_environment_has_every_formats_jars():
    # `make setup` ran `cdcflow jars --install` into this environment
    jars = {name: [jar.name for jar in format_jars(name)] for name in table_format.FORMATS}
    assert jars == {
        "delta": [
            "delta-spark_4.1_2.13-4.4.0.jar",
            "delta-storage-4.4.0.jar",
            "hadoop-bare-naked-local-fs-0.1.0.jar",
            "hive-llap-common-2.3.10.jar",
        ],
        "iceberg": [
            "iceberg-spark-runtime-4.1_2.13-1.11.0.jar",
            "hadoop-bare-naked-local-fs-0.1.0.jar",
            "hive-llap-common-2.3.10.jar",
        ],
        "parquet": ["hadoop-bare-naked-local-fs-0.1.0.jar", "hive-llap-common-2.3.10.jar"],
    }
