"""`cdcflow serve`'s warm-up of the metastore (launcher/spark.py, warm_up_catalog):
it rehearses the state hooks' statements in a database of its own, made in a
temporary folder and dropped; one a killed server left is dropped by the next
start, and a database of the same name that is not a warm-up's is left as it is.
(Over a server: tests/e2e/test_thrift.py.)"""

from __future__ import annotations

import pytest

from launcher.spark import WARM_UP_DATABASE, rehearse_state_hooks, warm_up_catalog

pytestmark = pytest.mark.spark


def _databases(spark) -> list[str]:
    return [row[0] for row in spark.sql(f"show databases like '{WARM_UP_DATABASE}'").collect()]


def test_the_warm_up_leaves_no_database_and_drops_one_a_killed_server_left(spark, tmp_path):
    # the rehearsal itself runs (warm_up_catalog swallows its failures: a warm-up)
    rehearse_state_hooks(spark, tmp_path / "rehearsal")
    assert _databases(spark) == []
    warm_up_catalog(spark, seconds=0)
    assert _databases(spark) == []
    # what a server killed during its rehearsal leaves: the database, in a warm-up's folder
    left = tmp_path / "cdcflow-warm-up-killed" / WARM_UP_DATABASE
    spark.sql(f"create database {WARM_UP_DATABASE} location '{left}'")
    spark.sql(f"create table {WARM_UP_DATABASE}.log (name string, seq bigint) using parquet")
    warm_up_catalog(spark, seconds=0)
    assert _databases(spark) == []


def test_a_database_of_the_same_name_not_made_by_a_warm_up_is_left_alone(spark, tmp_path):
    spark.sql("create or replace temporary view cdcflow_probe_of_the_session as select 1 as one")
    spark.sql(f"create database {WARM_UP_DATABASE} location '{tmp_path / 'mine'}'")
    try:
        spark.sql(f"create table {WARM_UP_DATABASE}.kept using parquet as select 1 as one")
        warm_up_catalog(spark, seconds=0)
        assert _databases(spark) == [WARM_UP_DATABASE]
        assert [tuple(row) for row in spark.sql(f"select * from {WARM_UP_DATABASE}.kept").collect()] == [(1,)]
        tables = spark.sql(f"show tables in {WARM_UP_DATABASE}").collect()
        # (the listing also shows the session's temporary views, other tests' in the suite)
        assert [row.tableName for row in tables if not row.isTemporary] == ["kept"]
    finally:
        spark.sql(f"drop database if exists {WARM_UP_DATABASE} cascade")
        spark.sql("drop view if exists cdcflow_probe_of_the_session")
