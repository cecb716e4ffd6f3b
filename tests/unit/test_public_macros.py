"""The macros a project's models and analysts call go through adapter.dispatch
(namespace cdcflow), so a project replaces one with a `spark__<name>` of its
own as it would a dbt-utils macro; each is documented once, in its folder's
YAML (dbt docs shows it), not again in a comment beside the code."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from launcher import format_registry, onboard

ROOT = Path(__file__).resolve().parents[2]
# what analysts call in their own SQL (docs/analysts.md)
ANALYSTS = {"as_of", "changes_between", "decode_change_mask"}


def _called_by_models() -> set[str]:
    """The macros the generated models of every format and the shared models call."""
    called = set()
    for fmt in format_registry.FORMATS:
        entry = {"format": fmt, "key": ["id"], "columns": {"id": "int"}, "full_load_table": "t"}
        for body in onboard.model_bodies(onboard._table("t", entry)).values():
            called |= set(re.findall(r"cdcflow\.(\w+)\(", body))
    for path in (ROOT / "models").rglob("*.sql"):
        if path.parent.name == "shared":
            called |= set(re.findall(r"cdcflow\.(\w+)\(", path.read_text()))
    return called


PUBLIC = sorted(_called_by_models() | ANALYSTS)


def _definitions() -> dict[str, str]:
    found = {}
    for path in (ROOT / "macros").rglob("*.sql"):
        text = path.read_text()
        for name, body in re.findall(r"{%-?\s*macro\s+(\w+)\(.*?\)\s*-?%}(.*?){%-?\s*endmacro", text, re.S):
            found[name] = body
    return found


def _documented() -> dict[str, str]:
    found = {}
    for path in (ROOT / "macros").rglob("_*__macros.yml"):
        for entry in yaml.safe_load(path.read_text())["macros"]:
            found[entry["name"]] = entry.get("description", "")
    return found


def test_the_public_macros_are_the_models_and_the_analysts():
    assert len(PUBLIC) == 27
    assert {"versioned_model", "scd1_current", "history_view", "qlik_ct_quarantine"} <= set(PUBLIC)


def test_each_public_macro_dispatches_to_its_default():
    definitions = _definitions()
    for name in PUBLIC:
        assert f"adapter.dispatch('{name}', 'cdcflow')" in definitions[name], name
        assert f"default__{name}" in definitions, name


def test_each_public_macro_is_documented_once_in_yaml():
    definitions, documented = _definitions(), _documented()
    for name in PUBLIC:
        assert len(documented.get(name, "")) > 50, name
        for macro in (name, f"default__{name}"):
            assert not re.match(r"\s*{#", definitions[macro]), f"{macro}: its text is the YAML's ({name})"
