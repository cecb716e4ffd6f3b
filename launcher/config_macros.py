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
import yaml

# a clone's macros (the launcher beside them); a project reads those of the cdcflow it installed
CHECKOUT_DIR = Path(__file__).resolve().parents[1] / "macros" / "config"
# the macros table_config calls, and it
MACRO_FILES = ("table_config.sql", "column_type_problem.sql", "format_registry.sql")


class MacroError(ValueError):
    """A macro's exceptions.raise_compiler_error: its message, as a run prints it."""


def macros_dir(project_dir: Path | None = None) -> Path:
    """Where the configuration macros a run of ``project_dir`` uses are: the cdcflow
    its `dbt deps` installed (packages-install-path, default dbt_packages/), else
    cdcflow's own (the project is cdcflow, or a clone the launcher runs from).
    MacroError when none is there: `dbt deps` has not run."""
    places = []
    if project_dir is not None:
        project_dir = Path(project_dir)
        settings = project_dir / "dbt_project.yml"
        document = yaml.safe_load(settings.read_text()) if settings.exists() else {}
        installed = (document or {}).get("packages-install-path", "dbt_packages")
        places.append(project_dir / installed / "cdcflow" / "macros" / "config")
        if (document or {}).get("name") == "cdcflow":
            places.append(project_dir / "macros" / "config")
    places.append(CHECKOUT_DIR)
    for place in places:
        if all((place / name).is_file() for name in MACRO_FILES):
            return place
    raise MacroError(
        f"cdcflow's macros are not installed in {project_dir}: run `dbt deps` first (cdcflow in packages.yml)"
    )


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
def _templates(folder: Path) -> tuple[jinja2.Template, ...]:
    """The macro files of ``folder``, compiled once per process: compiling them took
    about 0.1 s a table, and `cdcflow run` validates every table before Spark starts.
    What a macro reads (``var``, ``cdcflow``...) comes from the module made of it."""
    environment = jinja2.Environment(extensions=["jinja2.ext.do"], undefined=jinja2.StrictUndefined)
    return tuple(environment.from_string((folder / name).read_text()) for name in MACRO_FILES)


def macros(project_vars: dict, folder: Path | None = None) -> _Namespace:
    """The configuration macros of ``folder`` (default: macros_dir()), their
    ``var()`` reading ``project_vars`` (a dbt_project.yml's ``vars``)."""

    def var(name: str, default=None):
        return project_vars.get(name, default)

    def return_(value):
        raise _Return(value)

    found: dict = {}
    namespace = _Namespace(found)
    context = {
        "var": var,
        "return": return_,
        "fromjson": json.loads,
        "exceptions": _Exceptions,
        "cdcflow": namespace,
    }
    for template in _templates(folder or macros_dir()):
        module = template.make_module(context)
        found.update({name: getattr(module, name) for name in dir(module) if not name.startswith("_")})
    return namespace


def table_config(table_name: str, project_vars: dict, folder: Path | None = None) -> dict:
    """macros/config/table_config.sql: the validated configuration of ``table_name``
    from ``project_vars['cdcflow_tables']``; MacroError with the run's message."""
    return macros(project_vars, folder).table_config(table_name)
