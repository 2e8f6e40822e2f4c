"""Pairing systems that pair every round before round 1, registered by system.

A :class:`FixedPairing` takes the competitors of a section (players or teams, any
registered kind: :mod:`crosstable.core.competitor`) and gives the whole schedule by
starting number. The round robin pairs competitors (a team round robin is the same
Berger table over teams; :func:`match_boards` then seats each match's boards); the
Scheveningen is given two teams and pairs their members. A new system of this shape
is one class with ``system`` and ``schedule``, registered with :func:`register_pairing`
(its :class:`~crosstable.core.model.System` value from
:func:`~crosstable.core.model.register_system`).

>>> from crosstable.core.competitor import Competitor
>>> from crosstable.core.model import Player, System
>>> teams = tuple(Competitor(n, f"T{n}", (Player(2 * n - 1, "a"), Player(2 * n, "b")),
...     kind="team", boards=2) for n in (1, 2, 3, 4))
>>> rr = fixed_pairing(System.ROUND_ROBIN).schedule(teams)
>>> rr.rounds[0].boards
((1, 4), (2, 3))
>>> match_boards(rr, teams).rounds[0].boards
((1, 7), (8, 2), (3, 5), (6, 4))
>>> [r.boards for r in fixed_pairing(System.SCHEVENINGEN).schedule(teams[:2]).rounds]
[((1, 3), (2, 4)), ((4, 1), (3, 2))]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from crosstable.core.competitor import Competitor
from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.schedule import Schedule, ScheduledRound
from crosstable.core.schedule.kinds import round_robin_table, schedule_kind
from crosstable.core.schedule.scheveningen import scheveningen


class FixedPairing(Protocol):
    """A system whose whole schedule is known at the start."""

    system: System

    def schedule(
        self,
        competitors: Sequence[Competitor],
        *,
        cycles: int = 1,
        swap_last_rounds: bool = True,
        details: Mapping[str, object] | None = None,
    ) -> Schedule:
        """Every round, by the starting numbers of who sits at each board (``details``:
        the regulations' details, for a system's own settings)."""
        ...


_PAIRINGS: dict[System, FixedPairing] = {}


def register_pairing(pairing: FixedPairing) -> FixedPairing:
    """Make ``pairing`` the schedule of its system."""
    _PAIRINGS[pairing.system] = pairing
    return pairing


def unregister_pairing(system: System) -> None:
    _PAIRINGS.pop(system, None)


def fixed_pairing(system: System) -> FixedPairing:
    """The registered schedule of ``system``."""
    try:
        return _PAIRINGS[system]
    except KeyError:
        raise RuleError(
            "{system} is not paired before round 1", system=repr(system.value)
        ) from None


def numbered(competitors: Sequence[Competitor]) -> int:
    """How many competitors; RuleError unless they are numbered 1…N in order."""
    if [c.start for c in competitors] != list(range(1, len(competitors) + 1)):
        raise RuleError("starting numbers must be 1…N in order, each once")
    return len(competitors)


class RoundRobinPairing:
    """FIDE Berger tables over the competitors (or the circle method, when the
    regulations' ``schedule`` says so), single or in cycles."""

    system = System.ROUND_ROBIN

    def schedule(
        self,
        competitors: Sequence[Competitor],
        *,
        cycles: int = 1,
        swap_last_rounds: bool = True,
        details: Mapping[str, object] | None = None,
    ) -> Schedule:
        kind = schedule_kind(details)
        players = numbered(competitors)
        return round_robin_table(kind, players, cycles, swap_last_rounds=swap_last_rounds)


class ScheveningenPairing:
    """Two teams of equal size; every member meets every member of the other team.
    The members are numbered team by team (the first team 1…n, the second n+1…2n)."""

    system = System.SCHEVENINGEN

    def schedule(
        self,
        competitors: Sequence[Competitor],
        *,
        cycles: int = 1,
        swap_last_rounds: bool = True,
        details: Mapping[str, object] | None = None,
    ) -> Schedule:
        numbered(competitors)
        if len(competitors) != 2:
            raise RuleError(
                "a Scheveningen is played by exactly two teams; there are {count}",
                count=len(competitors),
            )
        first, second = competitors
        size = len(first.members)
        if len(second.members) != size:
            raise RuleError(
                (
                    "the two teams of a Scheveningen need the same number of players: {first} has "
                    "{size_first}, {second} has {size_second}"
                ),
                first=repr(first.name),
                size_first=size,
                second=repr(second.name),
                size_second=len(second.members),
            )
        starts = [p.start for p in first.members + second.members]
        if starts != list(range(1, 2 * size + 1)):
            raise RuleError("the members of a Scheveningen are numbered team by team")
        return scheveningen(size, cycles=cycles)


def match_boards(schedule: Schedule, teams: Sequence[Competitor]) -> Schedule:
    """A schedule of team matches seated board by board: board 1 of a match has the
    team listed White with White, and the colours alternate down the boards (the
    shorter team's missing boards are left out)."""
    by_start = {team.start: team for team in teams}
    rounds = []
    for scheduled in schedule.rounds:
        boards: list[tuple[int, int]] = []
        for white, black in scheduled.boards:
            home, away = by_start[white].board_players, by_start[black].board_players
            for board, (a, b) in enumerate(zip(home, away, strict=False)):
                boards.append((a.start, b.start) if board % 2 == 0 else (b.start, a.start))
        # a team's free round: its members have no game that round
        rounds.append(ScheduledRound(scheduled.number, boards, None, scheduled.cycle))
    players = sum(len(team.members) for team in teams)
    return Schedule(players, tuple(rounds))


register_pairing(RoundRobinPairing())
register_pairing(ScheveningenPairing())

__all__ = [
    "FixedPairing",
    "RoundRobinPairing",
    "ScheveningenPairing",
    "fixed_pairing",
    "match_boards",
    "numbered",
    "register_pairing",
    "unregister_pairing",
]
