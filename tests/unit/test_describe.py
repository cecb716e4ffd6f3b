"""`cdcflow onboard --describe`: a `__ct` table's columns from DESCRIBE (the pure
part; tests/e2e/test_integration_project.py describes the landed samples)."""

import pytest
import yaml

from launcher.cli import main
from launcher.describe import data_columns, differences, landed_columns, suggested_entry

# DESCRIBE TABLE of a partitioned change table: the columns, then the partition
# column again under "# Partition Information"
DESCRIBED = [
    ("header__change_seq", "string"),
    ("header__change_oper", "string"),
    ("header__change_mask", "binary"),
    ("account_id", "int"),
    ("balance", "decimal(12,2)"),
    ("landing_day", "date"),
    ("# Partition Information", ""),
    ("# col_name", "data_type"),
    ("landing_day", "date"),
]


def test_the_landed_columns_end_where_describe_starts_its_other_sections():
    assert landed_columns(DESCRIBED) == {
        "header__change_seq": "string",
        "header__change_oper": "string",
        "header__change_mask": "binary",
        "account_id": "int",
        "balance": "decimal(12,2)",
        "landing_day": "date",
    }
    assert landed_columns([("id", "int"), ("", ""), ("# Detailed Table Information", "")]) == {"id": "int"}


def test_the_data_columns_are_all_but_replicates_headers():
    assert data_columns(landed_columns(DESCRIBED[:5])) == {"account_id": "int", "balance": "decimal(12,2)"}
    assert data_columns({"HEADER__CHANGE_SEQ": "string", "header_count": "int"}) == {"header_count": "int"}


def test_differences_name_each_column_and_where_it_is_missing():
    configured = {"account_id": "int", "balance": "decimal(10,2)", "owner": "string"}
    landed = {"account_id": "INT", "balance": "decimal(12, 2)", "opened_on": "date"}
    assert differences(configured, landed, "raw.accounts__ct") == [
        "column opened_on (date) is in raw.accounts__ct but not in the entry's columns",
        "column owner of the entry's columns is not in raw.accounts__ct",
        "column balance is decimal(10,2) in the entry's columns but decimal(12, 2) in raw.accounts__ct",
    ]
    assert differences({"id": "decimal(8, 0)"}, {"id": "DECIMAL(8,0)"}, "raw.t__ct") == []


def test_the_suggested_entry_is_the_vars_entry_to_paste():
    text = suggested_entry(
        "accounts", "accounts__ct", {"account_id": "int", "balance": "decimal(12,2)"}, [], "accounts"
    )
    assert text == (
        "accounts:\n"
        "  format: qlik_ct\n"
        "  change_table: accounts__ct\n"
        "  full_load_table: accounts\n"
        "  key: []  # the primary-key columns: a change table does not name them\n"
        "  columns:\n"
        "    account_id: int\n"
        "    balance: decimal(12,2)\n"
    )
    entry = yaml.safe_load(suggested_entry("t", "t__ct", {"id": "int"}, ["id"], None))
    assert entry == {
        "t": {"format": "qlik_ct", "change_table": "t__ct", "key": ["id"], "columns": {"id": "int"}}
    }


def test_describe_takes_one_table(tmp_path, capsys):
    assert main(["onboard", "--describe", "--project-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == "cdcflow onboard: --describe takes one table name\n"


@pytest.mark.parametrize("fmt", ["qlik_kafka", "debezium", "dirxml"])
def test_describe_reads_only_change_tables(fmt):
    from launcher.describe import DescribeError, describe

    with pytest.raises(
        DescribeError, match=f"table 'orders' has format {fmt}: --describe reads a landed Qlik"
    ):
        describe(None, "orders", {"format": fmt}, "raw")
