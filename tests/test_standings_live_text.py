"""The live table's JSON text (what the service stores and sends after every result) is
the same document as a full recount's ``to_json()``: after any run of results,
corrections, clears, withdrawals and forfeits, with any tie-break list."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crosstable.core.model import GameResult, Tournament
from crosstable.core.standings import compute_standings
from crosstable.core.standings.live import LiveStandings
from crosstable.core.standings.ranking import _sort_keys
from crosstable.core.tiebreaks.base import Column
from crosstable.core.tiebreaks.spec import parse_code
from crosstable.service.standings_text import StandingsText, json_text
from tests.test_standings_live_groups import RESULTS, round_robins
from tests.test_standings_properties import swiss_events
from tests.test_tiebreak_helpers import tour

LISTS = ("DE,SB,WIN", "SB,DE,WIN", "PTS,BH,DE", "DE/P,KS", "WIN,BPG,SB", "BH/C1,PS,DE")
RUNS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _run(t: Tournament, codes: str, data: st.DataObject) -> None:
    games = [(r.number, g.white, g.black) for r in t.rounds for g in r.games]
    starts = [p.start for p in t.players]
    withdrawn = data.draw(st.lists(st.sampled_from(starts), max_size=1)) if starts else []
    live = LiveStandings(t, codes, withdrawn=withdrawn)
    writer = StandingsText(live)  # kept, as a live table keeps it, from result to result
    if not games:
        return
    for _ in range(data.draw(st.integers(5, 30))):
        if starts and data.draw(st.integers(0, 20)) == 0:
            live.withdraw(data.draw(st.sampled_from(starts)))
        key = data.draw(st.sampled_from(games))
        text = data.draw(st.sampled_from(RESULTS))
        value = None if text == ".." else GameResult.parse("=" if text == "==" else text)
        live.record(*key, value)
        full = compute_standings(live.tournament, codes, withdrawn=sorted(live._withdrawn))
        assert json.loads(writer.text()) == full.to_json()
        assert json.loads(json_text(live)) == live.standings().to_json()


@RUNS
@given(round_robins(), st.sampled_from(LISTS), st.data())
def test_the_text_of_a_round_robin_is_the_recount(
    t: Tournament, codes: str, data: st.DataObject
) -> None:
    _run(t, codes, data)


@RUNS
@given(swiss_events(), st.sampled_from(LISTS), st.data())
def test_the_text_of_a_swiss_event_is_the_recount(
    t: Tournament, codes: str, data: st.DataObject
) -> None:
    _run(t, codes, data)


def test_names_are_written_as_json_strings() -> None:
    t = tour(3, [["1-2 ==", "3 free"], ["3-1 1-0", "2 free"], ["2-3 +-", "1 free"]])
    names = ['Ann "Q"', "Борис", "C\\D"]
    t = replace(
        t,
        players=tuple(replace(p, name=n) for p, n in zip(t.players, names, strict=True)),
    )
    live = LiveStandings(t, "SB,DE")
    body = json.loads(json_text(live))
    assert body == compute_standings(t, "SB,DE").to_json()
    assert sorted(row["name"] for row in body["rows"]) == sorted(names)


@given(
    st.lists(
        st.one_of(
            st.none(),
            st.integers(-50, 50),
            st.fractions(min_value=-20, max_value=20, max_denominator=8),
        ),
        min_size=1,
        max_size=12,
    ),
    st.booleans(),
    st.data(),
)
def test_ranking_sort_keys_are_the_columns_keys(
    values: list[int | Fraction | None], higher: bool, data: st.DataObject
) -> None:
    """ranking builds its sort keys a column at a time: exactly ``Column.key``."""
    column = Column(parse_code("SB"), list(values), 2, higher)
    chosen = sorted(data.draw(st.sets(st.integers(0, len(values) - 1))))
    assert _sort_keys(column, chosen) == [column.key(p) for p in chosen]
