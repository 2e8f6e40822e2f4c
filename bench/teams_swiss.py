"""A team Swiss of 200 teams: pairing a round (Olympiad rules and the Dutch rules for
teams) and recomputing the team standings, each from the boards played.

Run:  python bench/teams_swiss.py [--teams 200] [--boards 4] [--rounds 10] [--repeat 5]

``--teams`` teams (ratings drawn, seeded) are numbered by their initial ranking; the
first ``--rounds`` rounds are paired by the Olympiad rules and played with random board
results; then round ``--rounds`` + 1 is paired from those boards by each method (the
teams' histories read from the games each time), and the team standings of a team Swiss
(MPVGP, EDE, BH:MP-C1, BH:MP, EMGSB) computed from the games; the median of
``--repeat`` runs of each is printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from fractions import Fraction

from crosstable.core.model import Bye, ByeKind, Game, GameResult, Player, Round, Tournament
from crosstable.core.teams import Team, seat_match, team_standings
from crosstable.core.teams.matches import TeamScoring
from crosstable.core.teams.swiss import initial_order
from crosstable.core.teams.swiss_pair import (
    TeamSwissSettings,
    default_team_swiss_tiebreaks,
    pair_teams,
    team_swiss_request,
)


def field(teams: int, boards: int, seed: int = 1) -> list[Team]:
    rng = random.Random(seed)
    made: list[Team] = []
    start = 0
    for n in range(1, teams + 1):
        players = []
        for _ in range(boards):
            start += 1
            players.append(Player(start, f"P{start}", rng.randint(1400, 2700)))
        made.append(Team(n, f"T{n:03}", tuple(players), boards))
    return made


def renumber(teams: list[Team]) -> list[Team]:
    """The teams numbered by their initial ranking, their players team by team."""
    out, start = [], 0
    for n, team in enumerate(initial_order(teams), 1):
        players = []
        for p in team.members:
            start += 1
            players.append(Player(start, p.name, p.rating))
        out.append(Team(n, team.name, tuple(players), team.boards))
    return out


def play(teams: list[Team], rounds: int, settings: TeamSwissSettings, seed: int = 2) -> Tournament:
    rng = random.Random(seed)
    scoring = TeamScoring(bye=settings.bye)
    players = tuple(p for team in teams for p in team.members)
    games = Tournament(players=players)
    total = rounds + 1
    for number in range(1, rounds + 1):
        request = team_swiss_request(
            games,
            teams,
            round_number=number,
            total_rounds=total,
            scoring=scoring,
            settings=settings,
        )
        pairing = pair_teams(request)
        played: list[Game] = []
        for white, black in pairing.boards:
            sides = [teams[t - 1].starts for t in (white, black)]
            for g in seat_match(number, len(played) + 1, sides[0], sides[1]):
                result = GameResult.parse(rng.choice(["1-0", "0-1", "="]))
                played.append(Game(g.round, g.board, g.white, g.black, result))
        byes = ()
        if pairing.bye is not None:
            byes = tuple(Bye(number, p, ByeKind.PAIRING) for p in teams[pairing.bye - 1].starts)
        games = Tournament(
            players=players, rounds=(*games.rounds, Round(number, tuple(played), byes))
        )
    return games


def timed(what: Callable[[], object], repeat: int) -> str:
    """The median wall time and CPU time of ``repeat`` runs (on a shared machine the
    CPU time is what the work itself takes)."""
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        what()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return f"{statistics.median(wall):.3f} s ({statistics.median(cpu):.3f} s of CPU)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=200)
    parser.add_argument("--boards", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    teams = renumber(field(options.teams, options.boards))
    olympiad = TeamSwissSettings("olympiad", (Fraction(2), Fraction(options.boards, 2)))
    games = play(teams, options.rounds, olympiad)
    scoring = TeamScoring(bye=olympiad.bye)
    number = options.rounds + 1
    for method in ("olympiad", "dutch"):
        settings = TeamSwissSettings(method, olympiad.bye)

        def pairing(settings: TeamSwissSettings = settings) -> object:
            request = team_swiss_request(
                games,
                teams,
                round_number=number,
                total_rounds=number,
                scoring=scoring,
                settings=settings,
            )
            return pair_teams(request)

        seconds = timed(pairing, options.repeat)
        print(
            f"{options.teams} teams, {options.boards} boards: round {number} paired "
            f"({method}) in {seconds} (median of {options.repeat})"
        )
    tiebreaks = default_team_swiss_tiebreaks("MP")
    seconds = timed(lambda: team_standings(games, teams, tiebreaks, scoring), options.repeat)
    print(
        f"{options.teams} teams, {options.boards} boards after {options.rounds} rounds: "
        f"team standings in {seconds} (median of {options.repeat})"
    )


if __name__ == "__main__":
    main()
