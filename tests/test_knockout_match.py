"""Match formats and tie rules of a knockout match (R-KO-3, RULES.md §6.1)."""

from __future__ import annotations

from fractions import Fraction as F  # noqa: N817 - reads like ½ in the expectations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.model import GameResult
from crosstable.core.pairing.knockout_match import (
    Decider,
    GameKind,
    Match,
    MatchFormat,
    MatchRules,
    TieRule,
    TieStage,
)

A, B = 1, 2  # top and bottom of the match


def match(ratings: tuple[int | None, int | None] = (2000, 1900)) -> Match:
    return Match(slot=3, round=1, top=A, bottom=B, ratings=ratings)


def play(m: Match, rules: MatchRules, *winners: str) -> Match:
    """Enter the next pending game's result by who scored: "A", "B", "=" (draw)."""
    for who in winners:
        pending = m.status(rules).pending
        assert pending, f"no game left to play for {who!r}"
        game = pending[0]
        if who == "=":
            result = "1/2-1/2"
        else:
            wins = A if who == "A" else B
            result = "1-0" if game.white == wins else "0-1"
        m = m.with_result(game.number, GameResult.parse(result), rules)
    return m


def test_one_game_decisive_and_colour_by_lot() -> None:
    rules = MatchRules(MatchFormat(1), seed=5)
    status = play(match(), rules, "A").status(rules)
    assert (status.winner, status.decided_by, status.score) == (A, "score", (F(1), F(0)))
    whites = {match().status(MatchRules(seed=s)).pending[0].white for s in range(20)}
    assert whites == {A, B}  # the lot gives either player White


def test_portal_rule_lower_rated_goes_on() -> None:
    # seed 002: "in case of a draw the player with the lower rating wins"
    rules = MatchRules(MatchFormat(1))
    status = play(match((2000, 1900)), rules, "=").status(rules)
    assert (status.winner, status.decided_by) == (B, "lower-rated")
    status = play(match((1800, 1900)), rules, "=").status(rules)
    assert status.winner == A


def test_unrated_counts_as_zero() -> None:
    rules = MatchRules()
    assert play(match((None, 1500)), rules, "=").status(rules).winner == A


def test_equal_ratings_go_to_lots_reproducibly() -> None:
    winners = set()
    for seed in range(20):
        rules = MatchRules(seed=seed)
        status = play(match((1700, 1700)), rules, "=").status(rules)
        assert status.decided_by == "lots"
        assert play(match((1700, 1700)), rules, "=").status(rules).winner == status.winner
        winners.add(status.winner)
    assert winners == {A, B}


def test_two_games_colours_swapped() -> None:
    rules = MatchRules(MatchFormat(2), seed=1)
    m = match()
    first = m.status(rules).pending
    assert len(first) == 1  # played one after the other
    m = play(m, rules, "A")
    second = m.status(rules).pending
    assert len(second) == 1 and not m.status(rules).decided  # B can still level
    assert (second[0].white, second[0].black) == (first[0].black, first[0].white)
    status = play(m, rules, "=").status(rules)
    assert (status.winner, status.score) == (A, (F(3, 2), F(1, 2)))
    status = play(m, rules, "B").status(rules)
    assert (status.winner, status.score, status.decided_by) == (B, (F(1), F(1)), "lower-rated")


def test_two_games_at_once_with_both_colours() -> None:
    rules = MatchRules(MatchFormat(2, at_once=True), seed=1)
    m = match()
    games = m.status(rules).pending
    assert [(g.white, g.black) for g in games] in ([(A, B), (B, A)], [(B, A), (A, B)])
    m = m.with_result(2, GameResult.parse("1-0"), rules)  # either board may finish first
    assert not m.status(rules).decided
    status = m.with_result(1, GameResult.parse("1/2-1/2"), rules).status(rules)
    assert status.winner == games[1].white and status.decided_by == "score"


def test_a_long_match_ends_when_the_leader_cannot_be_caught() -> None:
    rules = MatchRules(MatchFormat(4))
    m = play(match(), rules, "A", "A", "=")
    status = m.status(rules)
    assert status.winner == A and len(status.games) == 3  # 2½–½ with one game left
    m = play(match(), rules, "A", "B", "A")
    assert not m.status(rules).decided and len(m.status(rules).pending) == 1


def test_forfeit_win_counts_as_a_win() -> None:
    rules = MatchRules()
    m = match()
    game = m.status(rules).pending[0]
    forfeit = "+-" if game.white == B else "-+"
    status = m.with_result(1, GameResult.parse(forfeit), rules).status(rules)
    assert (status.winner, status.decided_by) == (B, "score")


def test_extra_games_rapid_then_blitz() -> None:
    rules = MatchRules(MatchFormat(2), TieRule.playoff(), seed=8)
    m = play(match(), rules, "A", "B")
    nxt = m.status(rules).pending
    assert [(g.number, g.stage, g.kind) for g in nxt] == [(3, 1, GameKind.RAPID)]
    m = play(m, rules, "=", "=")
    blitz = m.status(rules).pending
    assert [(g.number, g.kind) for g in blitz] == [(5, GameKind.BLITZ)]
    status = play(m, rules, "B", "=").status(rules)
    assert (status.winner, status.decided_by) == (B, "blitz")
    assert status.score == (F(1), F(1))  # extra games do not count in the regular score
    assert status.stage_scores == ((F(1), F(1)), (F(1), F(1)), (F(1, 2), F(3, 2)))


def test_each_stage_draws_colours_afresh_then_alternates() -> None:
    starts = set()
    for seed in range(16):
        rules = MatchRules(MatchFormat(2), TieRule.playoff(), seed=seed)
        m = play(match(), rules, "A", "B", "=", "=")
        games = m.status(rules).games
        assert games[2].white == games[3].black  # rapid games alternate
        starts.add((games[0].white, games[2].white))
    assert len(starts) > 2  # the rapid lot is not tied to the regular one


def test_armageddon_draw_sends_black_on() -> None:
    rules = MatchRules(MatchFormat(1), TieRule((), Decider.ARMAGEDDON), seed=4)
    m = play(match(), rules, "=")
    game = m.status(rules).pending[0]
    assert game.kind is GameKind.ARMAGEDDON
    status = play(m, rules, "=").status(rules)
    assert (status.winner, status.decided_by) == (game.black, "armageddon")
    white_wins = "A" if game.white == A else "B"
    assert play(m, rules, white_wins).status(rules).winner == game.white


def test_sudden_death_until_a_game_is_won() -> None:
    rules = MatchRules(MatchFormat(1), TieRule.parse("sudden-death"), seed=2)
    m = play(match(), rules, "=", "=", "=")
    games = m.status(rules).games
    assert [g.kind for g in games[1:]] == [GameKind.SUDDEN_DEATH] * 3
    assert games[1].white == games[2].black == games[3].white
    assert not m.status(rules).decided
    status = play(m, rules, "B").status(rules)
    assert (status.winner, status.decided_by) == (B, "sudden-death")


def test_lots_rule() -> None:
    rules = MatchRules(MatchFormat(1), TieRule((), Decider.LOTS), seed=6)
    status = play(match((1500, 2500)), rules, "=").status(rules)
    assert status.decided_by == "lots" and status.winner in (A, B)


def test_corrections_and_bad_entries() -> None:
    rules = MatchRules(MatchFormat(3))
    with pytest.raises(RuleError, match="there is no game 2 to enter"):
        match().with_result(2, GameResult.parse("1-0"), rules)
    with pytest.raises(RuleError, match="final result"):
        match().with_result(1, GameResult.parse("*"), rules)
    m = play(match(), rules, "A", "B", "A")
    assert m.status(rules).winner == A
    # game 2 corrected to a win for A: 2–0 after two games, game 3 is no longer part of it
    game2 = m.status(rules).games[1]
    fix = GameResult.parse("1-0" if game2.white == A else "0-1")
    with pytest.raises(RuleError, match="game 3 has a result but is not part of the match"):
        m.with_result(2, fix, rules)
    m = m.with_result(3, None, rules).with_result(2, fix, rules)
    assert m.status(rules).winner == A and len(m.status(rules).games) == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1", MatchFormat(1)),
        ("2", MatchFormat(2)),
        ("2-at-once", MatchFormat(2, at_once=True)),
    ],
)
def test_format_parse(text: str, expected: MatchFormat) -> None:
    assert MatchFormat.parse(text) == expected
    assert MatchFormat.parse(expected.label()) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [("two", "use 1, 2 or 2-at-once"), ("0", "at least one game"), ("3-at-once", "even")],
)
def test_format_errors(text: str, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        MatchFormat.parse(text)


def test_tie_rule_parse() -> None:
    assert TieRule.parse("lots") == TieRule((), Decider.LOTS)
    assert TieRule.parse("playoff") == TieRule.parse("rapid:2, blitz:2, armageddon")
    assert TieRule.parse("rapid:4,blitz,sudden-death").stages == (
        TieStage(GameKind.RAPID, 4),
        TieStage(GameKind.BLITZ, 2),
    )
    for bad, message in [
        ("coin", "end with a decider"),
        ("bullet:2,lots", "unknown stage"),
        ("rapid:x,lots", "not a number"),
        ("armageddon:1,lots", "is a decider"),
        ("", "empty"),
    ]:
        with pytest.raises(RuleError, match=message):
            TieRule.parse(bad)


outcomes = st.lists(st.sampled_from(["A", "B", "="]), min_size=0, max_size=12)


@given(
    outcomes,
    st.sampled_from([MatchFormat(1), MatchFormat(2), MatchFormat(3), MatchFormat(2, True)]),
    st.sampled_from([TieRule(), TieRule.playoff(), TieRule.parse("rapid:2,sudden-death")]),
    st.integers(0, 1000),
)
def test_more_points_goes_on(played: list[str], fmt: MatchFormat, tie: TieRule, seed: int) -> None:
    rules = MatchRules(fmt, tie, seed)
    m = match()
    for who in played:
        if m.status(rules).decided:
            break
        m = play(m, rules, who)
    status = m.status(rules)
    assert status.decided == (not status.pending)
    a, b = status.score
    if status.decided and a != b:
        assert status.winner == (A if a > b else B) and status.decided_by == "score"
    for stage, (x, y) in enumerate(status.stage_scores[:-1]):
        assert x == y, f"stage {stage} was left tied to reach a later one"


def test_world_cup_2023_tie_breaks() -> None:
    # RULES.md §6.1: two classical games, then 2 rapid (25'+10"), 2 rapid (10'+10"),
    # 2 blitz (5'+3"), then single games with colours drawn and alternating until a win
    tie = TieRule.parse("rapid:2,rapid:2,blitz:2,sudden-death")
    rules = MatchRules(MatchFormat(2), tie, seed=2023)
    m = play(match(), rules, *["="] * 8)
    status = m.status(rules)
    assert [g.kind for g in status.games[:8]] == [GameKind.REGULAR] * 2 + [GameKind.RAPID] * 4 + [
        GameKind.BLITZ
    ] * 2
    assert [(g.number, g.stage, g.kind) for g in status.pending] == [(9, 4, GameKind.SUDDEN_DEATH)]
    status = play(m, rules, "=", "A").status(rules)
    assert (status.winner, status.decided_by, len(status.games)) == (A, "sudden-death", 10)
