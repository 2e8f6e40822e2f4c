"""docs/requirements.md maps every requirement of the specification to the code, tests and
docs that carry it: each requirement of ../shared/SPEC.md has its section, every id on the
page is one of the specification's, and every path the page names exists."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = Path(os.environ.get("CROSSTABLE_SHARED", ROOT.parent / "shared")) / "SPEC.md"
PAGE = ROOT / "docs" / "requirements.md"
ID = re.compile(r"\bR-[A-Z]{1,3}-\d+\b")


def specified() -> list[str]:
    return re.findall(r"^- \*\*(R-[A-Z]{1,3}-\d+)\*\*", SPEC.read_text(encoding="utf-8"), re.M)


def test_every_requirement_has_its_section_once() -> None:
    sections = re.findall(r"^### (R-[A-Z]{1,3}-\d+)$", PAGE.read_text(encoding="utf-8"), re.M)
    assert len(specified()) > 50
    assert sorted(sections) == sorted(specified())


def test_every_id_on_the_page_is_specified() -> None:
    assert set(ID.findall(PAGE.read_text(encoding="utf-8"))) <= set(specified())


def test_every_path_on_the_page_exists() -> None:
    paths = re.findall(
        r"`((?:crosstable|tests|docs|bench|scripts)/[^`\s]+)`", PAGE.read_text("utf-8")
    )
    assert len(paths) > 100
    assert [p for p in paths if not (ROOT / p).exists()] == []


#: what cites a requirement or an issue in prose: R-RR-5, "issue 14", "issues 11 and 25"
CITATION = re.compile(r"\bR-[A-Z]{1,3}-\d+|\b[Ii]ssues? #?\d+")


def citations_in(root: Path) -> list[str]:
    """Every place in the package's code, templates and scripts that cites one."""
    found = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in {".py", ".html", ".js", ".css"}:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if CITATION.search(line):
                found.append(f"{path.relative_to(root.parent)}:{number}: {line.strip()}")
    return found


def test_the_code_explains_itself_and_leaves_the_citations_to_this_page() -> None:
    """Comments and docstrings explain the code; which requirement a module carries is
    this page's business (and no requirement id reaches a user)."""
    assert citations_in(ROOT / "crosstable") == []


def test_the_citation_check_finds_ids_and_issue_numbers(tmp_path: Path) -> None:
    package = tmp_path / "package"
    package.mkdir()
    (package / "a.py").write_text('"""Berger (R-RR-5)."""\n# fixed in issue 14.2\nx = 1\n')
    (package / "page.html").write_text("{# Issues 11 and 25 #}\n<p>tissue 3</p>\n")
    assert citations_in(package) == [
        'package/a.py:1: """Berger (R-RR-5)."""',
        "package/a.py:2: # fixed in issue 14.2",
        "package/page.html:1: {# Issues 11 and 25 #}",
    ]
