"""The docs point at what exists: every relative link (and its #anchor) of the
README and docs pages, and every repository file they name in backticks."""

import re
from pathlib import Path

import pytest

from launcher.spark import PROJECT_DIR

PAGES = [
    PROJECT_DIR / "README.md",
    PROJECT_DIR / "bench" / "README.md",
    *sorted((PROJECT_DIR / "docs").rglob("*.md")),
]
LINK = re.compile(r"\]\(([^)\s]+)\)")
# a path under one of the repository's code folders, e.g. `udfs/table_key.py` (examples
# of generated models, under models/, are not checked)
CODE_PATH = re.compile(
    r"`((?:bench|docs|integration_tests|launcher|macros|scripts|seeds|tests|udfs)/[\w./-]+\.\w+)`"
)


def _anchors(page: Path) -> set[str]:
    """GitHub's anchors of a page's headings."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(PROJECT_DIR)))
def test_links_and_named_files_exist(page):
    text = page.read_text()
    broken = []
    for target in LINK.findall(text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(target)
        elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
            broken.append(target)
    for path in CODE_PATH.findall(text):
        if not (PROJECT_DIR / path).exists():
            broken.append(path)
    assert broken == []
