"""Raw tables as they may land: change-mask bits follow the landed change table's
column ordinals (reference 001): with change-data partitioning on, Replicate adds
header__partition_name, the first data column moves to bit 8, and the pipeline
must decode it the same way without any configuration change. And a Hive-format
table (STORED AS PARQUET, no _metadata column) is read in full by every run,
de-duplicated, so a second batch still arrives exactly once. Data columns landed
with another type than the configured one (text) are converted, and a value that
does not convert puts its change in the quarantine, never a null in the marts.
Kafka landing tables
as sinks type them: the timestamp as epoch milliseconds (bigint, several Kafka
Connect sinks), key and value as binary (Spark's own Kafka source); a type no
sink gives stops the model with a message naming table, column, type and the
types accepted."""

import csv

import pytest

from tests.e2e.helpers import (
    CT_HEADERS,
    INTEGRATION_DIR,
    MESSAGE_QUARANTINE_COLUMNS,
    PROJECT_DIR,
    compile_inline,
    current_columns,
    history_columns,
    invoke_dbt_in,
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


NOT_A_NUMBER = {
    "header__change_seq": "20240301110300000000000000000002011",
    "header__change_oper": "I",
    "header__change_mask": "800F",
    "header__stream_position": "0000002011.00000002011;0",
    "header__operation": "INSERT",
    "header__transaction_id": "44444444444444444444444444444444",
    "header__timestamp": "2024-03-01 11:03:00.000",
    "order_id": "102",
    "line_no": "1",
    "product": "sprocket",
    "quantity": "seven",
    "unit_price": "1.50",
}


def _partitioned(row: dict[str, str]) -> dict[str, str]:
    return {
        **row,
        "header__change_mask": shift_mask(row["header__change_mask"], 1),
        "header__partition_name": "20240301T100000_20240301T110000",
    }


# the UPDATE of the seed's orphan before image 1019 (key 1), landed a run later than
# it: a primary-key update, 1 -> 10
LATE_UPDATE = {
    "header__change_seq": "20240301100703000000000000000001019",
    "header__change_oper": "U",
    "header__change_mask": "80",
    "header__stream_position": "0000001019.00000001019;0",
    "header__operation": "UPDATE",
    "header__transaction_id": "A1A1A1A1A1A1A1A1A1A1A1A1A1A1A1A1",
    "header__timestamp": "2024-03-01 10:07:03.000",
    "customer_id": "10",
    "first_name": "Alice",
    "last_name": "Martin",
    "email": "alice.martin@example.com",
}
UNRESOLVED_TEST = "cdcflow_has_no_unresolved_rows_qlik_ct_quarantine"


@pytest.fixture(scope="module")
def built(spark, state_dir, integration_project):
    customers = [_partitioned(row) for row in read_seed("customers__ct")]
    load_raw(spark, RAW, "it_customers__ct", customers, change_table=True, headers=PARTITIONED_HEADERS)
    # landed as text (the configured types are int and decimal), one value that is not a number
    order_lines = [*read_seed("order_lines__ct"), NOT_A_NUMBER]
    hive = {"table_format": "stored as parquet", "types": {"quantity": "string", "unit_price": "string"}}
    load_raw(spark, RAW, "it_order_lines__ct", order_lines[:4], change_table=True, **hive)
    for table in ("customers", "order_lines"):
        load_raw(spark, RAW, f"it_{table}", read_seed(table), change_table=False)
    # integration_tests/' qlik_ct tables only: this raw schema holds no Kafka landing tables
    build = (
        *("build", "--select", "source:qlik_ct+"),
        *("--exclude", "resource_type:seed", "resource_type:unit_test", "tag:exhaustive"),
    )
    # no landing overlap: nothing is read twice, so an orphan before image does not wait
    raw_schema = ("--vars", f"{{cdcflow_raw_schema: {RAW}, cdcflow_landing_overlap_minutes: 0}}")
    # the first run without the data tests: the second's read its tables too
    run_dbt(
        state_dir,
        "run",
        "--select",
        "source:qlik_ct+",
        *raw_schema,
        schema=SCHEMA,
        project_dir=integration_project,
    )
    load_raw(spark, RAW, "it_order_lines__ct", order_lines[4:], change_table=True, **hive)
    late = [_partitioned(LATE_UPDATE)]
    load_raw(spark, RAW, "it_customers__ct", late, change_table=True, headers=PARTITIONED_HEADERS)
    second = run_dbt(state_dir, *build, *raw_schema, schema=SCHEMA, project_dir=integration_project)
    warned = {
        r.node.name: r.failures for r in second.result.results if r.node.name.startswith(UNRESOLVED_TEST)
    }
    return spark, warned


# 1019's primary-key update, applied with its before image from the quarantine: the
# delete of 1 closes Alice's version, the insert of 10 opens one
KEY_1_CLOSED = (
    "1",
    "Alice",
    "Martin",
    "alice.martin@example.com",
    "U",
    "202403011000052500000000000000010030",
)
KEY_1_CLOSED_BY = (
    "2024-03-01 10:00:05.250000",
    "2024-03-01 10:07:03",
    "202403011007030000000000000000010191",
    "D",
)
KEY_10 = (
    "10",
    "Alice",
    "Martin",
    "alice.martin@example.com",
    "I",
    "202403011007030000000000000000010190",
) + ("2024-03-01 10:07:03", "", "", "", "true", "customer_id|first_name|last_name|email")


def test_partitioned_change_table_gives_the_same_history(built):
    spark, _ = built
    header, expected = read_expected("customers_history")
    assert header == history_columns("customers")
    # the seed's history, and the late primary-key update of 1019 (its before image
    # quarantined by the first run, its UPDATE landed for the second)
    open_key_1 = KEY_1_CLOSED + ("2024-03-01 10:00:05.250000", "", "", "", "true", "email")
    assert open_key_1 in expected
    closed_key_1 = KEY_1_CLOSED + KEY_1_CLOSED_BY + ("false", "email")
    late = sorted([row for row in expected if row != open_key_1] + [closed_key_1, KEY_10])
    assert spark_rows(spark, f"{SCHEMA}.it_customers_history", header) == late


def test_an_update_landed_after_its_quarantined_before_image_is_paired_with_it(built):
    """The first run quarantined 1019's before image (no overlap to wait in); the
    second read its UPDATE, paired it with the before image from the quarantine
    and applied the primary-key update (history above); the quarantine entry is
    resolved: qlik_ct_quarantine_resolved lists it, and the quarantine's data test
    no longer warns about it."""
    spark, warned = built
    moved = spark.sql(
        f"select customer_id, operation from {SCHEMA}.int_it_customers__changes_logged"
        " where change_order like '20240301100703000000000000000001019%' order by customer_id"
    ).collect()
    assert [tuple(row) for row in moved] == [(1, "D"), (10, "I")]
    resolved = spark.sql(
        f"select source_table, change_seq, reason, resolution, resolved_at > loaded_at"
        f" from {SCHEMA}.qlik_ct_quarantine_resolved"
    ).collect()
    assert [tuple(row) for row in resolved] == [
        (
            "it_customers",
            "20240301100703000000000000000001019",
            "before image has no UPDATE with the same change_seq",
            "its UPDATE landed later and was applied with it",
            True,
        )
    ]
    quarantined = spark.sql(f"select count(*) from {SCHEMA}.qlik_ct_quarantine").first()[0]
    assert list(warned.values()) == [quarantined - 1]


def test_hive_format_change_table_is_read_in_full_and_deduplicated(built):
    spark, _ = built
    header, expected = read_expected("order_lines_history")
    assert spark_rows(spark, f"{SCHEMA}.it_order_lines_history", header) == expected
    logged = spark.sql(
        "select count(*), count(distinct order_id, line_no, change_order) "
        f"from {SCHEMA}.int_it_order_lines__changes_logged"
    ).first()
    assert logged[0] == logged[1] == 9


def test_mask_width_is_checked_against_the_landed_table(built):
    spark, _ = built
    header, expected = read_expected("qlik_ct_quarantine")
    rows = sample_rows(spark, f"{SCHEMA}.qlik_ct_quarantine", header)
    customers = [row for row in rows if row[0] == "customers"]
    # the same rejects, and the orphan before image at once (no overlap to wait in);
    # the wide mask is reported against 12 columns now
    orphan = (
        "customers",
        "20240301100703000000000000000001019",
        "before image has no UPDATE with the same change_seq",
    )
    assert [r[:2] for r in customers] == sorted([e[:2] for e in expected] + [orphan[:2]])
    assert orphan in customers
    assert any("beyond the 12 columns" in r[2] for r in customers), rows


def test_a_value_that_does_not_convert_quarantines_its_change(built):
    spark, _ = built
    header, _ = read_expected("qlik_ct_quarantine")
    rows = sample_rows(spark, f"{SCHEMA}.qlik_ct_quarantine", header)
    assert [row for row in rows if row[0] == "order_lines"] == [
        (
            "order_lines",
            NOT_A_NUMBER["header__change_seq"],
            "value 'seven' of column quantity (landed as string) does not cast to int",
        )
    ]
    # the other text values converted (the history is the expected one), and the
    # change is not in the change log, half typed or otherwise
    logged = spark.sql(
        f"select count(*) from {SCHEMA}.int_it_order_lines__changes_logged where order_id = 102"
    )
    assert logged.first()[0] == 0


KAFKA_RAW = "e2e_kafka_landing_raw"
KAFKA_SCHEMA = "e2e_kafka_landing"
# how each landing table is typed here: topic, partition and offset as every sink
# writes them; the timestamp and the payload as the sink named types them
KAFKA_LANDINGS = {
    "it_qlik_kafka_messages": {  # a Kafka Connect sink writing the timestamp as epoch milliseconds
        "timestamp": ("bigint", "unix_millis(cast(`timestamp` as timestamp))"),
        "key": ("string", "key"),
        "value": ("string", "value"),
    },
    "it_debezium_events": {  # Spark's Kafka source: key and value binary
        "timestamp": ("timestamp", "cast(`timestamp` as timestamp)"),
        "key": ("binary", "cast(key as binary)"),
        "value": ("binary", "cast(value as binary)"),
    },
}


def _land_kafka(spark, schema: str, table: str, typed: dict) -> None:
    # the sample payload the integration project loads as `table` (prefix it_)
    seed = next(PROJECT_DIR.glob(f"seeds/*/{table.removeprefix('it_')}.csv"))
    with open(seed, newline="", encoding="utf-8") as f:
        rows = [{name: value or None for name, value in row.items()} for row in csv.DictReader(f)]
    frame = spark.createDataFrame(rows, ", ".join(f"`{name}` string" for name in rows[0]))
    frame.createOrReplaceTempView("_cdcflow_kafka_batch")
    spark.sql(f"create database if not exists {schema}")
    ddl = "topic string, `partition` int, `offset` bigint, " + ", ".join(
        f"`{name}` {data_type}" for name, (data_type, _) in typed.items()
    )
    spark.sql(f"create table {schema}.{table} ({ddl}) using parquet")
    select = ", ".join(f"{expression} as `{name}`" for name, (_, expression) in typed.items())
    spark.sql(
        f"insert into {schema}.{table} select topic, cast(`partition` as int), cast(`offset` as bigint),"
        f" {select} from _cdcflow_kafka_batch"
    )


@pytest.fixture(scope="module")
def kafka_landings(spark, state_dir, integration_project):
    for table, typed in KAFKA_LANDINGS.items():
        _land_kafka(spark, KAFKA_RAW, table, typed)
    build = (
        *("build", "--select", "source:qlik_kafka+", "source:debezium+"),
        *("--exclude", "resource_type:seed", "resource_type:unit_test", "tag:exhaustive"),
    )
    raw_schema = ("--vars", f"{{cdcflow_raw_schema: {KAFKA_RAW}}}")
    run_dbt(state_dir, *build, *raw_schema, schema=KAFKA_SCHEMA, project_dir=integration_project)
    return spark


@pytest.mark.parametrize("table", ["products", "sqlserver_customers", "sqlserver_orders"])
def test_kafka_landings_typed_as_sinks_type_them_give_the_same_marts(kafka_landings, table):
    for relation, columns in (
        (f"{table}_history", history_columns(table)),
        (f"{table}_current", current_columns(table)),
    ):
        header, expected = read_expected(relation)
        assert header == columns
        assert spark_rows(kafka_landings, f"{KAFKA_SCHEMA}.it_{relation}", header) == expected, relation


@pytest.mark.parametrize("quarantine", ["qlik_kafka_quarantine", "debezium_quarantine"])
def test_kafka_landings_typed_as_sinks_type_them_quarantine_the_same_messages(kafka_landings, quarantine):
    header, expected = read_expected(quarantine)
    columns = MESSAGE_QUARANTINE_COLUMNS
    expected = sorted(tuple(row[header.index(c)] for c in columns) for row in expected)
    assert sample_rows(kafka_landings, f"{KAFKA_SCHEMA}.{quarantine}", columns) == expected


def test_a_kafka_landing_column_of_a_type_no_sink_writes_is_named(kafka_landings, state_dir):
    raw = "e2e_kafka_landing_bad_raw"
    _land_kafka(
        kafka_landings,
        raw,
        "it_debezium_events",
        {"timestamp": ("string", "`timestamp`"), "key": ("string", "key"), "value": ("string", "value")},
    )
    sql = "{{ cdcflow.landed_kafka_messages(source('debezium', 'it_debezium_events')) }}"
    with pytest.raises(AssertionError) as failed:
        compile_inline(state_dir, sql, "--vars", f"{{cdcflow_raw_schema: {raw}}}")
    assert (
        f"cdcflow: Kafka landing table {raw}.it_debezium_events: column `timestamp` is string; accepted:"
        " timestamp, timestamp_ntz, bigint, int (bigint, int: epoch milliseconds)"
    ) in str(failed.value)


def test_a_missing_landing_table_stops_its_model_with_one_short_message(kafka_landings, state_dir):
    raw = "e2e_kafka_landing_missing_raw"
    kafka_landings.sql(f"create database if not exists {raw}")
    result = invoke_dbt_in(
        state_dir,
        ["run", "--select", "base_debezium__parsed_events", "--vars", f"{{cdcflow_raw_schema: {raw}}}"],
        schema=KAFKA_SCHEMA,
        project_dir=INTEGRATION_DIR,
    )
    assert not result.success
    (failed,) = [r for r in result.result.results if r.node.name == "base_debezium__parsed_events"]
    message = str(failed.message)
    assert (
        f"cdcflow: raw table {raw}.it_debezium_events does not exist. Land it there, or set"
        " vars.cdcflow_raw_schema (or the raw table of its vars.cdcflow_tables entries) to where it landed;"
        " the next run reads it once it has landed." in message
    )
    # dbt's header, the message, then only dbt's macro stack: nothing of Spark's error
    header, *rest = [line.strip() for line in message.splitlines() if line.strip()]
    assert header.startswith("Compilation Error in model base_debezium__parsed_events"), message
    assert rest[0].startswith("cdcflow: raw table"), message
    assert all(line.startswith(("> in macro", "> called by")) for line in rest[1:]), message
    assert "TABLE_OR_VIEW_NOT_FOUND" not in message, message
