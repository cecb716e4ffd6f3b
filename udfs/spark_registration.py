"""Register cdcflow's Python UDFs on a SparkSession (the only Spark import).

SQL names (used by the macros in ``macros/masks`` and ``macros/qlik_ct``):

* ``cdcflow_changed_columns(mask binary, columns array<string>, first_bit int)``
  -> ``array<string>``
* ``cdcflow_change_mask_fits(mask binary, width int)`` -> ``boolean``
* ``cdcflow_parse_table_key(table_key string)`` ->
  ``struct<pairs: array<struct<name: string, value: string>>, error: string>``:
  a DirXML event-log table_key as its (column, value) pairs, or why it is malformed;
  null for null
* ``cdcflow_cdc_state_begin_run(state string, landed_end_micros bigint, now string)``
  and ``cdcflow_cdc_state_end_run(state string, error string, processed_end_micros bigint,
  now string)`` ->
  ``array<struct<state, state_name, ..., transition_error>>``: the SSIS CDC
  state rows a dbt run records for a group when it starts / ends (the
  on-run-start and on-run-end hooks in ``macros/cdc_state``)
"""

from __future__ import annotations

from pyspark.sql import SparkSession
from pyspark.sql.types import (
    ArrayType,
    BooleanType,
    StringType,
    StructField,
    StructType,
)

from udfs.cdc_state import begin_run_rows, end_run_rows
from udfs.change_mask import change_mask_fits, changed_columns
from udfs.table_key import table_key_struct

UDF_NAMES = (
    "cdcflow_changed_columns",
    "cdcflow_change_mask_fits",
    "cdcflow_parse_table_key",
    "cdcflow_cdc_state_begin_run",
    "cdcflow_cdc_state_end_run",
)


TABLE_KEY_TYPE = StructType(
    [
        StructField(
            "pairs",
            ArrayType(StructType([StructField("name", StringType()), StructField("value", StringType())])),
        ),
        StructField("error", StringType()),
    ]
)

CDC_STATE_ROWS_TYPE = ArrayType(
    StructType(
        [
            StructField(name, StringType())
            for name in (
                "state",
                "state_name",
                "current_start_lsn",
                "current_end_lsn",
                "initial_start_lsn",
                "initial_end_lsn",
                "updated_at",
                "error_text",
            )
        ]
        + [StructField("reprocessing", BooleanType()), StructField("transition_error", StringType())]
    )
)


def register_udfs(spark: SparkSession) -> list[str]:
    """Register every cdcflow UDF as a temporary function; return their names."""
    spark.udf.register(
        "cdcflow_changed_columns",
        lambda mask, columns, first_bit: changed_columns(
            None if mask is None else bytes(mask), list(columns or []), first_bit or 0
        ),
        ArrayType(StringType()),
    )
    spark.udf.register(
        "cdcflow_change_mask_fits",
        lambda mask, width: change_mask_fits(None if mask is None else bytes(mask), width),
        BooleanType(),
    )
    spark.udf.register("cdcflow_parse_table_key", table_key_struct, TABLE_KEY_TYPE)
    spark.udf.register("cdcflow_cdc_state_begin_run", begin_run_rows, CDC_STATE_ROWS_TYPE)
    spark.udf.register("cdcflow_cdc_state_end_run", end_run_rows, CDC_STATE_ROWS_TYPE)
    return list(UDF_NAMES)
