"""Bughouse in the core: a match of two pairs on two boards (partners with opposite
colours), the match result by the rule (``sum`` or ``first``), the pairs' standings,
and the round robin, Swiss and knockout of pairs on the existing pairing code."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.competitor import competitor_kind
from crosstable.core.errors import RuleError
from crosstable.core.event import Section
from crosstable.core.model import Game, GameResult, Player, Round, Tournament
from crosstable.core.pairing.knockout import Knockout
from crosstable.core.pairing.knockout_bracket import seeded_bracket
from crosstable.core.pairing.knockout_match import MatchRules
from crosstable.core.teams import Team, TeamScoring, rounds_of_matches
from crosstable.core.teams.bughouse import (
    BughouseRules,
    FirstFinished,
    as_competitor,
    bughouse_details,
    bughouse_settings,
    bughouse_standings,
    pair_rating,
)
from crosstable.core.teams.bughouse_pairing import (
    bughouse_round_robin,
    knockout_record,
    knockout_round,
    pair_swiss_round,
    pairs_table,
    seat_pairs,
)
from crosstable.core.teams.swiss import initial_order

RESULTS = ("1-0", "0-1", "½-½")


def make_pairs(n: int, ratings: list[int] | None = None) -> list[Team]:
    out = []
    for k in range(1, n + 1):
        first = ratings[k - 1] if ratings else 2000 - 20 * k
        out.append(
            Team(
                k,
                f"Pair {k}",
                (Player(2 * k - 1, f"A{k}", first), Player(2 * k, f"B{k}", 1800)),
                2,
            )
        )
    return out


def field(pairs: list[Team], rounds: tuple[Round, ...] = ()) -> Tournament:
    return Tournament(players=tuple(p for t in pairs for p in t.members), rounds=rounds)


def with_results(games: tuple[Game, ...], results: list[str]) -> tuple[Game, ...]:
    return tuple(
        Game(g.round, g.board, g.white, g.black, GameResult.parse(r))
        for g, r in zip(games, results, strict=True)
    )


def test_r_x_6_partners_have_opposite_colours() -> None:
    pairs = make_pairs(4)
    for scheduled in bughouse_round_robin(pairs).rounds:
        seated = seat_pairs(scheduled.number, pairs, scheduled.boards)
        for white, black in seated.matches:
            for pair in (white, black):
                starts = pairs[pair - 1].starts
                colours = {
                    ("W" if g.white == s else "B")
                    for g in seated.games
                    for s in starts
                    if s in (g.white, g.black)
                }
                assert colours == {"W", "B"}


def test_r_x_6_sum_rule_counts_both_games_first_rule_the_first_finished() -> None:
    pairs = make_pairs(2)
    seated = seat_pairs(1, pairs, [(1, 2)])
    # pair 1 wins board 1, loses board 2 by more: a draw on game points
    games = with_results(seated.games, ["1-0", "1-0"])  # board 2: pair 2 has White
    t = field(pairs, (Round(1, games),))
    summed = bughouse_standings(t, pairs, BughouseRules("sum"))
    assert [(r.mp, r.gp) for r in summed.rows] == [(1, 1), (1, 1)]
    first = bughouse_standings(t, pairs, BughouseRules("first", FirstFinished.parse("1:2")))
    assert [(r.team, r.mp, r.gp) for r in first.rows] == [(2, 2, 1), (1, 0, 1)]
    # unmarked, the first rule has no result yet
    unmarked = bughouse_standings(t, pairs, BughouseRules("first"))
    assert all(r.mp == 0 and r.gp == 0 for r in unmarked.rows)


def test_r_x_6_a_mark_replaces_the_other_game_of_its_match() -> None:
    pairs = make_pairs(2)
    seated = seat_pairs(1, pairs, [(1, 2)])
    t = field(pairs, (Round(1, seated.games),))
    match = rounds_of_matches(t, pairs)[0][0]
    marks = FirstFinished().mark(match, 1).mark(match, 2)
    assert marks.marks == {(1, 2)}
    with pytest.raises(RuleError, match="board 3 is not a game"):
        marks.mark(match, 3)


@pytest.mark.parametrize("text", ["1", "a:b", "1:0", "0:1", "1:2:3", "1;2", "1234567:1", "-1:2"])
def test_r_x_6_bad_marks_are_refused(text: str) -> None:
    with pytest.raises(RuleError, match="ROUND:BOARD"):
        FirstFinished.parse(text)


@given(st.text(max_size=60))
def test_r_x_6_parsing_marks_refuses_or_round_trips(text: str) -> None:
    try:
        marks = FirstFinished.parse(text)
    except RuleError:
        return
    assert FirstFinished.parse(marks.text()) == marks


def test_r_x_6_settings_refuse_a_wrong_rule_or_boards() -> None:
    details = bughouse_details("first", tiebreaks=("GP",))
    team, rules = bughouse_settings(details)
    assert (team.boards, rules.rule, team.tiebreaks) == (2, "first", ("GP",))
    swiss, _ = bughouse_settings(bughouse_details("sum", swiss=True))
    assert swiss.swiss is not None and swiss.swiss.pairing == "dutch"
    assert swiss.scoring.bye == (2, 1)  # a won match and one game
    with pytest.raises(RuleError, match="Dutch rules"):
        bughouse_settings({**details, "team_system": "swiss", "team_pairing": "olympiad"})
    with pytest.raises(RuleError, match="Bughouse rule"):
        bughouse_details("most")
    with pytest.raises(RuleError, match="two boards"):
        bughouse_settings({**details, "team_boards": "3"})


def test_r_x_6_a_pair_plays_two_boards() -> None:
    four = Team(1, "Four", tuple(Player(n, f"P{n}") for n in (1, 2, 3, 4)), 4)
    with pytest.raises(RuleError, match="plays two"):
        bughouse_round_robin([four])
    kind = competitor_kind("bughouse")
    with pytest.raises(RuleError, match="plays two"):
        kind.check(four.competitor())


def test_r_x_6_a_pair_is_rated_by_its_average_and_ranked_by_it() -> None:
    pairs = make_pairs(3, [2000, 2300, 1900])
    assert [pair_rating(p) for p in pairs] == [1900, 2050, 1850]
    assert [p.start for p in initial_order(pairs, 2)] == [2, 1, 3]  # the team Swiss's order
    unrated = Team(1, "U", (Player(1, "a", None), Player(2, "b", 2000)), 2)
    assert pair_rating(unrated) is None and as_competitor(unrated).rating is None


def play_round(games: tuple[Game, ...], draw: st.DrawFn) -> tuple[Game, ...]:
    return with_results(games, [draw(st.sampled_from(RESULTS)) for _ in games])


@settings(max_examples=25, deadline=None)
@given(st.data(), st.integers(2, 9), st.sampled_from(("sum", "first")))
def test_r_x_6_a_swiss_of_pairs_never_repeats_a_match_and_pairs_everybody(
    data: st.DataObject, n: int, rule: str
) -> None:
    pairs = make_pairs(n)
    rounds: list[Round] = []
    marks = FirstFinished()
    met: set[frozenset[int]] = set()
    byes: set[int] = set()
    scoring = TeamScoring(bye=(Fraction(2), Fraction(1)))
    for _ in range(min(3, n - 1)):
        rules = BughouseRules(rule, marks, scoring)
        r = pair_swiss_round(field(pairs, tuple(rounds)), pairs, rules, total_rounds=3)
        for white, black in r.matches:
            assert frozenset((white, black)) not in met
            met.add(frozenset((white, black)))
        bye_pairs = {(b.player + 1) // 2 for b in r.byes}
        assert not bye_pairs & byes  # a pair gets the bye at most once
        byes |= bye_pairs
        paired = {p for m in r.matches for p in m} | bye_pairs
        assert paired == set(range(1, n + 1))
        for white, black in r.matches:  # partners sit with opposite colours
            for pair in (pairs[white - 1], pairs[black - 1]):
                sides = [
                    g.white in pair.starts for g in r.games if set(pair.starts) & {g.white, g.black}
                ]
                assert sorted(sides) == [False, True]
        games = play_round(r.games, data.draw)
        rnd = Round(r.number, games, r.byes)
        rounds.append(rnd)
        for match in rounds_of_matches(field(pairs, tuple(rounds)), pairs)[-1]:
            marks = marks.mark(match, data.draw(st.sampled_from([g.board for g in match.games])))
    rules = BughouseRules(rule, marks, scoring)
    table = bughouse_standings(field(pairs, tuple(rounds)), pairs, rules)
    played = len(rounds)
    assert sum(r.mp for r in table.rows) == 2 * (played * (n // 2)) + 2 * len(byes)


def test_r_x_6_a_swiss_round_waits_for_the_matches_before() -> None:
    pairs = make_pairs(4)
    r = pair_swiss_round(field(pairs), pairs, BughouseRules("first"))
    t = field(pairs, (Round(1, with_results(r.games, ["1-0"] * 4)),))
    with pytest.raises(RuleError, match="not decided yet"):
        pair_swiss_round(t, pairs, BughouseRules("first"))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(RESULTS), min_size=2, max_size=2), st.integers(0, 1))
def test_r_x_6_the_table_of_pairs_agrees_with_the_standings(results: list[str], k: int) -> None:
    pairs = make_pairs(2)
    seated = seat_pairs(1, pairs, [(1, 2)])
    t = field(pairs, (Round(1, with_results(seated.games, results)),))
    for rules in (BughouseRules("sum"), BughouseRules("first", FirstFinished.parse(f"1:{k + 1}"))):
        table = pairs_table(t, pairs, rules)
        rows = {r.team: r.mp for r in bughouse_standings(t, pairs, rules).rows}
        assert {p.start: table.score(p.start) for p in table.players} == rows
        assert sum(rows.values()) == 2


def test_r_x_6_a_knockout_of_pairs_goes_on_with_the_match_winners() -> None:
    pairs = make_pairs(4)
    ko = Knockout.start(seeded_bracket(4), MatchRules(seed=1))
    rnd = knockout_round(ko, pairs, 1)
    assert len(rnd.games) == 4
    rules = BughouseRules("sum")
    for index in range(len(rnd.matches)):
        boards = rnd.games[2 * index : 2 * index + 2]
        ko = knockout_record(ko, pairs, with_results(boards, ["1-0", "½-½"]), rules)
    ko = ko.pair_next_round()
    winners = {m[0] for m in rnd.matches}
    final = knockout_round(ko, pairs, 2)
    assert {p for m in final.matches for p in m} == winners
    boards = final.games
    undecided = (boards[0], Game(2, 2, boards[1].white, boards[1].black))
    assert knockout_record(ko, pairs, undecided, rules) is ko
    ko = knockout_record(ko, pairs, with_results(boards, ["1-0", "0-1"]), rules)
    assert ko.champion == final.matches[0][0]  # 0-1 on board 2 is the White pair's win


def test_r_x_6_a_section_of_bughouse_pairs_ranks_them_by_match_points() -> None:
    pairs = make_pairs(2)
    seated = seat_pairs(1, pairs, [(1, 2)])
    games = field(pairs, (Round(1, with_results(seated.games, ["1-0", "½-½"])),))
    section = Section("Pairs", games, tuple(as_competitor(p) for p in pairs), kind="bughouse")
    table = section.table()
    assert [p.rating for p in table.players] == [1890, 1880]  # the pairs' averages
    assert (table.score(1), table.score(2)) == (2, 0)  # 1½-½: the White pair's match
