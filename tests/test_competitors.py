"""Competitors and events in the core: players and teams through one round-robin
schedule, one standings code and one tie-break code."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.competitor import (
    TEAM,
    Competitor,
    competitor_kind,
    players_as_competitors,
    team_game_points,
)
from crosstable.core.errors import RuleError
from crosstable.core.event import Event, Section, Stage
from crosstable.core.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Player,
    Round,
    StageKind,
    System,
    Tournament,
)
from crosstable.core.pairing_systems import fixed_pairing, match_boards
from crosstable.core.schedule import berger_schedule, circle_schedule
from crosstable.core.standings import compute_standings

RESULTS = (GameResult.WHITE_WINS(), GameResult.DRAW(), GameResult.BLACK_WINS())


def teams_of(count: int, boards: int, reserves: int = 0) -> tuple[Competitor, ...]:
    size = boards + reserves
    return tuple(
        Competitor(
            t,
            f"Team {t}",
            tuple(Player((t - 1) * size + b, f"T{t}B{b}") for b in range(1, size + 1)),
            kind="team",
            boards=boards,
        )
        for t in range(1, count + 1)
    )


def team_round_robin(
    teams: tuple[Competitor, ...], results: list[int], cycles: int = 1
) -> Tournament:
    """The board games of a team round robin from the round robin's own schedule."""
    players = tuple(p for team in teams for p in team.members)
    schedule = match_boards(fixed_pairing(System.ROUND_ROBIN).schedule(teams, cycles=cycles), teams)
    picks = iter(results)
    rounds = tuple(
        Round(
            r.number,
            tuple(
                Game(r.number, board, white, black, RESULTS[next(picks) % 3])
                for board, (white, black) in enumerate(r.boards, 1)
            ),
        )
        for r in schedule.rounds
    )
    return Tournament(players=players, rounds=rounds)


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(3, 6),
    boards=st.integers(1, 4),
    results=st.lists(st.integers(0, 2), min_size=6 * 5 * 4, max_size=6 * 5 * 4),
)
def test_team_round_robin_is_the_round_robin_over_teams(
    count: int, boards: int, results: list[int]
) -> None:
    teams = teams_of(count, boards, reserves=1)
    games = team_round_robin(teams, results)
    table = Section("League", games, teams, kind="team").table()
    # the matches are the round robin's schedule of the teams, round by round
    expected = berger_schedule(count)
    assert [sorted((g.white, g.black) for g in r.games) for r in table.rounds] == [
        sorted(r.boards) for r in expected.rounds
    ]
    for team in teams:
        match_points = Fraction(0)
        for rnd in games.rounds:
            mine = theirs = Fraction(0)
            for game in rnd.games:
                for start in (game.white, game.black):
                    if start in {p.start for p in team.members}:
                        mine += game.outcome_of(start).points(games.settings.point_system)
                        opponent = game.opponent_of(start)
                        theirs += game.outcome_of(opponent).points(games.settings.point_system)
            if mine or theirs:
                match_points += 2 if mine > theirs else 1 if mine == theirs else 0
        assert table.score(team.start) == match_points
    total = sum(table.score(t.start) for t in teams)
    assert total == 2 * count * (count - 1) // 2  # two match points per match
    # the reserves play no board
    assert all(
        p.start not in {s for g in r.games for s in (g.white, g.black)}
        for team in teams
        for p in team.reserves
        for r in games.rounds
    )
    ranked = Section("League", games, teams, kind="team").standings("DE,SB")
    assert [row.points for row in ranked.rows] == sorted(
        (table.score(t.start) for t in teams), reverse=True
    )


@settings(max_examples=30, deadline=None)
@given(count=st.integers(3, 9), results=st.lists(st.integers(0, 2), min_size=40, max_size=40))
def test_a_player_section_ranks_as_the_tournament_does(count: int, results: list[int]) -> None:
    players = tuple(Player(n, f"P{n}", 1500 + 7 * n) for n in range(1, count + 1))
    picks = iter(results * 3)
    rounds = tuple(
        Round(
            r.number,
            tuple(
                Game(r.number, b, w, k, RESULTS[next(picks)])
                for b, (w, k) in enumerate(r.boards, 1)
            ),
        )
        for r in berger_schedule(count).rounds
    )
    t = Tournament(players=players, rounds=rounds)
    section = Section("Open", t)
    assert section.table() is t
    assert section.competitors == players_as_competitors(players)
    assert section.standings("DE,SB,BH").rows == compute_standings(t, "DE,SB,BH").rows
    assert section.schedule() == berger_schedule(count)
    circle = section.schedule(details={"schedule": "circle"}, cycles=2)
    assert circle == circle_schedule(count, 2, swap_last_rounds=True)


def test_match_result_from_its_boards() -> None:
    teams = teams_of(2, 4)
    a, b = teams
    games = Tournament(
        players=tuple(p for t in teams for p in t.members),
        rounds=(
            Round(
                1,
                (
                    Game(1, 1, 1, 5, GameResult.WHITE_WINS()),
                    Game(1, 2, 6, 2, GameResult.DRAW()),
                    Game(1, 3, 3, 7, GameResult.DRAW()),
                    Game(1, 4, 8, 4, GameResult.parse("+-")),
                ),
            ),
            Round(2, (Game(2, 1, 5, 1, GameResult.parse("--")),)),
        ),
    )
    table = competitor_kind("team").table(games, teams)
    assert table.rounds[0].games[0].result == GameResult.DRAW()  # 2-2
    assert table.rounds[1].games[0].result == GameResult.parse("--")  # every board forfeited
    assert (team_game_points(games, a), team_game_points(games, b)) == (2, 2)
    assert (table.score(1), table.score(2)) == (1, 1)
    pending = Tournament(
        players=games.players, rounds=(Round(1, (Game(1, 1, 1, 5), Game(1, 2, 6, 2))),)
    )
    assert TEAM.table(pending, teams).rounds[0].games[0].result is None


def test_team_bye_when_every_board_player_has_the_pab() -> None:
    teams = teams_of(3, 2)
    games = Tournament(
        players=tuple(p for t in teams for p in t.members),
        rounds=(
            Round(
                1,
                (Game(1, 1, 1, 3, GameResult.DRAW()), Game(1, 2, 4, 2, GameResult.DRAW())),
                (Bye(1, 5, ByeKind.PAIRING), Bye(1, 6, ByeKind.PAIRING)),
            ),
        ),
    )
    table = TEAM.table(games, teams)
    assert table.rounds[0].byes == (Bye(1, 3, ByeKind.PAIRING),)
    assert table.score(3) == 2  # a pairing-allocated bye is worth a match win


def test_bad_teams_are_refused() -> None:
    p = tuple(Player(n, f"P{n}") for n in range(1, 5))
    with pytest.raises(RuleError, match="2 boards, but 1 players"):
        Competitor(1, "Short", p[:1], kind="team", boards=2)
    with pytest.raises(RuleError, match="no players"):
        Competitor(1, "Empty", ())
    two_teams = (
        Competitor(1, "A", p[:2], kind="team", boards=2),
        Competitor(2, "B", p[1:3], kind="team", boards=2),
    )
    with pytest.raises(RuleError, match="player 2 is in two teams"):
        Section("S", Tournament(players=p), two_teams, kind="team")
    ok = (
        Competitor(1, "A", p[:2], kind="team", boards=2),
        Competitor(2, "B", p[2:], kind="team", boards=2),
    )
    mates = Tournament(players=p, rounds=(Round(1, (Game(1, 1, 1, 2),)),))
    with pytest.raises(RuleError, match="two players of one team"):
        Section("S", mates, ok, kind="team")
    with pytest.raises(RuleError, match="exactly two teams"):
        fixed_pairing(System.SCHEVENINGEN).schedule(ok[:1])
    uneven = (ok[0], Competitor(2, "B", p[2:3], kind="team"))
    with pytest.raises(RuleError, match="same number of players"):
        fixed_pairing(System.SCHEVENINGEN).schedule(uneven)
    with pytest.raises(RuleError, match="not paired before round 1"):
        fixed_pairing(System.SWISS_DUTCH)


def test_an_event_holds_stages_of_sections() -> None:
    t = Tournament(players=(Player(1, "A"), Player(2, "B"), Player(3, "C")))
    groups = Stage("Groups", StageKind.GROUPS, (Section("A", t), Section("B", t)))
    final = Stage("Final", StageKind.FINAL, (Section("Final", t),))
    event = Event("Cup", (groups, final))
    assert [s.name for s in event.sections()] == ["A", "B", "Final"]
    assert Event.single("Club", Section("Club", t)).sections()[0].name == "Club"
