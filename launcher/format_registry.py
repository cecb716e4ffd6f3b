"""The one declaration of cdcflow's source formats and of the models a
configured table has: what `cdcflow onboard` writes and what the package's
macros read. The macros read it from macros/config/format_registry.sql, which
this module generates (`python -m launcher.format_registry --write`;
tests/unit/test_format_registry.py fails when it is not current).

A table's model is named by its layer's pattern from the table's name, its
format and the model's role; `model_name` here and the macro
`table_model_name` are the only places that build one.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

# a table's model in a layer: {table} its name, {format} its format, {role} the model's role
LAYER_PATTERNS = {
    "staging": "stg_{format}__{table}_{role}",
    "intermediate": "int_{table}__{role}",
    "marts": "{table}_{role}",
}
# the models every table has, by role
TABLE_ROLES = {
    "changes_logged": "intermediate",
    "versioned": "intermediate",
    "current": "marts",
    "history": "marts",
}
# per format: the model quarantining its bad rows (shared by its tables), its tables'
# own models by role (the staging models, the model between them and the change log:
# for Qlik __ct, the before images waiting for their UPDATE, state across runs),
# its raw tables' settings and their defaults ({table}: the table's name), and what the
# format-independent macros need to know of it
FORMATS: dict[str, dict] = {
    "qlik_ct": {
        "quarantine": "qlik_ct_quarantine",
        "roles": {"changes": "staging", "full_load": "staging", "before_images_waiting": "intermediate"},
        "raw_table_settings": ["change_table", "full_load_table"],
        "raw_table_defaults": {"change_table": "{table}__ct"},
        "may_omit_columns": False,
        "relogs_changes": True,
        "relogs_other_operation": True,
    },
    "qlik_kafka": {
        "quarantine": "qlik_kafka_quarantine",
        "roles": {"messages": "staging", "messages_decoded": "intermediate"},
        "raw_table_settings": ["raw_table"],
        "raw_table_defaults": {"raw_table": "qlik_kafka_messages"},
        "may_omit_columns": True,
        "relogs_changes": False,
        "relogs_other_operation": False,
    },
    "debezium": {
        "quarantine": "debezium_quarantine",
        "roles": {"events": "staging"},
        "raw_table_settings": ["raw_table"],
        "raw_table_defaults": {"raw_table": "debezium_events"},
        "may_omit_columns": True,
        "relogs_changes": False,
        "relogs_other_operation": False,
    },
    "dirxml": {
        "quarantine": "dirxml_quarantine",
        "roles": {"events": "staging", "events_decided": "intermediate"},
        "raw_table_settings": ["raw_table"],
        "raw_table_defaults": {"raw_table": "dirxml_event_log"},
        "may_omit_columns": True,
        "relogs_changes": True,
        "relogs_other_operation": False,
    },
}
JINJA = Path(__file__).resolve().parents[1] / "macros" / "config" / "format_registry.sql"


def roles(fmt: str) -> dict[str, str]:
    """Role -> layer of every model a table of format ``fmt`` has."""
    return {**FORMATS.get(fmt, {}).get("roles", {}), **TABLE_ROLES}


def model_name(table: str, fmt: str, role: str) -> str:
    """The name of table ``table``'s model of role ``role`` (a table of format ``fmt``)."""
    layer = roles(fmt).get(role)
    if layer is None:
        raise KeyError(f"a {fmt} table has no model of role {role!r} (roles: {', '.join(roles(fmt))})")
    return LAYER_PATTERNS[layer].format(table=table, format=fmt, role=role)


def raw_table_default(table: str, fmt: str, setting: str) -> str | None:
    """The raw table a ``fmt`` table reads when its vars entry does not set ``setting``."""
    default = FORMATS[fmt]["raw_table_defaults"].get(setting)
    return None if default is None else default.format(table=table)


def jinja_text() -> str:
    """macros/config/format_registry.sql: this module's declaration, as a macro."""
    registry = {
        "layer_patterns": LAYER_PATTERNS,
        "table_roles": TABLE_ROLES,
        "formats": FORMATS,
        # the formats in the order the messages list them
        "format_names": list(FORMATS),
    }
    return (
        "{% macro format_registry() %}\n"
        "    {#- Generated from launcher/format_registry.py (python -m launcher.format_registry --write):\n"
        "        the source formats and the models a configured table has, by role and layer.\n"
        "        Edit that file, not this one. -#}\n"
        f"    {{{{ return(fromjson('{json.dumps(registry, sort_keys=True, indent=4)}')) }}}}\n"
        "{% endmacro %}\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--write", action="store_true", help=f"write {JINJA.name}; else say whether it is current"
    )
    args = parser.parse_args(argv)
    if args.write:
        JINJA.write_text(jinja_text())
        return 0
    current = JINJA.exists() and JINJA.read_text() == jinja_text()
    print(f"{JINJA} is {'current' if current else 'not current: run with --write'}")
    return 0 if current else 1


if __name__ == "__main__":
    raise SystemExit(main())
