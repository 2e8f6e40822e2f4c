"""The live table remembers each tied group's DE places: never an answer the games changed.

Long runs of results, corrections and clears (the remembered places are used the
most then), with DE first, in the middle and last in the list, in round robins
(double ones too, where two players meet twice) and in Swiss-like events.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crosstable.core.model import GameResult, Tournament
from crosstable.core.schedule.berger import berger_table
from crosstable.core.standings import compute_standings
from crosstable.core.standings.live import LiveStandings
from tests.test_standings_properties import swiss_events
from tests.test_tiebreak_helpers import tour

LISTS = ("DE,SB,WIN", "SB,DE,WIN", "WIN,BH,DE", "DE/P,KS", "PS,DE")
RESULTS = ["1-0", "0-1", "==", "+-", "-+", "--", ".."]
EARLY = ["..", "..", "1-0", "=="]  # mostly no result yet: the run fills them in
LONG = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def round_robins(draw: st.DrawFn) -> Tournament:
    """A single or double round robin on the Berger table, some results already in."""
    size = draw(st.integers(3, 9))
    cycles = draw(st.sampled_from([1, 1, 2]))
    first = berger_table(size).rounds
    rounds = []
    for cycle in range(cycles):
        for rnd in first:
            items = []
            for white, black in rnd.boards:
                pair = (white, black) if cycle == 0 else (black, white)
                items.append(f"{pair[0]}-{pair[1]} {draw(st.sampled_from(EARLY))}")
            if rnd.bye is not None:
                items.append(f"{rnd.bye} free")
            rounds.append(items)
    return tour(size, rounds)


def _run(t: Tournament, codes: str, data: st.DataObject) -> None:
    live = LiveStandings(t, codes)
    games = [(r.number, g.white, g.black) for r in t.rounds for g in r.games]
    if not games:
        return
    for _ in range(data.draw(st.integers(5, 40))):
        key = data.draw(st.sampled_from(games))
        text = data.draw(st.sampled_from(RESULTS))
        value = None if text == ".." else GameResult.parse("=" if text == "==" else text)
        live.record(*key, value)
        incremental = live.standings()
        full = compute_standings(live.tournament, codes)
        assert incremental.to_json() == full.to_json()


@LONG
@given(round_robins(), st.sampled_from(LISTS), st.data())
def test_remembered_de_places_equal_a_full_recount_round_robin(
    t: Tournament, codes: str, data: st.DataObject
) -> None:
    _run(t, codes, data)


@LONG
@given(swiss_events(), st.sampled_from(LISTS), st.data())
def test_remembered_de_places_equal_a_full_recount_swiss(
    t: Tournament, codes: str, data: st.DataObject
) -> None:
    _run(t, codes, data)
