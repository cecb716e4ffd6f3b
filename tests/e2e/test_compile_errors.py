"""Macros validate their arguments and fail with a message that says what to change."""

import pytest

from testkit.project import onboarded_project
from tests.e2e.helpers import env, invoke_dbt_in

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def bare_project(tmp_path_factory):
    """A project installing cdcflow with no table and the package's models
    disabled: the tests override cdcflow_tables with one bad table, whose
    models must not be parsed."""
    return onboarded_project(
        tmp_path_factory.mktemp("bare") / "project",
        {},
        project_config={"models": {"cdcflow": {"+enabled": False}}},
    )


def _compile_error(project, state_dir, sql: str, *extra: str) -> str:
    result = invoke_dbt_in(
        state_dir, ["compile", "--inline", sql, *extra], schema="e2e_compile", project_dir=project
    )
    assert not result.success, f"expected a compile error for {sql}"
    # dbt wraps the macro's CompilationError ("Error parsing inline query")
    error = result.exception
    return " / ".join(str(e) for e in (error, error.__cause__, error.__context__) if e is not None)


@pytest.mark.parametrize(
    ("sql", "extra", "message"),
    [
        (
            "{{ cdcflow.table_config('nope') }}",
            (),
            "cdcflow: table 'nope' is not configured. Add it under vars.cdcflow_tables in "
            "dbt_project.yml (configured: none).",
        ),
        (
            "{{ cdcflow.latest_per_key('t', [], 'x') }}",
            (),
            "cdcflow.latest_per_key: key_columns must be a non-empty list, got [].",
        ),
        (
            "{{ cdcflow.latest_per_key('t', ['k'], '') }}",
            (),
            "cdcflow.latest_per_key: order_by is required (e.g. 'change_order desc').",
        ),
        (
            "{{ cdcflow.decode_change_mask('m', [], 0) }}",
            (),
            "cdcflow.decode_change_mask: `columns` must be a non-empty list of column names "
            "or a SQL array<string> expression, got [].",
        ),
        (
            "{{ cdcflow.decode_change_mask('m', ['a'], -1) }}",
            (),
            "cdcflow.decode_change_mask: `first_bit` must be a number >= 0, got -1.",
        ),
        (
            "{{ cdcflow.decode_change_mask('m', ['a'], 0) }}",
            ("--vars", "{cdcflow_mask_decoder: rust}"),
            "cdcflow: var cdcflow_mask_decoder is 'rust'; use 'native' or 'udf'.",
        ),
        (
            "{{ cdcflow.chain_layout() }}",
            ("--vars", "{cdcflow_table_format: hudi}"),
            "cdcflow: var cdcflow_table_format is 'hudi'; use one of: delta, iceberg, parquet.",
        ),
        (
            "{{ cdcflow.table_config('customers') }}",
            ("--vars", "{cdcflow_tables: {customers: {format: qlik_ct, key: [id], columns: {x: int}}}}"),
            "cdcflow: key column 'id' of table 'customers' is not among its columns (x).",
        ),
        (
            "{{ cdcflow.table_config('t') }}",
            ("--vars", "{cdcflow_tables: {t: {format: kafka, key: [id], columns: {id: int}}}}"),
            "cdcflow: table 't' has format 'kafka'; expected one of: qlik_ct, qlik_kafka, debezium, dirxml.",
        ),
        (
            "{{ cdcflow.table_config('t') }}",
            (
                "--vars",
                "{cdcflow_tables: {t: {format: debezium, decimal_handling_mode: exact, key: [id], "
                "columns: {id: int}}}}",
            ),
            "cdcflow: table 't' has decimal_handling_mode 'exact'; "
            "use Debezium's value: precise, double or string.",
        ),
        (
            "{{ cdcflow.table_config('t') }}",
            (
                "--vars",
                "{cdcflow_tables: {t: {format: dirxml, table_key_names: {empno: pk_empno}, key: [id], "
                "columns: {id: int}}}}",
            ),
            "cdcflow: table_key_names of table 't' names 'empno', which is not a key column (id).",
        ),
        (
            # the README's example as first printed: YAML splits the flow mapping at
            # the comma of decimal(12,2)
            "{{ cdcflow.table_config('invoices') }}",
            (
                "--vars",
                "{cdcflow_tables: {invoices: {format: qlik_ct, key: [invoice_id], "
                "columns: {invoice_id: bigint, amount: decimal(12,2), status: string}}}}",
            ),
            "cdcflow: table 'invoices' column 'amount' has type 'decimal(12', whose brackets do not close."
            " YAML splits a flow mapping ({...}) at every comma: `amount: decimal(12,2)` in one becomes"
            " type 'decimal(12' and a column '2)' with no type; quote the type (\"decimal(12,2)\") or write"
            " one column per line (vars.cdcflow_tables).",
        ),
    ],
)
def test_compile_error_messages(spark, state_dir, bare_project, sql, extra, message):
    assert message in _compile_error(bare_project, state_dir, sql, *extra)


def test_a_column_the_change_table_lacks_is_named_with_the_real_ones(spark, state_dir, bare_project):
    # a typo in a configured column: the message (the table's change log fails
    # with it, tests/e2e/test_incremental.py) names it and lists the landed table's columns
    spark.sql("create database if not exists e2e_compile_raw")
    spark.sql(
        "create table if not exists e2e_compile_raw.accounts__ct (header__change_seq string, "
        "header__change_oper string, header__change_mask binary, header__stream_position string, "
        "header__operation string, header__transaction_id string, header__timestamp timestamp, "
        "account_id int, balance decimal(12,2)) using parquet"
    )
    from launcher.dbt_invoke import invoke_dbt

    with env(CDCFLOW_SCHEMA="e2e_compile"):
        result = invoke_dbt(
            [
                "compile",
                "--inline",
                "{{ cdcflow.change_table_layout(api.Relation.create(schema='e2e_compile_raw', "
                "identifier='accounts__ct'), cdcflow.table_config('accounts')).problem }}",
                "--vars",
                "{cdcflow_tables: {accounts: {format: qlik_ct, change_table: accounts__ct, "
                "key: [account_id], columns: {account_id: int, balanse: 'decimal(12,2)'}}}}",
            ],
            state_dir=state_dir,
            project_dir=bare_project,
        )
    assert result.success, result.exception
    message = result.result.results[0].node.compiled_code
    assert (
        "cdcflow: table 'accounts': no column 'balanse' in e2e_compile_raw.accounts__ct "
        "(vars.cdcflow_tables.accounts.columns); its columns are: header__change_seq, header__change_oper, "
        "header__change_mask, header__stream_position, header__operation, header__transaction_id, "
        "header__timestamp, account_id, balance."
    ) in message


def test_a_session_without_cdcflow_functions_is_refused(spark, state_dir, bare_project):
    """The package used with plain dbt against a server cdcflow did not start:
    on-run-start stops with what to do, before any range is taken."""
    from udfs.spark_registration import register_udfs

    spark.sql("drop temporary function cdcflow_cdc_state_end_run")
    try:
        message = _compile_error(bare_project, state_dir, "{{ cdcflow.check_functions_registered() }}")
    finally:
        register_udfs(spark)
    assert (
        "cdcflow: the Spark session has no function cdcflow_cdc_state_end_run; run dbt against a Thrift"
        " server started by `cdcflow serve`, or through `cdcflow run` / `cdcflow dbt`"
        " (both register cdcflow's functions: udfs/spark_registration.py)."
    ) in message
    assert spark.sql("show user functions like 'cdcflow_*'").count() == 5
