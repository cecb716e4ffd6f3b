"""launcher/format_registry.py: the one declaration of the formats and of a
table's models, which `cdcflow onboard` reads and the macros read from the
macro it generates."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from launcher import format_registry, onboard
from launcher.format_registry import model_name

ROOT = Path(__file__).resolve().parents[2]


def test_the_macro_the_package_reads_is_generated_from_the_declaration():
    assert format_registry.JINJA.read_text() == format_registry.jinja_text()
    assert format_registry.main([]) == 0


def test_a_tables_models_are_named_by_their_layers_pattern():
    assert model_name("customers", "qlik_ct", "changes") == "stg_qlik_ct__customers_changes"
    assert model_name("customers", "qlik_ct", "full_load") == "stg_qlik_ct__customers_full_load"
    assert model_name("orders", "qlik_kafka", "messages_decoded") == "int_orders__messages_decoded"
    assert model_name("emp", "dirxml", "events_decided") == "int_emp__events_decided"
    assert model_name("orders", "debezium", "changes_logged") == "int_orders__changes_logged"
    assert model_name("orders", "debezium", "versioned") == "int_orders__versioned"
    assert model_name("orders", "debezium", "history") == "orders_history"
    assert model_name("orders", "debezium", "current") == "orders_current"
    with pytest.raises(KeyError, match="a debezium table has no model of role 'messages_decoded'"):
        model_name("orders", "debezium", "messages_decoded")


def test_onboard_writes_a_model_for_each_role_of_the_format():
    for fmt, declared in format_registry.FORMATS.items():
        entry = {"format": fmt, "key": ["id"], "columns": {"id": "int"}, "full_load_table": "t"}
        table = onboard._table("t", entry)
        written = {Path(path).stem for path in onboard.model_bodies(table)}
        assert written == {model_name("t", fmt, role) for role in format_registry.roles(fmt)}, fmt
        assert set(onboard.FORMATS[fmt].staging) == {
            role for role, layer in declared["roles"].items() if layer == "staging"
        }


def test_raw_table_defaults():
    assert onboard._table("c", {"format": "qlik_ct", "key": "id", "columns": {"id": "int"}})[
        "change_table"
    ] == ("c__ct")
    for fmt in ("qlik_kafka", "debezium", "dirxml"):
        table = onboard._table("c", {"format": fmt, "key": "id", "columns": {"id": "int"}})
        assert table["raw_table"] == format_registry.FORMATS[fmt]["raw_table_defaults"]["raw_table"]


# a model's name put together from a table's name: only table_model_name may
NAME_BUILT = re.compile(
    r"""'(?:int|stg)_[a-z_]*'\s*~|~\s*'_{1,2}(?:history|current|changes_logged|versioned|messages_decoded"""
    r"""|events_decided|before_images_waiting|changes|full_load|messages|events|quarantine|ct)'"""
)


def test_no_macro_builds_a_model_name_but_table_model_name():
    built = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "macros").rglob("*.sql"))
        if path.name != "table_model_name.sql"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if NAME_BUILT.search(line)
    ]
    assert built == []


def test_the_check_finds_a_name_built():
    assert NAME_BUILT.search("ref('int_' ~ table_name ~ '__versioned')")
    assert NAME_BUILT.search("model_relation(table_name ~ '_current')")
    assert not NAME_BUILT.search("cdcflow.table_model_name(table_name, 'versioned')")
