"""Knockout brackets and the round-by-round state machine (R-KO-1, R-KO-2, R-KO-4)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.model import GameResult, Player
from crosstable.core.pairing.knockout import (
    Decider,
    Knockout,
    MatchFormat,
    MatchRules,
    TieRule,
    random_bracket,
    seeded_bracket,
)
from crosstable.core.pairing.knockout_bracket import bracket_size, seeding_positions
from tests.test_knockout_helpers import play_out, play_round

fields = st.integers(min_value=2, max_value=256)
seeds = st.integers(min_value=0, max_value=2**32)
formats = st.sampled_from([MatchFormat(1), MatchFormat(2), MatchFormat(2, at_once=True)])
tie_rules = st.sampled_from(
    [TieRule(), TieRule(decider=Decider.LOTS), TieRule.playoff(), TieRule.parse("sudden-death")]
)


def test_seeding_positions_standard() -> None:
    assert seeding_positions(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)
    with pytest.raises(RuleError, match="power of two"):
        seeding_positions(6)


def test_seeded_eight() -> None:
    b = seeded_bracket(8)
    pairs = [s.players for s in b.first_round_matches]
    assert pairs == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert b.byes == ()
    assert (b.rounds, b.size, len(b.slots)) == (3, 8, 7)
    assert [s.feeders for s in b.round_slots(2)] == [(1, 2), (3, 4)]
    assert b.slot(7).feeders == (5, 6) and b.slot(7).next is None
    assert [s.next for s in b.round_slots(1)] == [5, 5, 6, 6]


def test_seeded_by_rating_not_by_number() -> None:
    players = [Player(1, "Ann", 1500), Player(2, "Bob", 2100), Player(3, "Cy", 1800)]
    b = seeded_bracket(players)
    assert b.seeding == (2, 3, 1)
    assert b.byes == (2,)
    assert [s.players for s in b.first_round_matches] == [(3, 1)]


def test_random_order_pairs_first_with_second() -> None:
    # R-KO-1 (seed 002): everybody in a random order; the 1st meets the 2nd, the 3rd the 4th…
    b = random_bracket(8, seed=20260725)
    drawn = b.seeding
    assert sorted(drawn) == list(range(1, 9))
    assert [s.players for s in b.first_round_matches] == [
        (drawn[0], drawn[1]),
        (drawn[2], drawn[3]),
        (drawn[4], drawn[5]),
        (drawn[6], drawn[7]),
    ]
    assert b.draw is not None and b.seed == 20260725
    assert b.draw.order == tuple(str(p) for p in drawn)


def test_random_order_byes_go_to_first_drawn_and_are_spread() -> None:
    b = random_bracket(6, seed=11)
    drawn = b.seeding
    assert set(b.byes) == set(drawn[:2])
    # the two byes sit in opposite halves: each meets a first-round winner in round 2
    assert b.meeting_round(drawn[0], drawn[1]) == 3
    pairs = [s.players for s in b.first_round_matches]
    assert pairs == [(drawn[2], drawn[3]), (drawn[4], drawn[5])]


def test_random_order_needs_a_seed() -> None:
    with pytest.raises(RuleError, match="seed"):
        random_bracket(4, seed=None)  # type: ignore[arg-type]


@pytest.mark.parametrize("count", [0, 1])
def test_too_few_players(count: int) -> None:
    with pytest.raises(RuleError, match="at least 2 players"):
        seeded_bracket(count)


def test_seed_list_must_name_everybody() -> None:
    with pytest.raises(RuleError, match="every player exactly once"):
        seeded_bracket(4, seeding=[1, 2, 3, 3])


@given(fields, seeds, st.booleans())
def test_every_player_once_in_round_one(n: int, seed: int, seeded: bool) -> None:
    b = seeded_bracket(n) if seeded else random_bracket(n, seed)
    in_matches = [p for s in b.first_round_matches for p in s.players or ()]
    everyone = in_matches + list(b.byes)
    assert sorted(everyone) == list(range(1, n + 1))
    assert len(b.byes) == bracket_size(n) - n
    assert len(b.first_round_matches) == n - len(b.byes) - len(in_matches) // 2
    assert b.rounds == (n - 1).bit_length()


@given(fields)
def test_seeded_top_seeds_meet_late(n: int) -> None:
    b = seeded_bracket(n)
    rounds = b.rounds
    assert sorted(b.byes) == list(range(1, b.size - n + 1))  # the top seeds get the byes
    line = {p: k for k, p in enumerate(b.lines) if p is not None}
    top = min(n, 64)
    for j in range(2, top + 1):
        for i in range(1, j):
            # seeds i < j ≤ 2ᵐ are in different parts of size/2ᵐ lines: they can only
            # meet from round rounds − m + 1 on (seeds 1 and 2 in the final, 1…4 from
            # the semi-finals, 1…8 from the quarter-finals)
            m = (j - 1).bit_length()
            assert (line[i] ^ line[j]).bit_length() >= rounds - m + 1
    assert b.meeting_round(1, 2) == rounds
    if b.size >= 4:
        quarters = {b.line_of(seed) // (b.size // 4) for seed in range(1, min(n, 4) + 1)}
        assert len(quarters) == min(n, 4)


@given(fields, seeds)
def test_random_draw_is_reproducible(n: int, seed: int) -> None:
    assert random_bracket(n, seed) == random_bracket(n, seed)


def test_random_draw_depends_on_the_seed() -> None:
    assert len({random_bracket(16, seed).lines for seed in range(20)}) == 20


@settings(max_examples=40)
@given(fields, seeds, st.booleans(), formats, tie_rules)
def test_played_out_knockout(
    n: int, seed: int, seeded: bool, fmt: MatchFormat, tie: TieRule
) -> None:
    b = seeded_bracket(n) if seeded else random_bracket(n, seed)
    ko = play_out(Knockout.start(b, MatchRules(fmt, tie, seed)), random.Random(seed))
    champion = ko.champion
    assert champion is not None and ko.finished
    # R-KO-4: the winner never lost a match, only winners go on
    for m in ko.matches:
        winner = ko.winner_of(m.slot)
        assert winner in m.players
        if champion in m.players:
            assert winner == champion
        s = b.slot(m.slot)
        if s.feeders is not None:
            assert set(m.players) == {ko.winner_of(f) for f in s.feeders}
    assert len(ko.matches) == n - 1  # one match eliminates one player
    lost = [p for p in range(1, n + 1) if ko.eliminated_in(p) is not None]
    assert sorted([*lost, champion]) == list(range(1, n + 1))
    if seeded:
        for m in ko.matches:
            if set(m.players) == {1, 2}:
                assert m.round == b.rounds
            if max(m.players) <= 4:
                assert m.round >= b.rounds - 1


@settings(max_examples=30)
@given(fields, seeds, st.sampled_from([Decider.LOWER_RATED, Decider.LOTS]))
def test_single_games_n_minus_one(n: int, seed: int, decider: Decider) -> None:
    ko = Knockout.start(random_bracket(n, seed), MatchRules(tie_rule=TieRule(decider=decider)))
    ko = play_out(ko, random.Random(seed))
    games = [g for m in ko.matches for g in m.status(ko.rules).games]
    assert len(ko.matches) == len(games) == n - 1


@settings(max_examples=20)
@given(st.integers(min_value=2, max_value=64), seeds, formats, tie_rules)
def test_play_is_reproducible(n: int, seed: int, fmt: MatchFormat, tie: TieRule) -> None:
    rules = MatchRules(fmt, tie, seed)
    first = play_out(Knockout.start(random_bracket(n, seed), rules), random.Random(seed))
    again = play_out(Knockout.start(random_bracket(n, seed), rules), random.Random(seed))
    assert first == again and first.to_json() == again.to_json()


def test_next_round_only_when_every_match_is_decided() -> None:
    # R-KO-2: the next round starts when every match of this round is over
    ko = Knockout.start(seeded_bracket(8), MatchRules(seed=3))
    slot, game = ko.pending_games()[0]
    ko = ko.record(slot, game.number, GameResult.parse("1-0"))
    with pytest.raises(RuleError, match=r"round 1 is not over: slot 2 \(4 v 5\), .*"):
        ko.pair_next_round()
    ko = play_round(ko, random.Random(1))
    ko = ko.pair_next_round()
    assert ko.round == 2 and len(ko.matches) == 6
    with pytest.raises(RuleError, match="round 1, which is closed"):
        ko.record(1, 1, GameResult.parse("0-1"))
    ko = play_round(ko, random.Random(2)).pair_next_round()
    ko = play_round(ko, random.Random(3))
    with pytest.raises(RuleError, match="is the final"):
        ko.pair_next_round()
    assert ko.champion is not None
    places = ko.placings()
    assert sorted(places.values()) == ["1", "2", "3-4", "3-4", "5-8", "5-8", "5-8", "5-8"]


def test_byes_advance_without_a_match() -> None:
    ko = Knockout.start(seeded_bracket(5), MatchRules(seed=1))
    assert [m.players for m in ko.matches] == [(4, 5)]
    assert [ko.winner_of(s) for s in (1, 3, 4)] == [1, 2, 3]
    with pytest.raises(RuleError, match="slot 1 is a bye"):
        ko.match(1)
    with pytest.raises(RuleError, match=r"slot 5 \(semi-final\) is not paired yet"):
        ko.match(5)
    ko = play_round(ko, random.Random(5)).pair_next_round()
    assert [m.players for m in ko.matches if m.round == 2][1] == (2, 3)
    ko = play_out(ko, random.Random(6))
    assert ko.placings()[ko.champion or 0] == "1"
    assert sorted(ko.placings().values()).count("5") == 1  # only one first-round loser


def test_state_json() -> None:
    ko = Knockout.start(seeded_bracket(2), MatchRules(MatchFormat(2), seed=9))
    ko = ko.record(1, 1, GameResult.parse("1/2-1/2"))
    data = ko.to_json()
    match = data["matches"][0]  # type: ignore[index]
    assert match["score"] == [0.5, 0.5] and match["winner"] is None
    assert [g["result"] for g in match["games"]] == ["½-½", None]
    assert data["format"] == "2" and data["tie_rule"] == "lower-rated" and data["lots_seed"] == 9
