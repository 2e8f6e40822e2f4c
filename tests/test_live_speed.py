"""The shortcuts the live table and the fast path take to save time give exactly what
the plain ways give: DE's mini-table without per-opponent lists, number texts shared by
every live table, a result's row change written as text directly."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crosstable.core.model import GameResult, Outcome, Tournament
from crosstable.core.scoring import PointSystem
from crosstable.core.standings import compute_standings
from crosstable.core.standings.live import LiveStandings
from crosstable.core.tiebreaks.direct import encounters, mini_table
from crosstable.core.tiebreaks.field import compile_field
from crosstable.core.tiebreaks.spec import parse_code
from crosstable.service.recording import _CHANGE_TEXT, _plain
from crosstable.service.standings_text import json_text
from tests.test_standings_live_groups import RESULTS, round_robins
from tests.test_standings_properties import swiss_events

RUNS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _reference(t: Tournament, code: str, group: list[int]) -> tuple[dict[int, object], dict]:
    """The mini-table as the definition reads: each member's counted games against each
    other member (their average when they met more than once)."""
    f = compile_field(t)
    spec = parse_code(code)
    totals: dict[int, object] = {}
    met: dict[int, int] = {}
    for p in group:
        games = encounters(f, spec, p, set(group))
        total = sum((Fraction(sum(v), len(v)) for v in games.values()), Fraction(0))
        totals[p] = total
        met[p] = len(games)
    return totals, met


def _check(t: Tournament, data: st.DataObject) -> None:
    n = len(t.players)
    if n < 2:
        return
    group = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=2, max_size=n)))
    code = data.draw(st.sampled_from(["DE", "DE/P"]))
    totals, met = mini_table(compile_field(t), parse_code(code), group)
    want_totals, want_met = _reference(t, code, group)
    assert met == want_met
    assert {p: Fraction(v) for p, v in totals.items()} == want_totals


@RUNS
@given(round_robins(), st.data())
def test_the_mini_table_of_a_round_robin_is_the_definitions(
    t: Tournament, data: st.DataObject
) -> None:
    _check(t, data)


@RUNS
@given(swiss_events(), st.data())
def test_the_mini_table_of_a_swiss_event_is_the_definitions(
    t: Tournament, data: st.DataObject
) -> None:
    _check(t, data)


POINTS = (
    PointSystem(),
    PointSystem(win=Fraction(3), draw=Fraction(1), loss=Fraction(0)),
    PointSystem(win=Fraction(2), draw=Fraction(1), loss=Fraction(0)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(round_robins(), min_size=2, max_size=3), st.data())
def test_tables_of_several_point_systems_side_by_side_each_read_as_their_recount(
    events: list[Tournament], data: st.DataObject
) -> None:
    """The number texts are shared by every live table: tables with other point systems
    (other scales, other values) interleaved still each write their own recount."""
    tables = []
    for index, t in enumerate(events):
        points = POINTS[index % len(POINTS)]
        t = replace(t, settings=replace(t.settings, point_system=points))
        codes = data.draw(st.sampled_from(["DE,SB,WIN", "SB,DE", "PTS,BH,DE", "BH/C1,SB"]))
        tables.append((LiveStandings(t, codes), codes))
    for _ in range(data.draw(st.integers(5, 25))):
        live, codes = data.draw(st.sampled_from(tables))
        games = [(r.number, g.white, g.black) for r in live.tournament.rounds for g in r.games]
        if not games:
            continue
        key = data.draw(st.sampled_from(games))
        text = data.draw(st.sampled_from(RESULTS))
        value = None if text == ".." else GameResult.parse("=" if text == "==" else text)
        live.record(*key, value)
        full = compute_standings(live.tournament, codes, withdrawn=sorted(live._withdrawn))
        assert json.loads(json_text(live)) == full.to_json()


CODES = sorted({w.value + b.value for w in Outcome for b in Outcome})


@given(st.integers(1, 10**6), st.integers(1, 10**6), st.sampled_from(CODES))
def test_a_results_row_change_is_written_as_json_dumps_writes_it(
    round_number: int, board: int, code: str
) -> None:
    change = {
        "table": "games",
        "key": {"round": round_number, "board": board},
        "before": {"result": None},
        "after": {"result": code},
    }
    assert _plain(code)
    assert _CHANGE_TEXT % (round_number, board, code) == json.dumps([change])


def test_a_code_with_characters_to_escape_is_not_written_directly() -> None:
    assert not _plain('1"')
    assert not _plain("1\\")
    assert not _plain("½")
