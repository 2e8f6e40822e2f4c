"""Invariants of points and tie-breaks, and the live table against a full recount."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crosstable.core.model import GameResult, RulesEdition, System, Tournament
from crosstable.core.standings import compute_standings
from crosstable.core.standings.live import LiveStandings
from crosstable.core.tiebreaks import compile_field
from tests.test_tiebreak_helpers import round_robin, tour

RESULTS = ["1-0", "0-1", "==", "+-", "-+", "--", ".."]
CODES = (
    "PTS,DE,WIN,WON,BPG,BWG,REP,STD,PS,PS/C1,SB,SB/C1,DSB,KS,KS/L-1,"
    "BH,BH/C1,BH/M1,FB,AOB,ARO,TPR,PTP,APRO,ARO_RATED,TPN,RTNG"
)
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def round_robins(draw: st.DrawFn) -> Tournament:
    size = draw(st.integers(3, 8))
    games = size * (size - 1) // 2
    results = draw(st.lists(st.sampled_from(RESULTS), min_size=games, max_size=games))
    ratings = draw(st.lists(st.integers(1000, 2800), min_size=size, max_size=size))
    edition = draw(st.sampled_from(list(RulesEdition)))
    return round_robin(size, results, ratings=ratings, rules=edition)


@st.composite
def swiss_events(draw: st.DrawFn) -> Tournament:
    """A Swiss-like event: random pairings each round, byes of every kind."""
    size = draw(st.integers(3, 9))
    rounds = draw(st.integers(1, 5))
    plan = []
    for _ in range(rounds):
        order = draw(st.permutations(list(range(1, size + 1))))
        items = []
        i = 0
        while i < len(order):
            if i + 1 < len(order) and draw(st.integers(0, 5)) > 0:
                items.append(f"{order[i]}-{order[i + 1]} {draw(st.sampled_from(RESULTS))}")
                i += 2
            else:
                items.append(f"{order[i]} {draw(st.sampled_from(['U', 'F', 'H', 'Z']))}")
                i += 1
        plan.append(items)
    edition = draw(st.sampled_from(list(RulesEdition)))
    return tour(size, plan, system=System.SWISS_DUTCH, rules=edition)


def decided_points(t: Tournament) -> Fraction:
    """Points handed out: 1 per decided game (0 for a double forfeit), plus byes."""
    ps = t.settings.point_system
    total = Fraction(0)
    for rnd in t.rounds:
        for game in rnd.games:
            if game.result is not None:
                total += game.result.white.points(ps) + game.result.black.points(ps)
        for bye in rnd.byes:
            total += bye.kind.outcome.points(ps) if bye.kind.value != "free" else 0
    return total


@FAST
@given(round_robins())
def test_points_sum_to_the_games_played(t: Tournament) -> None:
    f = compile_field(t)
    double = sum(
        1
        for rnd in t.rounds
        for g in rnd.games
        if g.result is not None and g.result.label() == "--"
    )
    decided = sum(1 for rnd in t.rounds for g in rnd.games if g.result is not None)
    assert sum(f.points(s) for s in f.score) == decided - double
    assert sum(f.points(s) for s in f.score) == decided_points(t)


@FAST
@given(round_robins())
def test_sonneborn_berger_is_at_most_points_times_the_maximum(t: Tournament) -> None:
    table = compute_standings(t, "SB")
    maximum = len(t.players) - 1  # games per player in a single round robin
    for row in table.rows:
        sb = row.values[0]
        assert sb is not None and 0 <= sb <= row.points * maximum


@FAST
@given(swiss_events())
def test_swiss_points_and_sonneborn_berger(t: Tournament) -> None:
    f = compile_field(t)
    assert sum(f.points(s) for s in f.score) == decided_points(t)
    table = compute_standings(t, "SB,BH")
    maximum = len(t.rounds)
    for row in table.rows:
        sb, bh = row.values
        assert sb is not None and bh is not None
        assert 0 <= sb <= row.points * maximum
        assert 0 <= bh <= maximum * maximum


@FAST
@given(round_robins(), st.data())
def test_a_new_result_changes_only_its_two_players_points(
    t: Tournament, data: st.DataObject
) -> None:
    live = LiveStandings(t, "SB")
    before = list(live.field.score)
    rnd = data.draw(st.sampled_from([r for r in t.rounds if r.games]))
    game = data.draw(st.sampled_from(rnd.games))
    result = data.draw(st.sampled_from([GameResult.parse(r) for r in ("1-0", "0-1", "+-", "--")]))
    live.record(rnd.number, game.white, game.black, result)
    after = live.field.score
    for p in range(len(before)):
        if p + 1 not in (game.white, game.black):
            assert after[p] == before[p]


def _replay(t: Tournament, data: st.DataObject) -> None:
    live = LiveStandings(t, CODES)
    games = [(r.number, g.white, g.black) for r in t.rounds for g in r.games]
    if not games:
        return
    for _ in range(data.draw(st.integers(1, 6))):
        key = data.draw(st.sampled_from(games))
        text = data.draw(st.sampled_from(RESULTS))
        live.record(*key, None if text == ".." else GameResult.parse(text if text != "==" else "="))
        incremental = live.standings()
        full = compute_standings(live.tournament, CODES)
        assert [(r.start, r.rank, r.points, r.values) for r in incremental.rows] == [
            (r.start, r.rank, r.points, r.values) for r in full.rows
        ]


@FAST
@given(round_robins(), st.data())
def test_live_updates_equal_a_full_recount_round_robin(t: Tournament, data: st.DataObject) -> None:
    _replay(t, data)


@FAST
@given(swiss_events(), st.data())
def test_live_updates_equal_a_full_recount_swiss(t: Tournament, data: st.DataObject) -> None:
    _replay(t, data)
