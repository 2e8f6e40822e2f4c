"""The start of a team round robin: the teams' lots, the players numbered team by
team, the Berger table over the teams, and every round's boards seated.

1. The teams draw their numbers (the service's random source, so a test or a replay
   draws the same).
2. The players are numbered team by team in the drawn order, each team's members in
   its board order (team 1's players 1…, then team 2's …), as a Scheveningen does.
3. The teams are paired on the FIDE Berger tables (double: the second cycle with the
   colours reversed); each match's boards are seated from the teams' line-ups (at the
   start, each team's first boards in its board order), board 1 White for the team
   drawn White, the colours alternating down the boards.
"""

from __future__ import annotations

import random as _random
from collections.abc import Sequence

from crosstable.core.errors import RuleError
from crosstable.core.teams import seat_round, team_round_robin
from crosstable.core.text import Message
from crosstable.service.frame import Done
from crosstable.service.loading import Loaded
from crosstable.service.teams.rows import TeamRows, core_teams, settings_of, team_rows
from crosstable.service.unit import Tx
from crosstable.store.models import GameRow, RoundRow
from crosstable.store.team_models import LineupRow, TeamRow


def number_teams(tx: Tx, loaded: Loaded, rows: TeamRows, order: Sequence[TeamRow]) -> None:
    """Number the teams 1… in ``order`` and their players team by team, each team's
    members in its board order (team 1's players 1…, then team 2's …)."""
    for team in rows.teams:
        tx.update(team, start=None)
    for entry in loaded.entries:
        tx.update(entry, start=None)
    tx.flush()
    start = 0
    for number, team in enumerate(order, 1):
        tx.update(team, start=number)
        for member in rows.members.get(team.number, ()):
            start += 1
            tx.update(loaded.by_number[member.entry], start=start)


def start_team_round_robin(tx: Tx, loaded: Loaded, random: _random.Random | None) -> Done:
    row = tx.tournament
    settings = settings_of(row)
    rows = team_rows(tx.session, row.id)
    core_teams(rows, loaded.by_number, settings)  # every team complete, before anything
    members = {m.entry for team in rows.members.values() for m in team}
    for entry in loaded.entries:
        if entry.number not in members:
            raise RuleError(
                "player {player} is in no team: add the players with their teams",
                player=entry.name,
            )
    order = list(rows.teams)
    (random or _random.Random()).shuffle(order)
    number_teams(tx, loaded, rows, order)
    tx.flush()
    teams = core_teams(rows, loaded.by_number, settings)
    entry_of = {e.start: e.number for e in loaded.entries if e.start is not None}
    number_of = {team.start: team.number for team in rows.teams if team.start is not None}
    schedule = team_round_robin(teams, cycles=row.cycles)
    for scheduled in schedule.rounds:
        tx.insert(RoundRow(number=scheduled.number, cycle=scheduled.cycle))
    tx.flush()
    for scheduled in schedule.rounds:
        for game in seat_round(scheduled, teams, {}):
            tx.insert(
                GameRow(
                    round=game.round,
                    board=game.board,
                    white=entry_of[game.white],
                    black=entry_of[game.black],
                    result=None,
                    reason="normal",
                    version=1,
                )
            )
        for white, black in scheduled.boards:
            for team_start in (white, black):
                lineup = teams[team_start - 1].default_lineup(scheduled.number)
                for board, player in enumerate(lineup.players, 1):
                    tx.insert(
                        LineupRow(
                            round=scheduled.number,
                            team=number_of[team_start],
                            board=board,
                            entry=entry_of[player],
                        )
                    )
    tx.flush()
    tx.update(row, status="running")
    rounds = len(schedule.rounds)
    return Done(
        Message(
            "team tournament started: {teams} teams, {rounds} rounds, {boards} boards a match",
            teams=len(teams),
            rounds=rounds,
            boards=settings.boards,
        ),
        {"rounds": rounds, "teams": [team.name for team in teams]},
    )


__all__ = ["start_team_round_robin"]
