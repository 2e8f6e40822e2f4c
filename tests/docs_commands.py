"""The ``crosstable`` command lines shown in the README and in ``docs/``, as a reader sees
them: every fenced block's lines (``$ `` prompts and ``# comments`` dropped, ``\\``
continuations joined) and every inline code span that starts with ``crosstable ``.

A line is a *template* when it shows a placeholder instead of a value (``FILE``, ``ID``,
``[--round R]``, ``json|table``, ``…``): its command and options must exist. Any other line
is *concrete*: the real parser must accept it as printed, and it runs.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
INLINE = re.compile(r"`(crosstable [^`\n]+)`")
#: a word in capitals standing for a value (FILE, ID, OUT.trf, ROUND, URL)
PLACEHOLDER = re.compile(r"(?<![\w.-])(?:[A-Z][A-Z0-9_]*(?:\.[a-z]+)?)(?![\w-])")
#: capitals that are values, not placeholders
VALUES = {"H", "Z", "F", "U", "X", "ESP", "FIDE", "WFM", "OTB"}


@dataclass(frozen=True)
class Shown:
    """A command line shown in a document."""

    where: str  # "docs/store.md:12"
    words: tuple[str, ...]  # after "crosstable"
    template: bool
    fenced: bool

    @property
    def text(self) -> str:
        return "crosstable " + " ".join(self.words)


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _words(line: str) -> tuple[tuple[str, ...], bool] | None:
    line = line.strip()
    line = line.removeprefix("$ ").strip()
    if not line.startswith("crosstable "):
        return None
    line = re.split(r"\s+(?:#|→)\s", line, maxsplit=1)[0].strip()
    template = bool(re.search(r"\[|\||…|\.\.\.", line))
    try:
        words = tuple(shlex.split(line))
    except ValueError:
        return tuple(line.split()[1:]), True
    rest = words[1:]
    if any(PLACEHOLDER.fullmatch(w) and w not in VALUES for w in rest):
        template = True
    return rest, template


def shown_commands() -> list[Shown]:
    found: list[Shown] = []
    for path in documents():
        text = path.read_text(encoding="utf-8")
        name = str(path.relative_to(ROOT))
        spans: list[tuple[int, int]] = []
        for block in FENCE.finditer(text):
            spans.append(block.span())
            body = block.group(1).replace("\\\n", " ")
            first = text.count("\n", 0, block.start(1)) + 1
            for offset, whole in enumerate(body.splitlines()):
                # two commands on one line: "crosstable tournaments; crosstable use 2"
                for line in re.split(r";\s+(?=crosstable )", whole):
                    parsed = _words(line)
                    if parsed is not None:
                        found.append(Shown(f"{name}:{first + offset}", *parsed, fenced=True))
        for match in INLINE.finditer(text):
            if any(start <= match.start() < end for start, end in spans):
                continue
            parsed = _words(match.group(1).replace("\\|", "|"))
            if parsed is not None:
                line = text.count("\n", 0, match.start()) + 1
                # an inline span names a command and some of its options, not all it needs
                found.append(Shown(f"{name}:{line}", parsed[0], True, fenced=False))
    return found


#: a project script or test run shown in a document: ``python bench/bench_web.py --viewers 1000``,
#: ``bash scripts/test.sh -n 0``, ``python -m pytest -q tests/test_architecture.py``
SCRIPT = re.compile(
    r"(?:python3?|bash) (?:-m pytest[^`\n#]*|(?:bench|scripts)/[\w./-]+\.(?:py|sh)[^`\n#]*)"
)


def shown_scripts() -> list[tuple[str, str]]:
    """(where, the line as shown) of every project script or test run in the documents,
    ``\\`` continuations joined."""
    found = []
    for path in documents():
        text = path.read_text(encoding="utf-8").replace("\\\n", " ")
        name = str(path.relative_to(ROOT))
        for match in SCRIPT.finditer(text.replace("\\|", "|")):
            line = text.count("\n", 0, match.start()) + 1
            found.append((f"{name}:{line}", match.group(0).strip()))
    return found
