"""cdcflow's configuration macros (macros/config/) called from Python, so that
`cdcflow onboard` validates a vars entry and reads its defaults with the rules a
run applies, not with a second copy of them.

The macros are rendered by Jinja as dbt renders them (the ``do`` extension,
``return``, ``var``, ``fromjson``, ``exceptions.raise_compiler_error`` and the
``cdcflow.`` namespace), without dbt: no project parse, no Spark. Only macros that
read vars and call each other belong here (``MACRO_FILES``); one that needs a
relation, ``ref`` or the adapter cannot run outside dbt.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import jinja2

MACROS_DIR = Path(__file__).resolve().parents[1] / "macros" / "config"
# the macros table_config calls, and it
MACRO_FILES = ("table_config.sql", "column_type_problem.sql", "format_registry.sql")


class MacroError(ValueError):
    """A macro's exceptions.raise_compiler_error: its message, as a run prints it."""


class _Return(Exception):  # noqa: N818 -- dbt's `return`: the value leaves the macro as an exception
    def __init__(self, value):
        self.value = value


class _Exceptions:
    """dbt's ``exceptions``, the one member the configuration macros call."""

    @staticmethod
    def raise_compiler_error(message: str):
        raise MacroError(message)


class _Namespace:
    """``cdcflow.<macro>``: each macro called as dbt calls it, its ``return`` value out."""

    def __init__(self, macros: dict):
        self._macros = macros

    def __getattr__(self, name: str):
        macro = self._macros[name]

        def call(*args, **kwargs):
            try:
                return macro(*args, **kwargs)
            except _Return as returned:
                return returned.value

        return call


@cache
def _templates() -> tuple[str, ...]:
    return tuple((MACROS_DIR / name).read_text() for name in MACRO_FILES)


def macros(project_vars: dict) -> _Namespace:
    """The configuration macros, their ``var()`` reading ``project_vars`` (a
    dbt_project.yml's ``vars``)."""

    def var(name: str, default=None):
        return project_vars.get(name, default)

    def return_(value):
        raise _Return(value)

    environment = jinja2.Environment(extensions=["jinja2.ext.do"], undefined=jinja2.StrictUndefined)
    found: dict = {}
    namespace = _Namespace(found)
    environment.globals.update(
        {
            "var": var,
            "return": return_,
            "fromjson": json.loads,
            "exceptions": _Exceptions,
            "cdcflow": namespace,
        }
    )
    for text in _templates():
        module = environment.from_string(text).module
        found.update({name: getattr(module, name) for name in dir(module) if not name.startswith("_")})
    return namespace


def table_config(table_name: str, project_vars: dict) -> dict:
    """macros/config/table_config.sql: the validated configuration of ``table_name``
    from ``project_vars['cdcflow_tables']``; MacroError with the run's message."""
    return macros(project_vars).table_config(table_name)
