"""Unusual results (an arbiter's ½-0, 0-½, 0-0) and games played but not rated (TRF's
W D L) in the core: their spellings, each player's points on any scoring, the
tie-breaks (a game played, fast path equal to C.07's definition), the Dutch engine's
colour history, the rating report, and the refusal of contradictions (FIDE checklist
Q180–186)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.model import Colour, GameResult, Outcome, RulesEdition, System, Tournament
from crosstable.core.pairing.dutch.from_tournament import request_for
from crosstable.core.ratings.report import rate_tournament
from crosstable.core.result_codes import check_codes
from crosstable.core.scoring import PointSystem
from crosstable.core.standings import compute_standings
from crosstable.core.standings.live import LiveStandings
from crosstable.core.tiebreaks import compile_field
from crosstable.core.tiebreaks.field import GAME
from tests.test_tiebreak_definitions import check_field, check_standings
from tests.test_tiebreak_helpers import tour

UNUSUAL = ["½-0", "0-½", "0-0", "1-0u", "½-½u", "0-1u", "½-0u", "0-½u", "0-0u"]
RESULTS = ["1-0", "0-1", "==", "+-", "--", "..", *UNUSUAL]
POINTS = [
    PointSystem(),
    PointSystem(win=Fraction(3), draw=Fraction(1), loss=Fraction(0)),
    PointSystem(win=Fraction(2), draw=Fraction(1), loss=Fraction(0)),
]


@pytest.mark.parametrize(
    ("text", "codes", "label"),
    [
        ("½-0", "=0", "½-0"),
        ("0.5-0", "=0", "½-0"),
        ("1/2-0", "=0", "½-0"),
        ("0-½", "0=", "0-½"),
        ("0-0.5", "0=", "0-½"),
        ("0-0", "00", "0-0"),
        ("1-0u", "WL", "WL"),
        ("½-½ u", "DD", "DD"),
        ("0-1 unrated", "LW", "LW"),
        ("0.5-0u", "DL", "DL"),
        ("0-0u", "LL", "LL"),
        ("wl", "WL", "WL"),
        ("1-0", "10", "1-0"),
        ("=", "==", "½-½"),
        ("--", "--", "--"),
    ],
)
def test_r_b_1_q180_every_spelling_of_an_unusual_or_unrated_result(
    text: str, codes: str, label: str
) -> None:
    result = GameResult.parse(text)
    assert result.white.value + result.black.value == codes
    assert result.label() == label
    assert GameResult.parse(result.label()) == result  # what is shown reads back


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("1-1", "result 1-1: the two players together get more than one game gives"),
        ("1-½", "result 1-½: the two players together get more than one game gives"),
        ("½-1", "more than one game gives"),
        ("+-u", "only a game played at the board can be played but unrated"),
        ("--u", "only a game played at the board can be played but unrated"),
        ("2-0", "not understood"),
        ("1-", "not understood"),
        ("u", "not understood"),
    ],
)
def test_r_b_1_q186_a_self_contradictory_result_is_refused(text: str, said: str) -> None:
    with pytest.raises(RuleError, match=said.replace("(", r"\(").replace("+", r"\+")):
        GameResult.parse(text)


@pytest.mark.parametrize(
    ("white", "black", "said"),
    [
        (Outcome.WIN, Outcome.WIN, "more than one game gives"),
        (Outcome.SHORT_WIN, Outcome.SHORT_DRAW, "more than one game gives"),
        (Outcome.WIN, Outcome.SHORT_LOSS, "one side is rated and the other is not"),
        (Outcome.DRAW, Outcome.FORFEIT_LOSS, "a forfeit is"),
        (Outcome.WIN, Outcome.PENDING, "one side has a result and the other has none"),
        (Outcome.FULL_BYE, Outcome.LOSS, "a bye"),
        (Outcome.SHORT_WIN, Outcome.HALF_BYE, "a bye"),
    ],
)
def test_r_b_1_q186_contradictory_values_cannot_be_made(
    white: Outcome, black: Outcome, said: str
) -> None:
    with pytest.raises(RuleError, match=said):
        GameResult(white, black)


def test_every_pair_of_codes_is_accepted_exactly_when_it_gives_at_most_one_game() -> None:
    games = [o for o in Outcome if not o.is_bye and o.is_decided]
    for white in games:
        for black in games:
            codes = white.value + black.value
            forfeit = white.is_forfeit or black.is_forfeit
            same_kind = white.is_rated == black.is_rated
            total = white.points(PointSystem()) + black.points(PointSystem())
            fits = codes in ("+-", "-+", "--") if forfeit else same_kind and total <= 1
            try:
                check_codes(white.value, black.value)
                accepted = True
            except RuleError:
                accepted = False
            assert accepted == fits, codes


def _round_robin(draw: st.DrawFn) -> Tournament:
    size = draw(st.integers(3, 6))
    players = size + size % 2
    order = list(range(1, players + 1))
    ring = order[1:]
    rounds = []
    for r in range(players - 1):
        pairs = [(order[0], ring[0])] + [(ring[i], ring[-i]) for i in range(1, players // 2)]
        items = []
        for w, b in pairs:
            w, b = (b, w) if r % 2 else (w, b)
            if max(w, b) > size:
                items.append(f"{min(w, b)} free")
            else:
                items.append(f"{w}-{b} {draw(st.sampled_from(RESULTS))}")
        rounds.append(items)
        ring = ring[-1:] + ring[:-1]
    ratings = draw(st.lists(st.integers(1400, 2600), min_size=size, max_size=size))
    return tour(
        size,
        rounds,
        ratings=ratings,
        points=draw(st.sampled_from(POINTS)),
        rules=draw(st.sampled_from(list(RulesEdition))),
    )


round_robins = st.composite(_round_robin)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(round_robins())
def test_r_b_1_q180_points_and_tiebreaks_stay_consistent(t: Tournament) -> None:
    """Each player's points are their side's value on the tournament's scoring (an
    unusual result's half is the scoring's draw); no game gives more than a win; every
    tie-break's fast path equals C.07's definition, and the table, its JSON, the
    crosstable and the explanations agree."""
    system = t.settings.point_system
    expected = {p.start: Fraction(0) for p in t.players}
    for rnd in t.rounds:
        for game in rnd.games:
            if game.result is None:
                continue
            white = game.result.white.points(system)
            black = game.result.black.points(system)
            assert white + black <= system.win
            if game.result.white in (Outcome.DRAW, Outcome.SHORT_DRAW):
                assert white == system.draw
            expected[game.white] += white
            expected[game.black] += black
    table = compute_standings(t, ("PTS",))
    for row in table.rows:
        free = sum(
            (e.outcome.points(system) for e in t.entries(row.start) if e.opponent is None),
            Fraction(0),
        )
        assert row.points == expected[row.start] + free == t.score(row.start)
    check_field(compile_field(t))
    check_standings(t, [], True)


def test_r_b_1_q180_an_unusual_result_counts_as_a_game_played_in_the_tiebreaks() -> None:
    t = tour(4, [["1-2 ½-0", "3-4 0-0"], ["1-3 0-1u", "2-4 1-0"], ["1-4 1-0", "2-3 ½-½"]])
    table = compute_standings(t, ("PTS", "SB", "BPG", "WIN"))
    rows = {row.start: row for row in table.rows}
    assert {s: r.points for s, r in rows.items()} == {
        1: Fraction(3, 2),
        2: Fraction(3, 2),
        3: Fraction(3, 2),
        4: Fraction(0),
    }
    # every one of them is a game played (not an unplayed round) for C.07
    field = compile_field(t)
    assert all(field.kind[p][r] == GAME for p in range(4) for r in range(3))
    bpg = compute_standings(t, ("BPG",)).rows
    # games played with Black: the 0-0, the ½-0 and the unrated game count as the others
    assert {row.start: row.values[0] for row in bpg} == {1: 0, 2: 1, 3: 2, 4: 3}
    # custom scoring: the half of ½-0 is the scoring's draw
    three = PointSystem(win=Fraction(3), draw=Fraction(1), loss=Fraction(0))
    t3 = tour(4, [["1-2 ½-0", "3-4 0-½"]], points=three)
    assert [t3.score(s) for s in (1, 2, 3, 4)] == [1, 0, 0, 1]


def test_r_b_1_q180_the_dutch_engine_sees_a_game_played_with_its_colours() -> None:
    t = tour(4, [["1-2 ½-0", "3-4 0-0u"]], system=System.SWISS_DUTCH)
    request = request_for(t, 2, total_rounds=3)
    assert all(r.played for c in request.competitors for r in c.history)
    colours = {p.start: [r.colour for r in p.history] for p in request.competitors}
    assert colours == {
        1: [Colour.WHITE],
        2: [Colour.BLACK],
        3: [Colour.WHITE],
        4: [Colour.BLACK],
    }
    opponents = {p.start: [r.opponent for r in p.history] for p in request.competitors}
    assert opponents == {1: [2], 2: [1], 3: [4], 4: [3]}  # played: they may not meet again


def test_r_b_1_q185_a_game_played_but_not_rated_is_not_in_the_rating_report() -> None:
    t = tour(
        4,
        [["1-2 1-0u", "3-4 ½-0"], ["1-3 1-0", "2-4 ½-½u"]],
        ratings=[2000, 2000, 2000, 2000],
    )
    report = {row.start: row for row in rate_tournament(t)}
    assert report[1].games_rated == 1  # the unrated win is not rated
    assert report[2].games_rated == 0
    assert [g.round for g in report[1].games] == [2]  # the report lists rated games only
    # the arbiter's ½-0 is rated from each side as written: ½ for White, 0 for Black
    assert report[3].games_rated == 2 and report[3].score == Fraction(1, 2)
    assert report[4].games_rated == 1 and report[4].score == 0


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(round_robins(), st.data())
def test_r_b_1_q180_the_live_table_takes_them_as_a_full_recount(
    t: Tournament, data: st.DataObject
) -> None:
    codes = ("PTS", "BH", "SB", "WIN", "BPG", "DE")
    live = LiveStandings(t, codes)
    games = [(r.number, g.white, g.black) for r in t.rounds for g in r.games]
    for _ in range(data.draw(st.integers(1, 4), label="results")):
        key = data.draw(st.sampled_from(games))
        live.record(*key, GameResult.parse(data.draw(st.sampled_from(UNUSUAL))))
        full = compute_standings(live.tournament, codes)
        assert [(r.start, r.rank, r.points, r.values) for r in live.standings().rows] == [
            (r.start, r.rank, r.points, r.values) for r in full.rows
        ]
