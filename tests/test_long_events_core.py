"""Events longer than 30 days, in the core: ratings per round and the tie-breaks that
read them (FIDE checklist Q210–216)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.model import Player, Tournament
from crosstable.core.tiebreaks import REGISTRY, compile_field, parse_code
from tests.test_tiebreak_definitions import PROPERTY, SPECS, check_field, events
from tests.test_tiebreak_helpers import tour

RATED = ("ARO", "ARO_RATED", "TPR", "PTP", "APRO", "APPO", "RTNG")


def club_event(*, long_event: bool = True, per_round: bool = True) -> Tournament:
    """Four players, three rounds; player 2 is rated 1900 from round 3, player 4 1500
    from round 2."""
    t = tour(
        4,
        [["1-2 1-0", "3-4 ="], ["1-3 1-0", "4-2 0-1"], ["4-1 =", "2-3 1-0"]],
        ratings=[2000, 1800, 1600, 1400],
    )
    players = list(t.players)
    players[1] = replace(players[1], round_ratings=((3, 1900),))
    players[3] = replace(players[3], round_ratings=((2, 1500),))
    settings = replace(t.settings, long_event=long_event, ratings_per_round=per_round)
    return replace(t, players=tuple(players), settings=settings)


def values(t: Tournament, code: str) -> list[object]:
    f = compile_field(t)
    spec = parse_code(code)
    column = REGISTRY[spec.name].compute(f, spec)
    return [column.natural(p) for p in range(f.n)]


def test_r_fide_q212_a_rating_covers_the_rounds_from_its_first_on() -> None:
    p = Player(1, "A", 2000, round_ratings=((3, 2050), (5, 2100)))
    assert [p.rating_in(r) for r in range(1, 7)] == [2000, 2000, 2050, 2050, 2100, 2100]


@pytest.mark.parametrize("bad", [((1, 2000),), ((3, 10), (3, 20)), ((4, 1), (3, 2)), ((2, -5),)])
def test_r_fide_q213_ratings_by_round_out_of_order_are_refused(
    bad: tuple[tuple[int, int], ...],
) -> None:
    with pytest.raises(RuleError):
        Player(1, "A", 2000, round_ratings=bad)


def test_r_fide_q215_aro_per_round_by_hand() -> None:
    # player 1 met 2 (1800 in round 1), 3 (1600), 4 (1500 from round 2): 4900/3 = 1633.3
    # player 2 met 1 (2000), 4 (1500 in round 2), 3 (1600): 5100/3 = 1700
    # player 3 met 4 (1400 in round 1), 1 (2000), 2 (1900 in round 3): 5300/3 = 1766.7
    # player 4 met 3, 2 (still 1800 in round 2), 1: 5400/3 = 1800
    assert values(club_event(), "ARO") == [1633, 1700, 1767, 1800]


def test_r_fide_q216_the_first_rating_is_the_default() -> None:
    # first ratings: (1800+1600+1400)/3 = 1600, (2000+1400+1600)/3 = 1666.7,
    # (1400+2000+1800)/3 = 1733.3, 1800
    first = [1600, 1667, 1733, 1800]
    assert values(club_event(per_round=False), "ARO") == first
    # without the flag, nothing changes even when ratings per round are asked for
    assert values(club_event(long_event=False), "ARO") == first


def test_r_fide_q215_tpr_per_round_by_hand() -> None:
    # player 1: ARO 1633, 2.5 of 3 = 0.83, dp(0.83) = 273 → 1906;
    # player 4: ARO 1800, 1 of 3 = 0.33, dp(0.33) = −125 → 1675
    tpr = values(club_event(), "TPR")
    assert (tpr[0], tpr[3]) == (1906, 1675)


def test_r_fide_q215_the_explanation_shows_the_round_s_rating() -> None:
    f = compile_field(club_event())
    shown = REGISTRY["ARO"].explain(f, parse_code("ARO"), 0).text()
    assert "rated 1500" in shown and "rated 1400" not in shown
    assert "the one of the round the game was played" in shown
    first = compile_field(club_event(per_round=False))
    plain = REGISTRY["ARO"].explain(first, parse_code("ARO"), 0).text()
    assert "rated 1400" in plain and "round the game was played" not in plain


def test_r_fide_q215_rtng_keeps_the_first_rating() -> None:
    assert values(club_event(), "RTNG") == [2000, 1800, 1600, 1400]


@PROPERTY
@given(events)
def test_r_fide_q215_one_rating_per_player_per_round_equals_today(
    event: tuple[Tournament, list[int]],
) -> None:
    t, _ = event
    flagged = replace(t, settings=replace(t.settings, long_event=True, ratings_per_round=True))
    assert compile_field(flagged).round_rating is not None
    for code in RATED:
        for spec in [s for s in SPECS if s.name == code]:
            assert values(flagged, spec.code) == values(t, spec.code), spec.code


@PROPERTY
@given(events, st.data())
def test_r_fide_q215_per_round_fast_paths_equal_the_definition(
    event: tuple[Tournament, list[int]], data: st.DataObject
) -> None:
    t, _ = event
    players = []
    for p in t.players:
        firsts = data.draw(st.lists(st.integers(2, 8), unique=True, max_size=3))
        later = tuple(
            (r, data.draw(st.integers(1000, 2800), label="rating")) for r in sorted(firsts)
        )
        players.append(replace(p, round_ratings=later))
    flagged = replace(
        t,
        players=tuple(players),
        settings=replace(t.settings, long_event=True, ratings_per_round=True),
    )
    check_field(compile_field(flagged))
