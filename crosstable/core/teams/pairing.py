"""A team round robin: the teams paired on the FIDE Berger tables, each match seated
board by board from the round's line-ups.

>>> from crosstable.core.model import Player
>>> def team(n): return Team(n, f"T{n}", (Player(2 * n - 1, "a"), Player(2 * n, "b")), 2)
>>> teams = [team(n) for n in (1, 2, 3, 4)]
>>> schedule = team_round_robin(teams)
>>> schedule.rounds[0].boards
((1, 4), (2, 3))
>>> [(g.board, g.white, g.black) for g in seat_round(schedule.rounds[0], teams, {})]
[(1, 1, 7), (2, 8, 2), (3, 3, 5), (4, 6, 4)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from crosstable.core.model import Game, System
from crosstable.core.pairing_systems import fixed_pairing
from crosstable.core.schedule import Schedule, ScheduledRound
from crosstable.core.teams.matches import seat_match
from crosstable.core.teams.roster import LineUp, Team, check_rosters


def team_round_robin(teams: Sequence[Team], *, cycles: int = 1) -> Schedule:
    """The teams' Berger tables (``cycles`` 2: the double round robin, colours reversed)."""
    check_rosters(teams)
    return fixed_pairing(System.ROUND_ROBIN).schedule(
        [team.competitor() for team in teams], cycles=cycles
    )


def seat_round(
    scheduled: ScheduledRound, teams: Sequence[Team], lineups: Mapping[int, LineUp]
) -> tuple[Game, ...]:
    """The round's games: each match's line-ups (a team without one: its first boards),
    board 1 of each match White for the team drawn White, boards numbered on through
    the round."""
    by_start = {team.start: team for team in teams}
    games: list[Game] = []
    for white, black in scheduled.boards:
        sides = [
            (lineups.get(t) or by_start[t].default_lineup(scheduled.number)).players
            for t in (white, black)
        ]
        games.extend(seat_match(scheduled.number, len(games) + 1, sides[0], sides[1]))
    return tuple(games)


__all__ = ["seat_round", "team_round_robin"]
