"""Every fast path of every tie-break equals its definition (issue 18, the systemic fix).

:mod:`crosstable.core.tiebreaks.definitions` computes each value from the words of
C.07, one player and one round at a time. These properties prove equal to it, for
EVERY registered code crossed with every modifier it defines (:data:`SPECS`, built
from the registry, so a new tie-break or modifier is covered without editing this
file) under both editions:

* the whole column (``compute``), one player (``player_value``) and the
  explanation (``explain``: its value, and its counted items adding up to it);
* the standings table, its JSON, the crosstable and ``Standings.explain`` (DE too:
  the explanation's place is the table's);
* the live table after every result, against a full recount (rows and JSON text).

Tournaments: single, double and odd round robins with forfeits, double forfeits,
games not played yet and withdrawals under each withdrawal rule (live and final),
3-1-0 scoring; Swiss events with PABs, F/H/Z byes, forfeits and withdrawals.

Bounded for CI (the whole file well under a minute); a longer run:
``CROSSTABLE_TIEBREAK_EXAMPLES=2000 python -m pytest -q tests/test_tiebreak_definitions.py``.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.model import RulesEdition, System, Tournament, WithdrawalRule
from crosstable.core.scoring import PointSystem
from crosstable.core.standings import compute_standings, crosstable_view
from crosstable.core.standings.live import LiveStandings
from crosstable.core.tiebreaks import REGISTRY, compile_field, parse_code
from crosstable.core.tiebreaks.base import TieBreak
from crosstable.core.tiebreaks.definitions import definition
from crosstable.core.tiebreaks.direct import encounters, mini_table
from crosstable.core.tiebreaks.field import Field
from crosstable.core.tiebreaks.spec import (
    CUT,
    FORE,
    FORFEITS,
    LIMIT,
    MEDIAN,
    REVERSE,
    UNRATED,
    TieBreakSpec,
)
from crosstable.service.standings_text import json_text
from tests.test_tiebreak_helpers import result, tour

EXAMPLES = int(os.environ.get("CROSSTABLE_TIEBREAK_EXAMPLES", "25"))
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: what each modifier family adds to a code (C.07 art. 14; TieBreakServer's syntax)
VARIANTS = {
    CUT: ["/C1", "/C2", "/C3"],
    MEDIAN: ["/M1", "/M2"],
    LIMIT: ["/L-1", "/L+1", "/L2", "/L0.5", "/L-1.5", "/L60%", "/L40%"],
    FORFEITS: ["/P"],
    REVERSE: ["/R"],
    FORE: ["/F", "/F/C1", "/F/M1"],
    UNRATED: ["/U1000", "/U1800/C1"],
}


def all_codes() -> list[str]:
    """Every registered code with every modifier it defines (and two with an edition)."""
    codes = []
    for name, tb in sorted(REGISTRY.items()):
        codes.append(name)
        for family in sorted(tb.modifiers):
            for variant in VARIANTS[family]:
                needs = {CUT if "/C" in variant else "", MEDIAN if "/M" in variant else ""} - {""}
                if needs <= set(tb.modifiers) | {family}:
                    codes.append(name + variant)
        codes.append(f"{name}/V2026")
        codes.append(f"{name}/V2024")
    return codes


CODES = all_codes()
SPECS = [parse_code(code) for code in CODES]
#: codes whose explanation lists the very amounts that add up to the value
SUMS = {"PTS", "WIN", "WON", "BPG", "BWG", "REP", "PS", "STD", "BH", "FB", "SB", "DSB", "KS"}
RESULTS = ["1-0", "0-1", "==", "+-", "-+", "--", ".."]
POINTS = [PointSystem(), PointSystem(win=Fraction(3), draw=Fraction(1), loss=Fraction(0))]


def test_every_code_and_modifier_is_covered() -> None:
    names = {spec.name for spec in SPECS}
    assert names == set(REGISTRY)
    assert {"BH/C2", "BH/M2", "FB/C2", "AOB/F/C1", "SB/M1", "KS/L-1", "ARO/C1"} <= set(CODES)
    assert {"TPN/R", "RTNG/R", "DE/P", "PS/C2", "TPR/U1000"} <= set(CODES)


FAMILIES = {"/Cn": CUT, "/Mn": MEDIAN, "/L": LIMIT, "/P": FORFEITS, "/R": REVERSE, "/F": FORE}
FAMILIES["/U"] = UNRATED


def test_the_docs_table_is_the_registry() -> None:
    """docs/tiebreaks.md's code × modifier table says yes exactly where the registry
    accepts the modifier, and refuses (parse_code raises) everywhere else."""
    text = (Path(__file__).parent.parent / "docs" / "tiebreaks.md").read_text()
    section = text.split("### Every code × modifier × edition", 1)[1].split("\n\n| Code", 1)[1]
    table = ("| Code" + section).split("\n\n", 1)[0]
    lines = [line for line in table.splitlines() if line.startswith("| ")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    seen = set()
    for line in lines[1:]:
        cells = dict(zip(header, (c.strip() for c in line.strip("|").split("|")), strict=True))
        name = cells["Code"].strip("`")
        seen.add(name)
        for column, family in FAMILIES.items():
            assert (cells[column] == "yes") == (family in REGISTRY[name].modifiers), (name, column)
            if cells[column] != "yes":
                sample = {CUT: "/C1", MEDIAN: "/M1", LIMIT: "/L-1", FORFEITS: "/P"}
                sample |= {REVERSE: "/R", FORE: "/F", UNRATED: "/U1000"}
                with pytest.raises(RuleError, match="has no"):
                    parse_code(name + sample[family])
    assert seen == set(REGISTRY)


# -- tournaments ---------------------------------------------------------------------------


@st.composite
def round_robins(draw: st.DrawFn) -> tuple[Tournament, list[int]]:
    """A single or double, even or odd round robin; a withdrawal now and then: the
    player's games from some round on are forfeited (or not played yet)."""
    size = draw(st.integers(3, 7))
    cycles = draw(st.sampled_from([1, 1, 2]))
    players = size + size % 2
    rounds = []
    order = list(range(1, players + 1))
    for cycle in range(cycles):
        ring = order[1:]
        for r in range(players - 1):
            pairs = [(order[0], ring[0])] + [(ring[i], ring[-i]) for i in range(1, players // 2)]
            items = []
            for w, b in pairs:
                if (r + cycle) % 2:
                    w, b = b, w
                if max(w, b) > size:
                    items.append(f"{min(w, b)} free")
                else:
                    items.append(f"{w}-{b} {draw(st.sampled_from(RESULTS))}")
            rounds.append(items)
            ring = ring[-1:] + ring[:-1]
    withdrawn: list[int] = []
    if draw(st.booleans()):
        who = draw(st.integers(1, size))
        start = draw(st.integers(0, len(rounds) - 1))
        lost = draw(st.sampled_from(["forfeit", "pending"]))
        for r in range(start, len(rounds)):
            rounds[r] = [_withdrawn_game(item, who, lost) for item in rounds[r]]
        if draw(st.booleans()):
            withdrawn.append(who)
    ratings = draw(st.lists(st.integers(1000, 2800), min_size=size, max_size=size))
    if draw(st.integers(0, 4)) == 0:
        ratings[draw(st.integers(0, size - 1))] = 0  # an unrated player (art. 10)
    t = tour(
        size,
        rounds,
        ratings=ratings,
        points=draw(st.sampled_from(POINTS)),
        rules=draw(st.sampled_from(list(RulesEdition))),
        cycles=cycles,
        bye_points=draw(st.sampled_from([None, Fraction(1, 2)])),
    )
    rule = draw(st.sampled_from(list(WithdrawalRule)))
    # R-RR-14: both values of the regulations' forfeit setting (fast path == definition)
    counted = draw(st.booleans())
    settings = replace(t.settings, withdrawal_rule=rule, forfeits_in_tiebreaks=counted)
    return replace(t, settings=settings), withdrawn


def _withdrawn_game(item: str, who: int, lost: str) -> str:
    left, _ = item.split(" ", 1)
    if "-" not in left:
        return item
    w, b = (int(x) for x in left.split("-"))
    if who not in (w, b):
        return item
    if lost == "pending":
        return f"{left} .."
    return f"{left} {'-+' if who == w else '+-'}"


@st.composite
def swiss_events(draw: st.DrawFn) -> tuple[Tournament, list[int]]:
    """Random pairings each round with PABs, F/H/Z byes, forfeits; a withdrawal now
    and then (zero-point byes to the end)."""
    size = draw(st.integers(3, 9))
    rounds = draw(st.integers(1, 6))
    gone = draw(st.integers(1, size)) if draw(st.booleans()) else None
    leaves = draw(st.integers(1, rounds)) if gone is not None else rounds + 1
    plan = []
    for r in range(1, rounds + 1):
        present = [p for p in range(1, size + 1) if not (p == gone and r >= leaves)]
        order = draw(st.permutations(present))
        items = [f"{p} Z" for p in range(1, size + 1) if p not in present]
        i = 0
        while i < len(order):
            if i + 1 < len(order) and draw(st.integers(0, 5)) > 0:
                items.append(f"{order[i]}-{order[i + 1]} {draw(st.sampled_from(RESULTS))}")
                i += 2
            else:
                items.append(f"{order[i]} {draw(st.sampled_from(['U', 'F', 'H', 'Z']))}")
                i += 1
        plan.append(items)
    ratings = draw(st.lists(st.integers(1000, 2800), min_size=size, max_size=size))
    if draw(st.integers(0, 4)) == 0:
        ratings[draw(st.integers(0, size - 1))] = 0
    t = tour(
        size,
        plan,
        system=System.SWISS_DUTCH,
        ratings=ratings,
        points=draw(st.sampled_from(POINTS)),
        rules=draw(st.sampled_from(list(RulesEdition))),
    )
    return t, ([gone] if gone is not None and draw(st.booleans()) else [])


events = st.one_of(round_robins(), swiss_events())


# -- the properties --------------------------------------------------------------------------


def _fast(tb: TieBreak, f: Field, spec: TieBreakSpec) -> list[object]:
    column = tb.compute(f, spec)
    return [column.natural(p) for p in range(f.n)]


def _one(tb: TieBreak, f: Field, spec: TieBreakSpec, p: int) -> object:
    column = tb.compute(f, spec)
    if column.dropped is not None:
        return None
    value = tb.player_value(f, spec, p)
    if value is None or column.denominator == 1:
        return value
    return Fraction(value) / column.denominator


def check_field(f: Field) -> None:
    """Column, one player and explanation of every spec against the definition."""
    for spec in SPECS:
        tb = REGISTRY[spec.name]
        want = [definition(f, spec, p) for p in range(f.n)]
        if spec.name == "DE":
            continue  # decided on tied groups (check_standings, check_direct_encounter)
        assert _fast(tb, f, spec) == want, spec.code
        for p in range(f.n):
            assert _one(tb, f, spec, p) == want[p], (spec.code, p + 1)
            shown = tb.explain(f, spec, p)
            assert shown.value == want[p], (spec.code, p + 1, shown.text())
            if spec.name in SUMS and want[p] is not None:
                counted = [i.amount for i in shown.items if i.counted and i.amount is not None]
                assert sum(counted, Fraction(0)) == want[p], (spec.code, p + 1, shown.text())


def check_direct_encounter(f: Field) -> None:
    """DE's mini-table sums (used to rank) equal its per-opponent encounters (used to
    explain), for the whole field and for a few subsets."""
    for spec in (parse_code("DE"), parse_code("DE/P")):
        for group in (list(range(f.n)), list(range(0, f.n, 2)), list(range(1, f.n))):
            totals, met = mini_table(f, spec, group)
            for p in group:
                games = encounters(f, spec, p, set(group))
                assert totals[p] == sum(Fraction(sum(v), len(v)) for v in games.values())
                assert met[p] == len(games)


def check_standings(t: Tournament, withdrawn: list[int], final: bool) -> None:
    """The table, its JSON, the crosstable and the explanations show one number."""
    table = compute_standings(t, CODES, withdrawn=withdrawn, final=final)
    f = table.field
    data = table.to_json()
    assert data["tiebreaks"] == CODES
    json_rows = {row["start"]: row for row in data["rows"]}  # type: ignore[attr-defined]
    cross = {row.start: row for row in crosstable_view(t, table).rows}
    for row in table.rows:
        p = row.start - 1
        assert cross[row.start].values == row.values
        points, *explained = table.explain(row.start)  # the points, then each non-PTS code
        assert points.value == row.points
        listed = iter(explained)
        for spec, value in zip(SPECS, row.values, strict=True):
            shown = json_rows[row.start][spec.code]
            assert shown == (value if value is None or isinstance(value, int) else float(value))
            if spec.name == "PTS":
                assert value == row.points
                continue
            assert next(listed).value == value, (spec.code, row.start)
            if not f.active[p]:
                assert value is None
            elif spec.name != "DE":
                assert value == definition(f, spec, p), (spec.code, row.start)


def replay_live(t: Tournament, withdrawn: list[int], data: st.DataObject) -> None:
    """Results entered one by one: the live table equals a full recount after each."""
    live = LiveStandings(t, CODES, withdrawn=withdrawn)
    games = [(r.number, g.white, g.black) for r in t.rounds for g in r.games]
    if not games:
        return
    withdrawn = list(withdrawn)
    for _ in range(data.draw(st.integers(1, 5), label="results")):
        if data.draw(st.integers(0, 5), label="withdraw?") == 0:
            start = data.draw(st.integers(1, len(t.players)), label="withdraws")
            live.withdraw(start)
            withdrawn.append(start)
        key = data.draw(st.sampled_from(games))
        live.record(*key, result(data.draw(st.sampled_from(RESULTS))))
        full = compute_standings(live.tournament, CODES, withdrawn=withdrawn)
        incremental = live.standings()
        assert [(r.start, r.rank, r.points, r.values) for r in incremental.rows] == [
            (r.start, r.rank, r.points, r.values) for r in full.rows
        ]
        assert json.loads(json_text(live)) == json.loads(json.dumps(full.to_json()))
        for p in range(full.field.n):
            if full.field.active[p]:
                for spec, value in zip(SPECS, full.row(p + 1).values, strict=True):
                    if spec.name != "DE":
                        assert value == definition(full.field, spec, p), (spec.code, p + 1)


@PROPERTY
@given(events, st.sampled_from(list(RulesEdition)))
def test_every_fast_path_equals_the_definition(
    event: tuple[Tournament, list[int]], rules: RulesEdition
) -> None:
    t, _ = event
    f = compile_field(t, edition=rules)
    check_field(f)
    check_direct_encounter(f)


@PROPERTY
@given(events, st.booleans())
def test_table_json_crosstable_and_explain_show_one_number(
    event: tuple[Tournament, list[int]], final: bool
) -> None:
    t, withdrawn = event
    check_standings(t, withdrawn, final)


@PROPERTY
@given(events, st.data())
def test_the_live_table_equals_a_full_recount_after_every_result(
    event: tuple[Tournament, list[int]], data: st.DataObject
) -> None:
    t, withdrawn = event
    replay_live(t, withdrawn, data)
