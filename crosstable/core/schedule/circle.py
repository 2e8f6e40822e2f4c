"""The circle method (seed 004's walk-through), with a colour allocation.

Write the first half of the numbers on a top row and the second half reversed on
a bottom row; each column is a board. Player 1 stays put; every round the other
numbers move one place round the ring (right along the top row, down at the end,
back along the bottom row). An odd field adds a ghost ``N + 1``: whoever sits
opposite it has the free round. For six players this gives exactly seed 004's
table: ``1–6 2–5 3–4``, ``1–5 6–4 2–3``, ``1–4 5–3 6–2``, ``1–3 4–2 5–6``,
``1–2 3–6 4–5``.

The seed gives no colours; this module allocates them (board ``c`` is column
``c``, board 1 being column 0, player 1's):

* player 1 alternates: White in odd rounds for an even field (``1–6`` in round 1);
  for an odd field White in odd rounds when ``N ≡ 1 (mod 4)``, in even rounds when
  ``N ≡ 3 (mod 4)`` (round 1 is then player 1's free round);
* a column ``c ≥ 1`` left of the ghost's column ``g`` (every column of an even
  field): the top player has White when ``c`` is even, the bottom player when
  ``c`` is odd;
* a column right of the ghost's column: the top player has White when ``g`` is
  odd, the bottom player when ``g`` is even.

Everyone ends within ±1 (an odd field: exactly balanced), nobody gets one colour
three times running and player 1 alternates; docs/schedules.md explains why and
tests/test_circle*.py checks it for every field size up to 300.

>>> [r.boards for r in circle_table(6).rounds][:2]
[((1, 6), (5, 2), (3, 4)), ((5, 1), (4, 6), (2, 3))]
>>> circle_opponent(6, 2, 6)
(4, <Colour.BLACK: 'b'>)
"""

from __future__ import annotations

from crosstable.core.errors import ScheduleError
from crosstable.core.model import Colour
from crosstable.core.schedule.berger import rounds_per_cycle, table_size
from crosstable.core.schedule.types import Schedule, ScheduledRound

__all__ = ["circle_opponent", "circle_round", "circle_table"]


def _check(players: int, number: int) -> int:
    rounds = rounds_per_cycle(players)
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= rounds:
        raise ScheduleError(
            "round {round} does not exist: {players} players play rounds 1…{rounds}",
            round=repr(number),
            players=players,
            rounds=rounds,
        )
    return rounds


def _fixed_white(players: int, number: int) -> bool:
    """Player 1 alternates; the phase keeps every other player balanced in an odd field."""
    odd_round = number % 2 == 1
    if players % 2 == 0:
        return odd_round
    return odd_round == (players % 4 == 1)


def _ghost_column(players: int, number: int) -> int:
    """The column of the ghost ``N + 1`` (``n // 2``, past the last column, for an even field)."""
    n = table_size(players)
    half, m = n // 2, n - 1
    if n == players:
        return half
    position = (m - 1 + number - 1) % m  # the ghost's place on the ring
    if position == m - 1:
        return 0
    return position + 1 if position <= half - 2 else m - 1 - position


def _white_on_top(players: int, number: int, column: int, ghost_column: int) -> bool:
    """Whether the player on the top row of ``column`` has White (module docstring)."""
    if column == 0:
        return _fixed_white(players, number)
    if column < ghost_column:
        return column % 2 == 0
    return ghost_column % 2 == 1


def circle_round(players: int, number: int) -> ScheduledRound:
    """One round of the circle method, board 1 (player 1's) first, White left.

    >>> circle_round(5, 1)
    ScheduledRound(number=1, boards=((5, 2), (4, 3)), bye=1, cycle=1)
    """
    _check(players, number)
    return _Circle(players).round(number)


class _Circle:
    """The ring written twice, so that each round is a few slices and zips (module docstring)."""

    __slots__ = ("half", "m", "players", "ring")

    def __init__(self, players: int) -> None:
        self.players = players
        self.m = table_size(players) - 1
        self.half = (self.m + 1) // 2
        self.ring = list(range(2, self.m + 2)) * 2  # place p of round r: ring[m - (r-1) + p]

    def round(self, number: int) -> ScheduledRound:
        m, half = self.m, self.half
        start = m - (number - 1)
        top = [1, *self.ring[start : start + half - 1]]
        bottom = self.ring[start + m - 1 : start + m - 1 - half : -1]  # bottom[c]: place m-1-c
        ghost = _ghost_column(self.players, number)
        left = min(ghost, half)  # columns 1 … left-1 follow the even-field rule
        boards: list[tuple[int, int]] = [(0, 0)] * half
        boards[0] = (1, bottom[0]) if _fixed_white(self.players, number) else (bottom[0], 1)
        boards[2:left:2] = zip(top[2:left:2], bottom[2:left:2], strict=True)
        boards[1:left:2] = zip(bottom[1:left:2], top[1:left:2], strict=True)
        if ghost >= half:
            return ScheduledRound(number, tuple(boards), None)
        right = ghost + 1
        if ghost % 2:
            boards[right:] = zip(top[right:], bottom[right:], strict=True)
        else:
            boards[right:] = zip(bottom[right:], top[right:], strict=True)
        upper, lower = top[ghost], bottom[ghost]
        del boards[ghost]
        return ScheduledRound(number, tuple(boards), upper if lower > self.players else lower)


def circle_opponent(players: int, number: int, player: int) -> tuple[int | None, Colour]:
    """Opponent and colour of ``player`` in round ``number`` of the circle method, in O(1).

    >>> circle_opponent(5, 1, 1)
    (None, <Colour.NONE: '-'>)
    """
    m = _check(players, number)
    if isinstance(player, bool) or not isinstance(player, int) or not 1 <= player <= players:
        raise ScheduleError(
            "player {player} is not a starting number 1…{players}",
            player=repr(player),
            players=players,
        )
    half = (m + 1) // 2
    shift = number - 1
    ghost = _ghost_column(players, number)

    def at(place: int) -> int:
        return (place - shift) % m + 2

    if player == 1:
        other, column, on_top = at(m - 1), 0, True
    else:
        place = (player - 2 + shift) % m
        if place == m - 1:
            other, column, on_top = 1, 0, False
        else:
            other = at(m - 2 - place)
            on_top = place <= half - 2
            column = place + 1 if on_top else m - 1 - place
    if other > players:
        return None, Colour.NONE
    white_on_top = _white_on_top(players, number, column, ghost)
    return other, Colour.WHITE if white_on_top == on_top else Colour.BLACK


def circle_table(players: int) -> Schedule:
    """One cycle of the circle method for ``players`` (3 or more).

    >>> [sorted(map(sorted, r.boards)) for r in circle_table(6).rounds][1]
    [[1, 5], [2, 3], [4, 6]]
    """
    circle = _Circle(players)
    return Schedule(players, tuple(circle.round(n) for n in range(1, circle.m + 1)))
