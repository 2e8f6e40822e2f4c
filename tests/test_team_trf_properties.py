"""Team TRF records as properties (docs/trf.md, "Team records"): any team tournament —
round robin or Swiss, any boards, reserves, line-ups in any order, forfeited boards and
matches, team PABs, other match points — written as TRF-2026 with its team records and
read back as a team tournament gives the same teams, line-ups, games, settings and team
records, and is written again as the same file; the team record parsers give a value or
an error naming the line and column on any line (fuzz)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crosstable.core.errors import InputError, RuleError
from crosstable.core.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Outcome,
    Player,
    Round,
    System,
    Tournament,
)
from crosstable.core.scoring import PointSystem
from crosstable.core.teams import Team, team_round_robin, team_standings
from crosstable.core.teams.matches import TeamScoring, seat_match
from crosstable.core.teams.settings import MAX_BOARDS, TeamSettings
from crosstable.core.teams.swiss_pair import TeamSwissSettings
from crosstable.formats.trf import TrfDocument, parse_trf, write_trf
from crosstable.formats.trf_model import Team as TrfTeam
from crosstable.formats.trf_team_records import TeamLine, TeamRound, format_802, read_team_record
from crosstable.formats.trf_text import Line
from crosstable.service.teams.trf_lines import team_lines
from crosstable.service.teams.trf_plan import plan_team_import
from crosstable.service.teams.trf_teams import board_colours, match_points_line
from tests.test_team_trf_import import club_file

RESULTS = (
    GameResult.WHITE_WINS(),
    GameResult.DRAW(),
    GameResult.BLACK_WINS(),
    GameResult(Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS),
    GameResult(Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN),
)
FORFEITS = {
    "+-": GameResult(Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS),
    "-+": GameResult(Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN),
    "--": GameResult(Outcome.FORFEIT_LOSS, Outcome.FORFEIT_LOSS),
}


@st.composite
def team_tournaments(draw: st.DrawFn) -> tuple[str, TeamSettings, list[Team], Tournament]:
    count = draw(st.integers(3, 5))
    boards = draw(st.integers(1, 3))
    sizes = [boards + draw(st.integers(0, 2)) for _ in range(count)]
    starts = draw(st.permutations(range(1, sum(sizes) + 1)))
    players = tuple(Player(n, f"Player {n}") for n in range(1, sum(sizes) + 1))
    teams, at = [], 0
    for number, size in enumerate(sizes, 1):
        members = tuple(players[s - 1] for s in starts[at : at + size])
        teams.append(Team(number, f"Team {number}", members, boards))
        at += size
    swiss = draw(st.booleans())
    points = draw(st.sampled_from(((2, 1, 0), (3, 1, 0))))
    scoring = TeamScoring(match_points=PointSystem(*map(Fraction, points)))
    team_swiss = None
    if swiss:
        bye = (draw(st.sampled_from((Fraction(2), Fraction(1)))), Fraction(boards, 2))
        team_swiss = TeamSwissSettings("olympiad", bye)
        scoring = replace(scoring, bye=bye)
    team_settings = TeamSettings(boards, scoring, True, ("GP", "EDE"), team_swiss)
    schedule = team_round_robin(teams)
    played = draw(st.integers(1, len(schedule.rounds)))
    rounds = []
    for scheduled in schedule.rounds[:played]:
        games: list[Game] = []
        busy = set()
        for white, black in scheduled.boards:
            busy.update((white, black))
            sides = [
                tuple(draw(st.permutations(teams[t - 1].starts))[:boards]) for t in (white, black)
            ]
            seated = seat_match(scheduled.number, len(games) + 1, sides[0], sides[1])
            kind = draw(st.sampled_from((None, None, None, "+-", "-+", "--")))
            for game in seated:
                result = FORFEITS[kind] if kind else draw(st.sampled_from(RESULTS))
                if kind and game.white in sides[1]:  # the White team's result, seen from it
                    result = GameResult(result.black, result.white)
                games.append(replace(game, result=result))
        byes = ()
        free = [t.start for t in teams if t.start not in busy]
        if swiss and free:
            lineup = teams[free[0] - 1].starts[:boards]
            byes = tuple(Bye(scheduled.number, p, ByeKind.PAIRING) for p in lineup)
        rounds.append(Round(scheduled.number, tuple(games), byes))
    system = System.SWISS_DUTCH if swiss else System.ROUND_ROBIN
    tournament = Tournament(name="Teams", players=players, rounds=tuple(rounds))
    tournament = replace(
        tournament,
        settings=replace(
            tournament.settings, system=system, rounds=len(schedule.rounds) if swiss else None
        ),
    )
    code = "CUSTOM_TEAM_SWISS_MP" if swiss else "FIDE_TEAM_ROUNDROBIN"
    return code, team_settings, teams, tournament


def team_file(code: str, team_settings: TeamSettings, teams: list[Team], games: Tournament) -> str:
    table = {
        r.team: r
        for r in team_standings(games, teams, team_settings.tiebreaks, team_settings.scoring).rows
    }
    points = team_settings.scoring.match_points
    doc = replace(
        TrfDocument.from_tournament(games),
        teams=tuple(
            TrfTeam(
                t.name,
                t.starts,
                "310",
                t.start,
                match_points=table[t.start].mp,
                game_points=table[t.start].gp,
                rank=table[t.start].place,
            )
            for t in teams
        ),
        headers={
            "192": code,
            "202": ",".join(team_settings.tiebreaks),
            "352": board_colours(team_settings.boards),
            "362": match_points_line(points.win, points.draw, points.loss),
        },
        other_records=team_lines(games, teams, team_settings),
    )
    return write_trf(doc, "trf2026")


def _games(tournament: Tournament) -> set[tuple[int, int, int, str]]:
    return {
        (g.round, g.white, g.black, g.result.label() if g.result else "")
        for rnd in tournament.rounds
        for g in rnd.games
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(team_tournaments())
def test_r_b_3_team_tournaments_go_through_trf_and_back_unchanged(
    case: tuple[str, TeamSettings, list[Team], Tournament],
) -> None:
    code, team_settings, teams, games = case
    text = team_file(code, team_settings, teams, games)
    plan = plan_team_import(parse_trf(text, "teams.trf"), "teams.trf")
    assert plan.system is games.settings.system
    assert plan.settings.boards == team_settings.boards
    assert plan.settings.scoring == team_settings.scoring
    assert plan.settings.swiss == team_settings.swiss
    assert plan.teams == tuple((t.start, t.name, t.starts) for t in teams)
    assert _games(plan.tournament) == _games(games)
    for rnd in games.rounds:
        for game in rnd.games:  # each board in its line-up, in the order it was seated
            owner = next(t for t in teams if game.white in t.starts).start
            assert game.white in plan.lineups[(rnd.number, owner)]
    again = team_lines(plan.tournament, teams, plan.settings)
    assert again == team_lines(games, teams, team_settings)
    assert team_file(code, plan.settings, teams, plan.tournament) == text


team_record_lines = st.one_of(
    st.text(alphabet=" 0123456789.+-x", max_size=60).map(lambda s: "330 " + s),
    st.text(alphabet=" 0123456789.,-a", max_size=60).map(lambda s: "320 " + s),
    st.text(alphabet=" 0123456789-", max_size=60).map(lambda s: "300 " + s),
    st.text(alphabet=" 0123456789.wbfPABZHF", max_size=80).map(lambda s: "802 " + s),
)


@settings(max_examples=300, deadline=None)
@given(team_record_lines)
def test_r_b_3_team_record_parsers_give_a_value_or_a_located_error(text: str) -> None:
    line = Line(text, 7, "fuzz.trf")
    try:
        read_team_record(line)
    except InputError as error:
        assert str(error).startswith("fuzz.trf:7:")


@st.composite
def mutated_team_files(draw: st.DrawFn) -> str:
    """The club's team file (tests/test_team_trf_import.py) with 1–4 characters of its
    team records and round columns changed."""
    lines = club_file().splitlines()
    for _ in range(draw(st.integers(1, 4))):
        index = draw(st.integers(0, len(lines) - 1))
        line = lines[index]
        column = draw(st.integers(0, max(0, len(line) - 1)))
        char = draw(st.sampled_from("0123456789 wb=+-UZFH.x"))
        lines[index] = line[:column] + char + line[column + 1 :]
    return "\n".join(lines) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_team_files())
def test_r_b_3_a_mutated_team_file_is_planned_or_refused_with_a_reason(text: str) -> None:
    try:
        doc = parse_trf(text, "club.trf", lenient=True)
        plan_team_import(doc, "club.trf")
    except (InputError, RuleError) as error:
        assert str(error)


def test_r_b_3_team_records_listing_too_much_are_refused_naming_the_line() -> None:
    """The counts a team record lists are bounded before any work on them: 300's
    players, 802's rounds (999 at most) and 352's boards (MAX_BOARDS at most)."""
    players = " ".join(["1"] * 1100)
    with pytest.raises(InputError, match=r"^big\.trf:4:.*more than 999 values"):
        read_team_record(Line(f"300 001 001 002 {players}", 4, "big.trf"))
    one = TeamRound(2, "", "w", Fraction(3, 2), False)
    many = format_802(TeamLine("802", 1, "Ara", Fraction(1), Fraction(3, 2), (one,) * 1000))
    assert read_team_record(Line(many[: 28 + 13 * 999], 5, "big.trf")) is not None
    with pytest.raises(InputError, match=r"^big\.trf:5:.*more than 999 rounds"):
        read_team_record(Line(many, 5, "big.trf"))
    text = club_file().replace("352 WB", "352 " + "WB" * (MAX_BOARDS // 2 + 1))
    with pytest.raises(InputError, match=f"at most {MAX_BOARDS}"):
        plan_team_import(parse_trf(text, "club.trf", lenient=True), "club.trf")
