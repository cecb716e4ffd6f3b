"""`cdcflow onboard --describe TABLE`: a Qlik `__ct` table's `columns:` read from
the change table Replicate landed, instead of typed by hand.

A `__ct` table is typed by Replicate: its data columns are the source table's,
after the `header__` columns of the change (reference 001). DESCRIBE gives
their names and Spark types in order; this module turns that into the vars
entry onboarding needs (the key is not in the change table: the user names
it), or says where an existing entry and the landed table disagree. The
Kafka-landed formats and DirXML land messages, not typed columns: their
columns come from the source's schema, so only `__ct` tables are described.

Pure functions apart from ``describe_table`` (which takes a SparkSession).
"""

from __future__ import annotations

import textwrap

import yaml

from launcher.format_registry import raw_table_default

QLIK_HEADER_PREFIX = "header__"


class DescribeError(ValueError):
    """The table cannot be described; the message says what to change."""


def landed_columns(describe_rows: list[tuple[str, str]]) -> dict[str, str]:
    """``DESCRIBE TABLE`` rows (column name, data type) -> column: type, in order.
    The column list ends at the first empty or ``#`` row (partition columns and
    the detailed table information follow it, repeating columns)."""
    columns = {}
    for name, data_type in describe_rows:
        if not name or name.startswith("#"):
            break
        columns[name] = data_type
    return columns


def data_columns(change_table_columns: dict[str, str]) -> dict[str, str]:
    """The source table's columns of a change table: all but Replicate's headers."""
    return {
        name: data_type
        for name, data_type in change_table_columns.items()
        if not name.lower().startswith(QLIK_HEADER_PREFIX)
    }


def _normalized(data_type: str) -> str:
    return "".join(str(data_type).split()).lower()


def differences(configured: dict[str, str], landed: dict[str, str], where: str) -> list[str]:
    """What differs between an entry's ``columns`` and the columns landed in ``where``:
    one line each (empty when they agree; column order is not compared)."""
    lines = [
        f"column {name} ({landed[name]}) is in {where} but not in the entry's columns"
        for name in landed
        if name not in configured
    ]
    lines += [
        f"column {name} of the entry's columns is not in {where}" for name in configured if name not in landed
    ]
    lines += [
        f"column {name} is {configured[name]} in the entry's columns but {landed[name]} in {where}"
        for name in configured
        if name in landed and _normalized(configured[name]) != _normalized(landed[name])
    ]
    return lines


def suggested_entry(
    name: str, change_table: str, columns: dict[str, str], key: list[str], full_load_table: str | None
) -> str:
    """The vars entry of table ``name`` as YAML to paste under ``vars.cdcflow_tables``
    (laid out as the samples' entries are: the key inline, a column per line)."""
    entry = {"format": "qlik_ct", "change_table": change_table}
    if full_load_table:
        entry["full_load_table"] = full_load_table
    block = yaml.safe_dump({name: entry}, sort_keys=False, default_flow_style=False)
    key_line = "  key: " + yaml.safe_dump(key, default_flow_style=True).strip()
    if not key:
        key_line += "  # the primary-key columns: a change table does not name them"
    listed = yaml.safe_dump(columns, sort_keys=False, default_flow_style=False, width=1000)
    return block + key_line + "\n  columns:\n" + textwrap.indent(listed, "    ")


def describe_table(spark, relation: str) -> dict[str, str] | None:
    """The columns of ``relation`` (schema.table) in the session's catalog, or None
    when it does not exist."""
    if not spark.catalog.tableExists(relation):
        return None
    return landed_columns([(row[0], row[1]) for row in spark.sql(f"describe table {relation}").collect()])


def describe(spark, name: str, entry: dict | None, raw_schema: str) -> tuple[str, list[str]]:
    """Read table ``name``'s landed change table (and full load): the vars entry to
    paste when ``entry`` has no columns yet, else what differs between the entry
    and the landed tables. Returns (text to print, differences)."""
    entry = entry or {}
    fmt = entry.get("format", "qlik_ct")
    if fmt != "qlik_ct":
        raise DescribeError(
            f"table '{name}' has format {fmt}: --describe reads a landed Qlik __ct change table; the"
            f" {fmt} raw table lands messages, so its columns come from the source's schema (docs/formats/)"
        )
    change_table = entry.get("change_table", raw_table_default(name, "qlik_ct", "change_table"))
    landed = describe_table(spark, f"{raw_schema}.{change_table}")
    if landed is None:
        raise DescribeError(
            f"no table {raw_schema}.{change_table} in the warehouse: land the change table first, or set"
            f" change_table: (and the raw schema, vars.cdcflow_raw_schema) in the entry of '{name}'"
        )
    columns = data_columns(landed)
    if not columns:
        raise DescribeError(
            f"{raw_schema}.{change_table} has only header__ columns: no data column to onboard"
        )
    full_load_table = entry.get("full_load_table", name)
    full_load = describe_table(spark, f"{raw_schema}.{full_load_table}")
    if "columns" not in entry:
        key = entry.get("key") or []
        key = [key] if isinstance(key, str) else list(key)
        text = (
            f"# the vars entry of {name}, read from {raw_schema}.{change_table}: add it under"
            f" vars.cdcflow_tables,\n# name its key, then run `cdcflow onboard {name}`\n"
            + suggested_entry(name, change_table, columns, key, full_load_table if full_load else None)
        )
        lines = differences(columns, full_load, f"{raw_schema}.{full_load_table}") if full_load else []
        return text, lines
    configured = dict(entry["columns"])
    lines = differences(configured, columns, f"{raw_schema}.{change_table}")
    if full_load is not None and "full_load_table" in entry:
        lines += differences(configured, full_load, f"{raw_schema}.{full_load_table}")
    text = (
        f"{name}: the entry's columns match {raw_schema}.{change_table}"
        if not lines
        else f"{name}: the entry's columns and the landed tables differ"
    )
    return text, lines
