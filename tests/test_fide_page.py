"""docs/fide.md answers FIDE's checklist for tournament programs question by question, and
stays honest: every question of the checklist (../shared/FIDE-CHECKLIST.md) has a row,
every test a row names exists, the weights are the checklist's, and the penalty figure
and the hard fails at the top are what the rows add up to."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import pytest

from tests.conftest import ROOT, SHARED

PAGE = ROOT / "docs" / "fide.md"
CHECKLIST = SHARED / "FIDE-CHECKLIST.md"
ANSWERS = {"met": Fraction(0), "partly": Fraction(1, 2), "no": Fraction(1), "n/a": Fraction(0)}
NODE = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")
PERCENT = re.compile(r"(\d+(?:\.\d+)?) %")


@dataclass(frozen=True)
class Weight:
    """A weight as the checklist writes it: a hard fail, or percentages (none: 0)."""

    hard: bool
    percent: Fraction

    @classmethod
    def parse(cls, text: str) -> Weight:
        text = text.strip()
        if text.startswith("HF"):
            return cls(True, Fraction(0))
        return cls(False, sum((Fraction(p) for p in PERCENT.findall(text)), Fraction(0)))


@dataclass(frozen=True)
class Row:
    label: str
    weight: Weight
    answer: str
    how: str
    tests: tuple[tuple[str, str], ...]
    line: int


def numbers(label: str) -> frozenset[int]:
    """The question numbers a label names: ``Q16–18``, ``Q89, Q93``, ``Q145 FIDON``."""
    found: set[int] = set()
    for first, last in re.findall(r"Q(\d+)(?:[–-]Q?(\d+))?", label):
        found.update(range(int(first), int(last or first) + 1))
    return frozenset(found)


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


@cache
def checklist() -> dict[str, Weight]:
    """Each question label of the checklist's tables with its weight (rows of one label
    added up, as Q145's methods are; a row that only points to another, "(see §6)",
    left out)."""
    found: dict[str, Weight] = {}
    for line in CHECKLIST.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| Q"):
            continue
        label, _issue, requirement, weight, *_ = cells(line)
        if not numbers(label) or requirement.startswith("(see"):  # the header, a pointer
            continue
        parsed = Weight.parse(weight)
        if label in found:
            parsed = Weight(found[label].hard or parsed.hard, found[label].percent + parsed.percent)
        found[label] = parsed
    return found


@cache
def page_rows() -> tuple[Row, ...]:
    rows = []
    in_table = False
    for number, line in enumerate(PAGE.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("| Q | weight | answer | how | shown by |"):
            in_table = True
            continue
        if not line.startswith("|"):
            in_table = False
            continue
        if not in_table or line.startswith("| ---"):
            continue
        label, weight, answer, how, shown = cells(line)
        tests = tuple(NODE.findall(shown))
        rows.append(Row(label, Weight.parse(weight), answer, how, tests, number))
    return tuple(rows)


def penalty(rows: tuple[Row, ...]) -> Fraction:
    return sum((r.weight.percent * ANSWERS[r.answer] for r in rows), Fraction(0))


def hard_fails(rows: tuple[Row, ...]) -> list[str]:
    return [r.label for r in rows if r.weight.hard and r.answer in ("partly", "no")]


@cache
def defined(path: str) -> frozenset[str]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return frozenset(
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")
    )


def test_r_b_1_the_page_has_rows_and_each_row_an_answer() -> None:
    rows = page_rows()
    assert len(rows) > 100
    for row in rows:
        assert row.answer in ANSWERS, f"docs/fide.md:{row.line}: answer {row.answer!r}"
        assert row.how, f"docs/fide.md:{row.line}: no how"
        if row.answer in ("met", "partly"):
            assert row.tests, f"docs/fide.md:{row.line}: {row.label} is {row.answer}, no test"


def test_r_b_1_every_test_a_row_names_exists() -> None:
    missing = [
        f"docs/fide.md:{row.line}: {path}::{name}"
        for row in page_rows()
        for path, name in row.tests
        if not (ROOT / path).is_file() or name not in defined(path)
    ]
    assert not missing, "rows name tests that do not exist:\n" + "\n".join(missing)


def test_r_b_1_every_question_of_the_checklist_has_a_row_with_its_weight() -> None:
    rows = page_rows()
    covered = set().union(*(numbers(r.label) for r in rows))
    for label, weight in checklist().items():
        wanted = numbers(label)
        assert wanted, label
        assert wanted <= covered, f"{label}: no row for Q{sorted(wanted - covered)}"
        mine = [r for r in rows if numbers(r.label) and numbers(r.label) <= wanted]
        given = sum((r.weight.percent for r in mine), Fraction(0))
        assert given == weight.percent, f"{label}: the rows weigh {given} %, the checklist {weight}"
        assert any(r.weight.hard for r in mine) == weight.hard, f"{label}: hard fail or not"


def test_r_b_1_the_figures_at_the_top_are_the_rows_sum() -> None:
    text = PAGE.read_text(encoding="utf-8")
    said = re.search(r"Penalties by this page's count: \*\*(\d+(?:\.\d+)?) %\*\*", text)
    fails = re.search(r"Hard fails left: \*\*(\d+)\*\*(?: \(([^)]*)\))?", text)
    assert said and fails, "the page states its penalties and hard fails at the top"
    rows = page_rows()
    assert Fraction(said.group(1)) == penalty(rows)
    left = hard_fails(rows)
    assert int(fails.group(1)) == len(left)
    assert [q.strip() for q in (fails.group(2) or "").split(",") if q.strip()] == left


@pytest.mark.parametrize(
    ("label", "expected"),
    [("Q16–18", {16, 17, 18}), ("Q89, Q93, Q94, Q96", {89, 93, 94, 96}), ("Q145 FIDON", {145})],
)
def test_labels_name_their_questions(label: str, expected: set[int]) -> None:
    assert numbers(label) == expected


def test_weights_read_as_the_checklist_writes_them() -> None:
    assert Weight.parse("HF (if built)") == Weight(True, Fraction(0))
    assert Weight.parse("7 % + 7 % + 3 %").percent == 17
    assert Weight.parse('7 % if "no"').percent == 7
    assert Weight.parse("—").percent == 0
