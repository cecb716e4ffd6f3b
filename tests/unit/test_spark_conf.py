"""The launcher's Spark settings: a tuning setting of spark-defaults.conf wins over
the launcher's, the settings cdcflow's state and results depend on do not; the JVM's
log configuration is cdcflow's unless one's own is given."""

import os

from launcher.spark import (
    LOG_CONFIGURATION,
    LOG_CONFIGURATION_ENV,
    SPARK_LOG_CONFIGURATION,
    TUNING_SETTINGS,
    quiet_spark_start_up,
    spark_conf,
    spark_defaults,
)


def test_spark_defaults_tune_and_cdcflow_keeps_what_its_state_needs(tmp_path, monkeypatch):
    conf_dir = tmp_path / "conf"
    conf_dir.mkdir()
    (conf_dir / "spark-defaults.conf").write_text(
        "# a comment\n"
        "spark.sql.shuffle.partitions   2\n"
        "spark.driver.memory=1g\n"
        "spark.sql.session.timeZone: Europe/Paris\n"
        "spark.driver.defaultJavaOptions  -XX:TieredStopAtLevel=1 -Dx=y\n"
    )
    monkeypatch.setenv("SPARK_CONF_DIR", str(conf_dir))
    monkeypatch.delenv("PYSPARK_SUBMIT_ARGS", raising=False)
    assert spark_defaults() == {
        "spark.sql.shuffle.partitions": "2",
        "spark.driver.memory": "1g",
        "spark.sql.session.timeZone": "Europe/Paris",
        "spark.driver.defaultJavaOptions": "-XX:TieredStopAtLevel=1 -Dx=y",
    }
    conf = spark_conf(tmp_path / "state")
    # Spark takes these two from the file (the launcher no longer sets them)...
    assert "spark.sql.shuffle.partitions" not in conf and "spark.driver.memory" not in conf
    # ...and the launcher's other tuning and every setting the state relies on stay
    assert conf["spark.sql.adaptive.advisoryPartitionSizeInBytes"] == "32m"
    assert conf["spark.sql.session.timeZone"] == "UTC"
    assert conf["spark.sql.sources.partitionOverwriteMode"] == "dynamic"
    assert conf["spark.sql.warehouse.dir"] == str((tmp_path / "state" / "spark-warehouse").resolve())


def test_without_spark_defaults_the_launcher_sets_its_tuning(tmp_path, monkeypatch):
    monkeypatch.setenv("SPARK_CONF_DIR", str(tmp_path / "none"))
    monkeypatch.delenv("PYSPARK_SUBMIT_ARGS", raising=False)
    monkeypatch.delenv("SPARK_HOME", raising=False)
    assert spark_defaults() == {}
    conf = spark_conf(tmp_path / "state")
    assert conf["spark.sql.shuffle.partitions"] == "32"
    assert set(TUNING_SETTINGS) <= set(conf)


def test_a_properties_file_given_to_spark_submit_is_read_as_spark_reads_it(tmp_path, monkeypatch):
    # PYSPARK_SUBMIT_ARGS's --properties-file, what the test suite uses: it wins over
    # SPARK_CONF_DIR's spark-defaults.conf, as with spark-submit
    conf_dir = tmp_path / "conf"
    conf_dir.mkdir()
    (conf_dir / "spark-defaults.conf").write_text("spark.sql.shuffle.partitions 7\n")
    properties = tmp_path / "my spark.conf"
    properties.write_text("spark.sql.shuffle.partitions 2\nspark.ui.enabled=true\n")
    monkeypatch.setenv("SPARK_CONF_DIR", str(conf_dir))
    submit_args = f"--master local[2] --properties-file '{properties}' pyspark-shell"
    monkeypatch.setenv("PYSPARK_SUBMIT_ARGS", submit_args)
    assert spark_defaults() == {"spark.sql.shuffle.partitions": "2", "spark.ui.enabled": "true"}
    assert "spark.sql.shuffle.partitions" not in spark_conf(tmp_path / "state")
    monkeypatch.setenv("PYSPARK_SUBMIT_ARGS", f"'--properties-file={properties}' pyspark-shell")
    assert spark_defaults()["spark.sql.shuffle.partitions"] == "2"
    monkeypatch.setenv("PYSPARK_SUBMIT_ARGS", "pyspark-shell")
    assert spark_defaults() == {"spark.sql.shuffle.partitions": "7"}


def test_the_jvm_logs_with_cdcflows_configuration_unless_one_of_ones_own_is_given(tmp_path, monkeypatch):
    conf_dir = tmp_path / "conf"
    conf_dir.mkdir()
    monkeypatch.setenv("SPARK_CONF_DIR", str(conf_dir))
    monkeypatch.delenv(LOG_CONFIGURATION_ENV, raising=False)
    quiet_spark_start_up()
    assert os.environ[LOG_CONFIGURATION_ENV] == f"{SPARK_LOG_CONFIGURATION},{LOG_CONFIGURATION}"
    assert "rootLogger.level = warn" in LOG_CONFIGURATION.read_text()
    # a configuration of one's own, named...
    monkeypatch.setenv(LOG_CONFIGURATION_ENV, "/somewhere/log4j2.xml")
    quiet_spark_start_up()
    assert os.environ[LOG_CONFIGURATION_ENV] == "/somewhere/log4j2.xml"
    # ...or in Spark's conf folder, which Spark puts on the class path
    monkeypatch.delenv(LOG_CONFIGURATION_ENV)
    (conf_dir / "log4j2.properties").write_text("rootLogger.level = info\n")
    quiet_spark_start_up()
    assert LOG_CONFIGURATION_ENV not in os.environ
