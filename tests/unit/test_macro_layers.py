"""The macro folders call each other in one direction (docs/contributing.md,
Layout): a shared folder calls only the folders under it, a vendor's folder
the shared ones and the two folders vendors share, never another vendor's."""

from __future__ import annotations

import re
from pathlib import Path

MACROS = Path(__file__).resolve().parents[2] / "macros"
# lowest first: a folder may call the folders before it
SHARED = [
    "sql",
    "config",
    "ranges",
    "landing",
    "scd",
    "change_log",
    "masks",
    "tests",
    "materializations",
    "point_in_time",
    "hooks",
    "seeds",
]
SHARED_BY_VENDORS = ["qlik", "kafka"]
VENDORS = ["qlik_ct", "qlik_kafka", "debezium", "dirxml"]
DEFINITION = re.compile(
    r"{%-?\s*(macro|test|materialization)\s+(\w+)(.*?){%-?\s*end(?:macro|test|materialization)\s*-?%}", re.S
)


COMMENT = re.compile(r"{#.*?#}", re.S)


def _macros() -> dict[str, tuple[str, str]]:
    """macro name -> (its top folder under macros/, its body less its comments);
    a materialization, called by no macro, under its kind and name."""
    found = {}
    for path in sorted(MACROS.rglob("*.sql")):
        for kind, name, body in DEFINITION.findall(COMMENT.sub("", path.read_text())):
            key = {"test": f"test_{name}", "materialization": f"materialization {name}"}.get(kind, name)
            assert key not in found, f"{key} defined twice"
            found[key] = (path.relative_to(MACROS).parts[0], body)
    assert len(found) > 150
    return found


def _calls(body: str, names: set[str]) -> set[str]:
    """The macros a body calls: by name, or through adapter.dispatch."""
    called = {name for name in re.findall(r"\b(\w+)\s*\(", body) if name in names}
    for dispatched in re.findall(r"dispatch\(\s*'(\w+)'", body):
        called |= {f"{prefix}__{dispatched}" for prefix in ("default", "spark")} & names
    return called


def _allowed(caller: str) -> set[str]:
    if caller in SHARED:
        return set(SHARED[: SHARED.index(caller)])
    if caller in SHARED_BY_VENDORS:
        return set(SHARED)
    assert caller in VENDORS, f"macros/{caller}/ is in no layer of this test"
    return set(SHARED) | set(SHARED_BY_VENDORS)


def test_every_macro_folder_has_a_layer():
    folders = {path.name for path in MACROS.iterdir() if path.is_dir()}
    assert folders == set(SHARED) | set(SHARED_BY_VENDORS) | set(VENDORS)


def test_macro_folders_call_only_the_layers_under_them():
    macros = _macros()
    upward = sorted(
        f"macros/{folder}/ {name} calls macros/{macros[called][0]}/ {called}"
        for name, (folder, body) in macros.items()
        for called in _calls(body, set(macros) - {name})
        if macros[called][0] != folder and macros[called][0] not in _allowed(folder)
    )
    assert upward == []


def test_the_check_sees_calls():
    macros = _macros()
    assert _calls(macros["versioned_model"][1], set(macros)) == {"default__versioned_model"}
    assert _calls(macros["default__versioned_model"][1], set(macros)) >= {"layout_macro"}
    assert "default__merged_versioned_model" in _calls(macros["layout_macro"][1], set(macros))
