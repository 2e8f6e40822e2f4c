"""Team standings: the team table with six team tie-breaks, recomputed from the games.

Run:  python bench/bench_teams.py [--teams 200] [--boards 4] [--rounds 11] [--repeat 5]

A team round robin of ``--teams`` teams is paired on the Berger table, its first
``--rounds`` rounds played with random board results (seeded), and the team standings
(GP, EDE, EMGSB, BH:MP, BC, TBR) computed from the games, board by board, each time
from scratch; the median of ``--repeat`` runs is printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from crosstable.core.model import Game, GameResult, Player, Round, Tournament
from crosstable.core.teams import Team, seat_round, team_round_robin, team_standings

TIEBREAKS = ("GP", "EDE", "EMGSB", "BH:MP", "BC", "TBR")


def league(teams: int, boards: int, rounds: int, seed: int = 1) -> tuple[list[Team], Tournament]:
    rng = random.Random(seed)
    made = [
        Team(
            n,
            f"T{n}",
            tuple(Player((n - 1) * boards + k + 1, f"P{k}") for k in range(boards)),
            boards,
        )
        for n in range(1, teams + 1)
    ]
    schedule = team_round_robin(made)
    played = []
    for scheduled in schedule.rounds[:rounds]:
        games = tuple(
            Game(
                g.round,
                g.board,
                g.white,
                g.black,
                GameResult.parse(rng.choice(["1-0", "0-1", "="])),
            )
            for g in seat_round(scheduled, made, {})
        )
        played.append(Round(scheduled.number, games))
    players = tuple(p for team in made for p in team.members)
    return made, Tournament(players=players, rounds=tuple(played))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=200)
    parser.add_argument("--boards", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    teams, games = league(options.teams, options.boards, options.rounds)
    times = []
    for _ in range(options.repeat):
        start = time.perf_counter()
        team_standings(games, teams, TIEBREAKS)
        times.append(time.perf_counter() - start)
    print(
        f"{options.teams} teams, {options.boards} boards, {options.rounds} rounds: "
        f"team standings in {statistics.median(times):.3f} s (median of {options.repeat})"
    )


if __name__ == "__main__":
    main()
