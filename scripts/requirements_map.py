"""Draft docs/requirements.md from the places that cite each requirement today:
``python scripts/requirements_map.py > docs/requirements.md``. The page is then kept by
hand (tests/test_requirements_map.py checks it against ../shared/SPEC.md and the tree);
run this again only to see what cites a requirement now."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = Path(os.environ.get("CROSSTABLE_SHARED", ROOT.parent / "shared")) / "SPEC.md"
ID = re.compile(r"\bR-[A-Z]{1,3}-\d+\b")
#: an id in a test's name: test_r_x_9_… or test_r_rr_12_…
TEST_ID = re.compile(r"\btest_r_([a-z]{1,3})_(\d+)")
#: requirements an open issue finishes: (issue, item)
OPEN = {
    "R-X-7": "28.5",
    "R-X-6": "31.4",
    "R-B-1": "26",
    "R-B-3": "31",
}
#: places that carry a requirement without citing it (the code does not name requirements)
HAND = {
    "R-RR-2": ("crosstable/core/scoring.py", "tests/test_points_json.py"),
    "R-RR-11": ("crosstable/core/tiebreaks/sonneborn.py",),
    "R-RR-15": ("crosstable/web/templates/_crosstable.html", "tests/test_pages.py"),
    "R-SW-1": (
        "crosstable/core/pairing/dutch/engine.py",
        "tests/test_dutch_reference.py",
        "tests/test_dutch_invariants.py",
    ),
    "R-OR-3": (
        "tests/test_web.py",
        "tests/test_game_servers.py",
        "crosstable/service/accounts/entry_requests.py",
        "tests/test_entry_links_web.py",
    ),
    "R-OR-4": (
        "tests/test_service_undo_revert.py",
        "tests/test_service_undo_surfaces.py",
        "tests/test_store.py",
    ),
    "R-X-12": ("crosstable/service/swiss/play.py",),
    "R-X-16": ("crosstable/core/series/calendar.py", "tests/test_series_calendar.py"),
    "R-B-2": ("crosstable/core/race/decide.py", "crosstable/service/race.py", "docs/race.md"),
    "R-X-5": (
        "crosstable/web/pdf/tables.py",
        "crosstable/core/schedule/blank.py",
        "crosstable/web/pdf/blanks.py",
    ),
    "R-X-9": ("crosstable/core/schedule/rating_groups.py",),
    "R-RR-12": ("crosstable/core/standings/begun.py",),
    "R-SE-1": ("crosstable/core/series/sequence.py",),
    "R-RR-10": ("crosstable/service/tiebreak_order.py", "tests/test_tiebreak_order_published.py"),
    "R-X-7": ("crosstable/store/backup.py", "tests/test_backup.py"),
}


def requirements() -> list[tuple[str, str, str]]:
    """(id, its section, its first line) in the order SPEC.md gives them."""
    found, section = [], ""
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        match = re.match(r"- \*\*(R-[A-Z]{1,3}-\d+)\*\*\s*(.*)", line)
        if match:
            found.append((match.group(1), section, match.group(2).strip()))
    return found


def citing(folder: str, suffixes: tuple[str, ...]) -> dict[str, set[str]]:
    cited: dict[str, set[str]] = {}
    for path in sorted((ROOT / folder).rglob("*")):
        if path.suffix in suffixes and "__pycache__" not in path.parts:
            text = path.read_text(encoding="utf-8", errors="replace")
            found = set(ID.findall(text))
            found |= {f"R-{part.upper()}-{n}" for part, n in TEST_ID.findall(text)}
            for rid in found:
                cited.setdefault(rid, set()).add(str(path.relative_to(ROOT)))
    return cited


def main() -> int:
    code = citing("crosstable", (".py", ".html"))
    tests = citing("tests", (".py",))
    docs = citing("docs", (".md",))
    for rid, paths in HAND.items():
        for path in paths:
            if (ROOT / path).exists():
                kind = (
                    tests
                    if path.startswith("tests/")
                    else docs
                    if path.startswith("docs/")
                    else code
                )
                kind.setdefault(rid, set()).add(path)
    out = [
        "# Requirements: where each is implemented and tested",
        "",
        "Every requirement of the specification (`../shared/SPEC.md`), the modules that",
        "implement it, the tests that show it and the documentation. Requirement ids live",
        "here, in test names and in the docs, not in the code's comments; the code explains",
        "itself. `tests/test_requirements_map.py` checks that every requirement of the",
        "specification is here, that every id here is one of them, and that every path named",
        "exists. A requirement an open issue still finishes says which.",
        "",
    ]
    section = None
    for rid, part, first in requirements():
        if part != section:
            out += [f"## {part}", ""]
            section = part
        out.append(f"### {rid}")
        out.append("")
        out.append(f"{first.rstrip('.')} …")
        out.append("")
        if rid in OPEN:
            issue, _dot, item = OPEN[rid].partition(".")
            where = f"issue {issue} item {item}" if item else f"issue {issue}"
            out.append(f"* open: {where} finishes it")
        for label, found in (("code", code), ("tests", tests), ("docs", docs)):
            paths = sorted(found.get(rid, ()))
            if paths:
                out.append(f"* {label}: " + ", ".join(f"`{p}`" for p in paths))
        out.append("")
    sys.stdout.write("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
