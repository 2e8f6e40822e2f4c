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
