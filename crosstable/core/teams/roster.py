"""Teams with a fixed board order, and the line-up each round within it.

A :class:`Team` lists its players in board order: the first ``boards`` are its
regular boards, the rest reserves; one member may be the captain. Each round a
team names a :class:`LineUp` of exactly ``boards`` members, board 1 first. The
board-order rule: a player may not play above a member listed ahead of them in the
team's order (players may be left out, the order of those who play is kept), unless
the regulations allow a free order.

>>> from crosstable.core.model import Player
>>> team = Team(1, "Ararat", tuple(Player(n, f"P{n}") for n in (1, 2, 3)), boards=2, captain=3)
>>> check_lineup(team, LineUp(1, 1, (1, 3)))
>>> check_lineup(team, LineUp(1, 1, (3, 1)))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
crosstable.core.errors.RuleError: round 1, team 1: player 3 on board 1 is listed after player 1 ...
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from crosstable.core.competitor import TEAM, Competitor, check_competitors
from crosstable.core.errors import RuleError
from crosstable.core.model import Player


@dataclass(frozen=True, slots=True)
class Team:
    """A team: starting number, name, members in board order, boards played, captain."""

    start: int
    name: str
    members: tuple[Player, ...]
    boards: int
    captain: int | None = None

    def __post_init__(self) -> None:
        self.competitor()  # the competitor's own checks: players, boards
        if self.captain is not None and self.captain not in self.starts:
            raise RuleError(
                "team {team}: the captain {player} is not one of its players",
                team=self.start,
                player=self.captain,
            )

    @property
    def starts(self) -> tuple[int, ...]:
        """The members' starting numbers, in board order."""
        return tuple(p.start for p in self.members)

    def competitor(self) -> Competitor:
        """The team as a competitor of the ``team`` kind."""
        return Competitor(self.start, self.name, self.members, kind="team", boards=self.boards)

    def default_lineup(self, round_number: int) -> LineUp:
        """The first ``boards`` members, in board order."""
        return LineUp(round_number, self.start, self.starts[: self.boards])


@dataclass(frozen=True, slots=True)
class LineUp:
    """Who plays for ``team`` in ``round``: starting numbers, board 1 first."""

    round: int
    team: int
    players: tuple[int, ...]


def check_rosters(teams: Sequence[Team]) -> None:
    """The teams are numbered 1…N in order and no player is in two teams."""
    check_competitors(TEAM, [team.competitor() for team in teams])
    seen: dict[int, int] = {}
    for team in teams:
        for start in team.starts:
            if start in seen:
                raise RuleError(
                    "player {player} is in two teams: {first} and {second}",
                    player=start,
                    first=seen[start],
                    second=team.start,
                )
            seen[start] = team.start


def check_lineup(team: Team, lineup: LineUp, *, free_order: bool = False) -> None:
    """RuleError unless ``lineup`` is ``boards`` different members of ``team`` in an
    order the board-order rule allows (any order with ``free_order``)."""
    where = {"round": lineup.round, "team": team.start}
    if lineup.team != team.start:
        raise RuleError("round {round}: the line-up is not of team {team}", **where)
    if len(lineup.players) != team.boards:
        raise RuleError(
            "round {round}, team {team}: {players} players for {boards} boards",
            players=len(lineup.players),
            boards=team.boards,
            **where,
        )
    position = {start: index for index, start in enumerate(team.starts)}
    seen: set[int] = set()
    for start in lineup.players:
        if start not in position:
            raise RuleError(
                "round {round}, team {team}: player {player} is not in the team",
                player=start,
                **where,
            )
        if start in seen:
            raise RuleError(
                "round {round}, team {team}: player {player} is on two boards",
                player=start,
                **where,
            )
        seen.add(start)
    if free_order:
        return
    for board, (upper, lower) in enumerate(
        zip(lineup.players, lineup.players[1:], strict=False), 1
    ):
        if position[upper] > position[lower]:
            raise RuleError(
                (
                    "round {round}, team {team}: player {player} on board {board} is listed "
                    "after player {other} on board {other_board}; the board order does not "
                    "allow it"
                ),
                player=upper,
                board=board,
                other=lower,
                other_board=board + 1,
                **where,
            )


__all__ = ["LineUp", "Team", "check_lineup", "check_rosters"]
