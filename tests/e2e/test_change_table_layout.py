"""Raw tables as they may land: change-mask bits follow the landed change table's
column ordinals (reference 001): with change-data partitioning on, Replicate adds
header__partition_name, the first data column moves to bit 8, and the pipeline
must decode it the same way without any configuration change. And a Hive-format
table (STORED AS PARQUET, no _metadata column) is read in full by every run,
de-duplicated, so a second batch still arrives exactly once."""

import pytest

from tests.e2e.helpers import (
    CT_HEADERS,
    history_columns,
    load_raw,
    read_expected,
    read_seed,
    run_dbt,
    sample_rows,
    shift_mask,
    spark_rows,
)

pytestmark = pytest.mark.spark

RAW = "e2e_layout_raw"
SCHEMA = "e2e_layout"
PARTITIONED_HEADERS = {**CT_HEADERS, "header__partition_name": "string"}


@pytest.fixture(scope="module")
def built(spark, state_dir, integration_project):
    customers = [
        {
            **row,
            "header__change_mask": shift_mask(row["header__change_mask"], 1),
            "header__partition_name": "20240301T100000_20240301T110000",
        }
        for row in read_seed("customers__ct")
    ]
    load_raw(spark, RAW, "it_customers__ct", customers, change_table=True, headers=PARTITIONED_HEADERS)
    order_lines = read_seed("order_lines__ct")
    hive = "stored as parquet"
    load_raw(spark, RAW, "it_order_lines__ct", order_lines[:4], change_table=True, table_format=hive)
    for table in ("customers", "order_lines"):
        load_raw(spark, RAW, f"it_{table}", read_seed(table), change_table=False)
    # integration_tests/' qlik_ct tables only: this raw schema holds no Kafka landing tables
    build = (
        *("build", "--select", "source:qlik_ct+"),
        *("--exclude", "resource_type:seed", "resource_type:unit_test", "tag:exhaustive"),
    )
    raw_schema = ("--vars", f"{{cdcflow_raw_schema: {RAW}}}")
    run_dbt(state_dir, *build, *raw_schema, schema=SCHEMA, project_dir=integration_project)
    load_raw(spark, RAW, "it_order_lines__ct", order_lines[4:], change_table=True, table_format=hive)
    run_dbt(state_dir, *build, *raw_schema, schema=SCHEMA, project_dir=integration_project)
    return spark


def test_partitioned_change_table_gives_the_same_history(built):
    header, expected = read_expected("customers_history")
    assert header == history_columns("customers")
    assert spark_rows(built, f"{SCHEMA}.it_customers_history", header) == expected


def test_hive_format_change_table_is_read_in_full_and_deduplicated(built):
    header, expected = read_expected("order_lines_history")
    assert spark_rows(built, f"{SCHEMA}.it_order_lines_history", header) == expected
    logged = built.sql(
        "select count(*), count(distinct order_id, line_no, change_order) "
        f"from {SCHEMA}.int_it_order_lines__changes_logged"
    ).first()
    assert logged[0] == logged[1] == 9


def test_mask_width_is_checked_against_the_landed_table(built):
    header, expected = read_expected("qlik_ct_quarantine")
    rows = sample_rows(built, f"{SCHEMA}.qlik_ct_quarantine", header)
    # the same five rejects; the wide mask is reported against 12 columns now
    assert [r[:2] for r in rows] == [e[:2] for e in expected]
    assert any("beyond the 12 columns" in r[2] for r in rows), rows
