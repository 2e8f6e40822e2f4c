"""Team tournaments for the team tests: the hand-computed cases of tests/data/teams/
and generated ones, as core values, and the same as tiebreak-core's records."""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import tiebreak_core.team as tc  # the test-only cross-check package

from crosstable.core.model import Game, GameResult, Player, Round, Tournament
from crosstable.core.teams import Team, TeamField, seat_round, team_round_robin

CASES = Path(__file__).with_name("data") / "teams"

FLIP = {"1-0": "0-1", "0-1": "1-0", "½-½": "½-½", "+-": "-+", "-+": "+-", "--": "--"}


def make_teams(sizes: Sequence[tuple[str, int, int]]) -> list[Team]:
    """Teams numbered 1…N from (name, members, boards); players numbered on."""
    teams, start = [], 1
    for number, (name, members, boards) in enumerate(sizes, 1):
        players = tuple(Player(start + k, f"{name} {k + 1}") for k in range(members))
        start += members
        teams.append(Team(number, name, players, boards))
    return teams


def play(
    teams: Sequence[Team], results: Sequence[Sequence[Sequence[str]]], cycles: int = 1
) -> Tournament:
    """The round robin's games with ``results`` per round, per match, per board from
    the side of the team drawn White."""
    schedule = team_round_robin(teams, cycles=cycles)
    rounds = []
    for scheduled, matches in zip(schedule.rounds, results, strict=False):
        games = seat_round(scheduled, teams, {})
        played: list[Game] = []
        index = 0
        for boards in matches:
            for k, label in enumerate(boards):
                g = games[index]
                index += 1
                text = label if k % 2 == 0 else FLIP[label]
                played.append(Game(g.round, g.board, g.white, g.black, GameResult.parse(text)))
        played.extend(games[index:])
        rounds.append(Round(scheduled.number, tuple(played)))
    players = tuple(p for team in teams for p in team.members)
    return Tournament(players=players, rounds=tuple(rounds))


def load_case(name: str) -> tuple[list[Team], Tournament, dict[str, object]]:
    data = json.loads((CASES / name).read_text(encoding="utf-8"))
    teams = make_teams([(t["name"], len(t["players"]), t["boards"]) for t in data["teams"]])
    return teams, play(teams, data["rounds"]), data["expected"]


def core_records(f: TeamField) -> dict[int, object]:
    """The field as tiebreak-core's TeamRecords."""
    out: dict[int, object] = {}
    for team, record in f.records.items():
        matches = []
        for row in record.rows:
            if row.opponent is None:
                matches.append(tc.TeamMatch(-1, row.round, 0.0, 0.0, tc.UNPLAYED))
            else:
                matches.append(tc.TeamMatch(row.opponent, row.round, float(row.mp), float(row.gp)))
        out[team] = tc.TeamRecord(
            team,
            float(record.mp),
            float(record.gp),
            matches,
            tuple(float(p) for p in record.board_totals(f.boards)),
        )
    return out


def as_fraction(text: str) -> Fraction:
    return Fraction(text)
