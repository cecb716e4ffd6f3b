"""The summary `cdcflow run` prints: the state hooks' per-table report, the
nodes per status, and every node dbt did not count a success, one line each."""

from types import SimpleNamespace

from launcher.cli import _summary


def _result(kind: str, name: str, status: str, message: str | None = None):
    return SimpleNamespace(
        node=SimpleNamespace(resource_type=kind, name=name), status=status, message=message
    )


def test_every_failure_is_listed_with_one_short_line(capsys):
    compile_error = (
        "Compilation Error in model int_accounts__changes_logged (models/int_accounts__changes_logged.sql)\n"
        "  cdcflow: table 'accounts': no column 'balanse' in landing.accounts__ct; "
        "its columns are: id, balance.\n"
        "  \n  > in macro qlik_ct_change_log (macros/qlik_ct/qlik_ct_change_log.sql)"
    )
    spark_error = (
        "Runtime Error in model int_orders__versioned (models/int_orders__versioned.sql)\n"
        "  Database Error\n    [DIVIDE_BY_ZERO] Division by zero. " + "x" * 300
    )
    results = [
        _result("seed", "customers__ct", "success"),
        _result("model", "customers_current", "success"),
        _result("model", "int_accounts__changes_logged", "error", compile_error),
        _result("model", "int_orders__versioned", "error", spark_error),
        _result("model", "accounts_current", "skipped"),
        _result("test", "not_null_customers_current_id", "pass"),
        _result("test", "has_no_rows_qlik_ct_quarantine_", "warn"),
        _result("test", "unique_orders_current_id", "fail", "Got 2 results, configured to fail if != 0"),
    ]
    _summary(results, ["cdcflow: what this run did, per table\n  table  state\n  accounts  ERROR"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[:5] == [
        "",
        "cdcflow run summary",
        "  cdcflow: what this run did, per table",
        "    table  state",
        "    accounts  ERROR",
    ]
    assert lines[5] == "  2 models error, 1 models skipped, 1 models success, 1 seeds success"
    assert lines[6] == "  tests (data and unit): 1 pass, 1 warn, 1 fail, 0 error"
    assert lines[7] == (
        "  error   model int_accounts__changes_logged: cdcflow: table 'accounts': no column 'balanse' in "
        "landing.accounts__ct; its columns are: id, balance."
    )
    assert lines[8].startswith("  error   model int_orders__versioned: [DIVIDE_BY_ZERO] Division by zero. x")
    assert lines[8].endswith("…") and len(lines[8].split(": ", 1)[1]) == 200
    assert lines[9:] == [
        "  skipped model accounts_current: skipped: a node it depends on failed",
        "  fail    test unique_orders_current_id: Got 2 results, configured to fail if != 0",
    ]
