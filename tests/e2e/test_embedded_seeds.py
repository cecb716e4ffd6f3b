"""(a) Embedded: seeds -> dbt build -> marts equal the hand-written expected tables
(tests/e2e/expected/, derived from the reference rules for the seed rows)."""

import pytest

from tests.e2e.helpers import current_columns, history_columns, read_expected, run_dbt, spark_rows

SCHEMA = "e2e_seeds"

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def built(spark, state_dir):
    run_dbt(state_dir, "seed", schema=SCHEMA)
    # everything, the exhaustive mask-decoder proof included
    run_dbt(state_dir, "build", "--exclude", "resource_type:seed", schema=SCHEMA)
    return spark


@pytest.mark.parametrize("table", ["customers", "order_lines"])
def test_history_equals_expected(built, table):
    header, expected = read_expected(f"{table}_history")
    assert header == history_columns(table)
    assert spark_rows(built, f"{SCHEMA}.{table}_history", header) == expected


@pytest.mark.parametrize("table", ["customers", "order_lines"])
def test_current_equals_expected(built, table):
    header, expected = read_expected(f"{table}_current")
    assert header == current_columns(table)
    assert spark_rows(built, f"{SCHEMA}.{table}_current", header) == expected


def test_bad_rows_are_quarantined_with_reasons(built):
    header, expected = read_expected("qlik_ct_quarantine")
    assert spark_rows(built, f"{SCHEMA}.qlik_ct_quarantine", header) == expected
    raw = built.sql(f"select raw_row from {SCHEMA}.qlik_ct_quarantine where change_seq like '%1015'").first()
    assert '"header__change_oper":"X"' in raw.raw_row


def test_udf_decoder_gives_the_same_marts(built, state_dir):
    schema = SCHEMA + "_udf"
    run_dbt(
        state_dir,
        "build",
        "--exclude",
        "resource_type:seed",
        "tag:exhaustive",
        "--vars",
        f"{{cdcflow_mask_decoder: udf, cdcflow_raw_schema: {SCHEMA}_raw}}",
        schema=schema,
    )
    for table in ("customers", "order_lines"):
        columns = history_columns(table)
        assert spark_rows(built, f"{schema}.{table}_history", columns) == spark_rows(
            built, f"{SCHEMA}.{table}_history", columns
        )


def test_rerun_changes_nothing(built, state_dir):
    before = spark_rows(built, f"{SCHEMA}.customers_history", history_columns("customers"))
    run_dbt(state_dir, "build", "--exclude", "resource_type:seed", "tag:exhaustive", schema=SCHEMA)
    assert spark_rows(built, f"{SCHEMA}.customers_history", history_columns("customers")) == before
    assert built.sql(f"select count(*) from {SCHEMA}.int_customers__changes_logged").first()[0] == 13
    assert built.sql(f"select count(*) from {SCHEMA}.qlik_ct_quarantine").first()[0] == 5
