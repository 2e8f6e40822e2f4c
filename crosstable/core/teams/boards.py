"""Each player's own score from their boards, and the board prizes.

A player's score counts every game they played for their team (a forfeit as the
point system scores it). The board prizes go board by board, by this rule:

1. only the games played on that board count (a player who played on two boards has
   a record on each);
2. a player needs at least ``min_games`` games on the board (by default two thirds of
   the rounds, rounded up);
3. the best is the one with the most points; equal points are split by the higher
   percentage (so fewer games is better); still equal, the players share the place.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from crosstable.core.model import Tournament
from crosstable.core.scoring import PointSystem
from crosstable.core.teams.matches import rounds_of_matches
from crosstable.core.teams.roster import Team


@dataclass(frozen=True, slots=True)
class BoardRecord:
    """One player's games on one board (``board`` 0: all boards together)."""

    player: int
    team: int
    board: int
    points: Fraction
    games: int

    @property
    def percentage(self) -> Fraction:
        return Fraction(100) * self.points / self.games if self.games else Fraction(0)


@dataclass(frozen=True, slots=True)
class BoardPrize:
    board: int
    place: int
    record: BoardRecord


def _finished_boards(
    games: Tournament, teams: Sequence[Team]
) -> list[tuple[int, int, int, Fraction]]:
    """(player, team, board, points) of every board with a result."""
    system: PointSystem = games.settings.point_system
    out = []
    for matches in rounds_of_matches(games, teams):
        for match in matches:
            for board, g in enumerate(match.games, 1):
                if g.result is None or not g.result.is_decided:
                    continue
                for start in (g.white, g.black):
                    points = g.outcome_of(start).points(system)
                    out.append((start, match.team_of[start], board, points))
    return out


def player_scores(games: Tournament, teams: Sequence[Team]) -> tuple[BoardRecord, ...]:
    """Every member's own score over all boards (``board`` 0), in team and board order."""
    totals: dict[int, tuple[Fraction, int]] = {}
    for start, _team, _board, points in _finished_boards(games, teams):
        before, count = totals.get(start, (Fraction(0), 0))
        totals[start] = (before + points, count + 1)
    return tuple(
        BoardRecord(start, team.start, 0, *totals.get(start, (Fraction(0), 0)))
        for team in teams
        for start in team.starts
    )


def board_prizes(
    games: Tournament,
    teams: Sequence[Team],
    *,
    min_games: int | None = None,
    places: int = 3,
) -> tuple[BoardPrize, ...]:
    """The best ``places`` on each board by the rule above."""
    rounds = max(games.settings.rounds or 0, len(games.rounds))
    needed = math.ceil(Fraction(2, 3) * rounds) if min_games is None else min_games
    records: dict[tuple[int, int], tuple[int, Fraction, int]] = {}
    for start, team, board, points in _finished_boards(games, teams):
        _, before, count = records.get((board, start), (team, Fraction(0), 0))
        records[(board, start)] = (team, before + points, count + 1)
    boards = max((team.boards for team in teams), default=0)
    out: list[BoardPrize] = []
    for board in range(1, boards + 1):
        candidates = [
            BoardRecord(start, team, board, points, count)
            for (b, start), (team, points, count) in records.items()
            if b == board and count >= max(needed, 1)
        ]
        candidates.sort(key=lambda r: (-r.points, -r.percentage, r.player))
        place = 0
        previous: tuple[Fraction, Fraction] | None = None
        for index, record in enumerate(candidates, 1):
            mark = (record.points, record.percentage)
            if mark != previous:
                place = index
                previous = mark
            if place > places:
                break
            out.append(BoardPrize(board, place, record))
    return tuple(out)


__all__ = ["BoardPrize", "BoardRecord", "board_prizes", "player_scores"]
