"""Team round robins in the core: line-ups, matches, team standings and tie-breaks,
player scores and board prizes; checked by hand on tests/data/teams/ and against
tiebreak-core on generated tournaments."""

from __future__ import annotations

from fractions import Fraction

import pytest
import tiebreak_core.team as tc
from hypothesis import given
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.model import Player
from crosstable.core.scoring import PointSystem
from crosstable.core.teams import (
    TEAM_TIEBREAKS,
    LineUp,
    Team,
    TeamScoring,
    board_prizes,
    check_lineup,
    check_match_score,
    check_rosters,
    forfeit_boards,
    player_scores,
    rounds_of_matches,
    seat_match,
    team_field,
    team_round_robin,
    team_standings,
    team_tiebreak,
)
from tests.team_cases import core_records, load_case, make_teams, play

TEAM = Team(1, "Ararat", tuple(Player(n, f"P{n}") for n in (1, 2, 3, 4)), boards=3, captain=2)


def test_r_b_3_lineup_within_the_board_order_is_accepted() -> None:
    check_lineup(TEAM, LineUp(2, 1, (1, 2, 3)))
    check_lineup(TEAM, LineUp(2, 1, (1, 3, 4)))  # a player left out, the order kept
    check_lineup(TEAM, LineUp(2, 1, (4, 1, 2)), free_order=True)


@pytest.mark.parametrize(
    ("players", "words"),
    [
        ((2, 1, 3), "player 2 on board 1 is listed after player 1 on board 2"),
        ((1, 2), "2 players for 3 boards"),
        ((1, 2, 3, 4), "4 players for 3 boards"),
        ((1, 2, 9), "player 9 is not in the team"),
        ((1, 2, 2), "player 2 is on two boards"),
    ],
)
def test_r_b_3_lineup_refused_with_its_reason(players: tuple[int, ...], words: str) -> None:
    with pytest.raises(RuleError, match=words) as caught:
        check_lineup(TEAM, LineUp(2, 1, players))
    assert caught.value.params["round"] == 2
    assert caught.value.params["team"] == 1


def test_r_b_3_player_in_two_teams_and_a_captain_of_no_team_refused() -> None:
    a = Team(1, "A", (Player(1, "x"), Player(2, "y")), 2)
    b = Team(2, "B", (Player(2, "y"), Player(3, "z")), 2)
    with pytest.raises(RuleError, match="player 2 is in two teams: 1 and 2"):
        check_rosters([a, b])
    with pytest.raises(RuleError, match="captain 7 is not one of its players"):
        Team(1, "A", (Player(1, "x"),), 1, captain=7)
    with pytest.raises(RuleError, match="3 boards, but 2 players"):
        Team(1, "A", (Player(1, "x"), Player(2, "y")), 3)


def test_r_b_3_boards_alternate_colours_from_the_team_drawn_white() -> None:
    games = seat_match(4, 1, (1, 2, 3, 4), (11, 12, 13, 14))
    assert [(g.white, g.black) for g in games] == [(1, 11), (12, 2), (3, 13), (14, 4)]
    with pytest.raises(RuleError, match="line-ups of 2 and 3 players"):
        seat_match(1, 1, (1, 2), (5, 6, 7))


def test_r_b_3_double_round_robin_reverses_the_teams_colours() -> None:
    teams = make_teams([("A", 2, 2), ("B", 2, 2), ("C", 2, 2), ("D", 2, 2)])
    schedule = team_round_robin(teams, cycles=2)
    first = {frozenset(b): b for r in schedule.rounds[:3] for b in r.boards}
    second = {frozenset(b): b for r in schedule.rounds[3:] for b in r.boards}
    assert first.keys() == second.keys()
    assert all(first[k] == second[k][::-1] for k in first)


def test_r_b_3_match_score_that_does_not_match_its_boards_refused() -> None:
    teams, games, _ = load_case("club_league.json")
    match = rounds_of_matches(games, teams)[0][0]
    check_match_score(match, (Fraction(3, 2), Fraction(1, 2)), TeamScoring())
    with pytest.raises(RuleError, match=r"is 2–0 by the score given, but its boards give 1.5–0.5"):
        check_match_score(match, (Fraction(2), Fraction(0)), TeamScoring())


def test_r_b_3_late_lineup_loses_the_late_boards_by_forfeit() -> None:
    games = seat_match(1, 1, (1, 2), (5, 6))
    late = forfeit_boards(games, {5, 6})
    assert [g.result.label() if g.result else None for g in late] == ["+-", "-+"]
    both = forfeit_boards(games, {1, 5})
    assert [g.result.label() if g.result else None for g in both] == ["--", None]


def test_r_b_3_primary_score_must_be_mp_or_gp() -> None:
    with pytest.raises(RuleError, match=r"MP \(match points\) or GP"):
        TeamScoring(primary="BP")
    with pytest.raises(RuleError, match="unknown team tie-break 'XYZ'"):
        team_tiebreak("XYZ")


def test_r_b_3_hand_computed_club_league() -> None:
    teams, games, expected = load_case("club_league.json")
    f = team_field(games, teams, TeamScoring())
    for code in ("MP", "GP", "EMGSB", "EMMSB", "BH:MP", "BC", "TBR"):
        values = {str(t): team_tiebreak(code).value(f, t) for t in f.records}
        assert values == {k: Fraction(v) for k, v in expected[code].items()}, code
    scores = {str(r.player): (r.points, r.games) for r in player_scores(games, teams)}
    for player, (points, count) in expected["player_scores"].items():
        assert scores[player] == (Fraction(points), count)
    prizes = [[p.board, p.place, p.record.player] for p in board_prizes(games, teams)]
    assert prizes == expected["board_prizes"]
    for primary, case in (("GP", "by_game_points"), ("MP", "by_match_points")):
        table = team_standings(
            games, teams, expected[case]["tiebreaks"], TeamScoring(primary=primary)
        )
        assert [r.place for r in table.rows] == expected[case]["places"]
        assert [r.team for r in table.rows] == expected[case]["teams"]


def test_r_b_3_explanation_adds_up_match_by_match() -> None:
    teams, games, _ = load_case("club_league.json")
    table = team_standings(games, teams, ("EMGSB",))
    e = table.explain(1, "EMGSB")
    assert e.value == Fraction(17, 2)
    assert sum(Fraction(i.amount) for i in e.items if i.amount is not None) == e.value
    assert "team 2 has 4 MP; 1 GP scored against it" in e.text()
    assert table.explain(1, "BC").value == Fraction(11, 2)


RESULTS = st.sampled_from(["1-0", "0-1", "½-½", "+-", "-+", "--"])


@st.composite
def leagues(draw: st.DrawFn) -> tuple[list, object, int]:
    n = draw(st.integers(3, 7))
    boards = draw(st.integers(1, 4))
    cycles = draw(st.sampled_from([1, 2]))
    teams = make_teams([(f"T{k}", boards + draw(st.integers(0, 1)), boards) for k in range(n)])
    schedule = team_round_robin(teams, cycles=cycles)
    played = draw(st.integers(1, len(schedule.rounds)))
    results = [
        [[draw(RESULTS) for _ in range(boards)] for _ in r.boards] for r in schedule.rounds[:played]
    ]
    return teams, play(teams, results, cycles), boards


@given(leagues(), st.sampled_from(["MP", "GP"]))
def test_r_b_3_match_and_board_points_add_up(case: tuple, primary: str) -> None:
    teams, games, boards = case
    scoring = TeamScoring(primary=primary)
    mp = scoring.match_points
    for matches in rounds_of_matches(games, teams):
        for match in matches:
            a, b = match.match_points(scoring)
            assert a + b in (mp.win + mp.loss, 2 * mp.draw)
            assert match.game_points(scoring) == (
                sum(match.board_points(match.white, scoring), Fraction(0)),
                sum(match.board_points(match.black, scoring), Fraction(0)),
            )
            assert sum(match.game_points(scoring)) <= boards
    table = team_standings(games, teams, tuple(TEAM_TIEBREAKS), scoring)
    assert sorted(r.team for r in table.rows) == [t.start for t in teams]
    assert [r.place for r in table.rows] == sorted(r.place for r in table.rows)
    total_gp = sum((r.gp for r in table.rows), Fraction(0))
    assert total_gp == sum((r.points for r in player_scores(games, teams)), Fraction(0))


SCALARS = (
    "MP",
    "GP",
    "MPVGP",
    "EMMSB",
    "EMGSB",
    "EGMSB",
    "EGGSB",
    "BH:MP",
    "BH:GP",
    "BC",
    "TBR",
    "BBE",
)
ORDERS = (
    ("EDE",),
    ("MPVGP", "EDE", "EMGSB"),
    ("BH:MP", "BC", "TBR"),
    ("EGGSB", "BBE", "EDE"),
    ("EMMSB", "BH:GP", "TBR"),
)


@given(leagues(), st.sampled_from(["MP", "GP"]), st.sampled_from(ORDERS))
def test_r_b_3_team_tiebreaks_agree_with_tiebreak_core(
    case: tuple, primary: str, order: tuple
) -> None:
    teams, games, boards = case
    # tiebreak-core scores a forfeit like a game: the same point system here
    scoring = TeamScoring(primary=primary, game_points=PointSystem())
    f = team_field(games, teams, scoring)
    records = core_records(f)
    fmt = tc.TeamFormat(max_gp_per_match=boards)
    direct = {"MP": tc.match_points, "GP": tc.game_points}
    for code in SCALARS:
        if code in direct:
            theirs = {t: direct[code](records[t], records, f.rounds, fmt) for t in records}
        else:
            theirs = {
                t: tc.calculate_team(records[t], records, code, f.rounds, fmt, primary)
                for t in records
            }
        ours = {t: float(team_tiebreak(code).value(f, t)) for t in records}
        assert ours == theirs, code
    ranked = tc.rank_team_standings(records, list(order), f.rounds, fmt, primary)
    table = team_standings(games, teams, order, scoring)
    assert [r.team for r in table.rows] == [t.team_id for t in ranked.teams]


def test_r_b_3_a_free_round_counts_once_its_round_has_begun() -> None:
    teams = make_teams([("A", 2, 2), ("B", 2, 2), ("C", 2, 2)])
    games = play(teams, [[["1-0", "½-½"]]])  # round 1 played; rounds 2 and 3 to come
    f = team_field(games, teams, TeamScoring())
    rows = {team: [(r.round, r.opponent) for r in f.records[team].rows] for team in f.records}
    free = next(team for team, r in rows.items() if r == [(1, None)])
    assert all(len(r) == 1 for r in rows.values())
    assert team_tiebreak("BH:MP").value(f, free) == f.total(free, "MP") == 0
