"""FIDE Berger tables (Handbook C.05, Annex 1) for any field of 3 players or more.

The table for an even size ``n`` has ``m = n - 1`` rounds. In round ``r``:

* player ``n`` meets ``x`` with ``2x ≡ r + 1 (mod m)`` on board 1, with Black in
  odd rounds and White in even rounds (so ``n`` alternates perfectly);
* board ``k`` (``k = 2 … n/2``) is ``x + (k - 1)`` (White) against ``x - (k - 1)``
  (Black), both wrapped into ``1 … m``.

That second line is FIDE's colour rule in disguise (two players ``i, j < n`` meet
in the round with ``i + j ≡ r + 1``; the lower number has White when ``i + j`` is
odd, the higher when it is even): without wrapping the higher number is
``x + (k - 1)``, and wrapping makes the sum odd and puts that player below. An odd
field uses the table of ``n + 1``; whoever meets ``n + 1`` has the free round
(the ``bye``) and that game is not a board (RULES.md §1.2).

>>> berger_round(6, 2).boards
((6, 4), (5, 3), (1, 2))
>>> berger_round(5, 2)
ScheduledRound(number=2, boards=((5, 3), (1, 2)), bye=4, cycle=1)
>>> berger_opponent(6, 2, 1)
(2, <Colour.WHITE: 'w'>)
>>> berger_opponent(5, 1, 1)
(None, <Colour.NONE: '-'>)
"""

from __future__ import annotations

from crosstable.core.errors import ScheduleError
from crosstable.core.model import Colour
from crosstable.core.schedule.types import Schedule, ScheduledRound

__all__ = [
    "berger_opponent",
    "berger_round",
    "berger_table",
    "rounds_per_cycle",
    "table_size",
]


def _check_players(players: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int):
        raise ScheduleError(
            "the number of players must be a whole number, not {players}", players=repr(players)
        )
    if players < 3:
        raise ScheduleError(
            "a round robin needs at least 3 players, not {players}", players=players
        )


def table_size(players: int) -> int:
    """The even size of the Berger table used for ``players`` (the next even number).

    >>> table_size(7), table_size(8)
    (8, 8)
    """
    _check_players(players)
    return players + (players & 1)


def rounds_per_cycle(players: int) -> int:
    """Rounds of one cycle: ``N - 1`` for an even field, ``N`` for an odd one.

    >>> rounds_per_cycle(6), rounds_per_cycle(7)
    (5, 7)
    """
    return table_size(players) - 1


def _check_round(players: int, number: int) -> int:
    rounds = rounds_per_cycle(players)
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= rounds:
        raise ScheduleError(
            "round {round} does not exist: {players} players play rounds 1…{rounds}",
            round=repr(number),
            players=players,
            rounds=rounds,
        )
    return rounds


def _pivot_opponent(number: int, m: int) -> int:
    """Who meets the highest number of the table in round ``number`` (``2x ≡ r + 1``)."""
    return (number + 1) // 2 if number & 1 else (number + 1 + m) // 2


def berger_opponent(players: int, number: int, player: int) -> tuple[int | None, Colour]:
    """Opponent and colour of ``player`` in round ``number``, in O(1) without building the table.

    Returns ``(None, Colour.NONE)`` for the free round of an odd field.

    >>> berger_opponent(8, 3, 1)
    (3, <Colour.BLACK: 'b'>)
    >>> berger_opponent(8, 2, 8)
    (5, <Colour.WHITE: 'w'>)
    """
    m = _check_round(players, number)
    n = m + 1
    if isinstance(player, bool) or not isinstance(player, int) or not 1 <= player <= players:
        raise ScheduleError(
            "player {player} is not a starting number 1…{players}",
            player=repr(player),
            players=players,
        )
    if player == n:  # the pivot: Black in odd rounds, White in even rounds
        colour = Colour.WHITE if number % 2 == 0 else Colour.BLACK
        return _pivot_opponent(number, m), colour
    other = (number - player) % m + 1  # player + other ≡ number + 1 (mod m)
    if other == player:  # meets the pivot
        if n != players:
            return None, Colour.NONE
        return n, Colour.WHITE if number & 1 else Colour.BLACK
    lower_white = (player + other) & 1
    white = min(player, other) if lower_white else max(player, other)
    return other, Colour.WHITE if white == player else Colour.BLACK


class _Rotation:
    """Precomputed wrap-around list of 1…m so that each round is two slices and a zip."""

    __slots__ = ("half", "m", "n", "odd", "ring")

    def __init__(self, players: int) -> None:
        self.n = table_size(players)
        self.m = self.n - 1
        self.half = self.n // 2
        self.odd = self.n != players
        # ring[i] == i % m + 1, long enough for every slice below
        self.ring = list(range(1, self.m + 1)) * 3

    def round(self, number: int) -> ScheduledRound:
        m, half, ring = self.m, self.half, self.ring
        x = _pivot_opponent(number, m)
        # whites x+1 … x+half-1 and blacks x-1 … x-half+1, wrapped into 1…m
        start = m + x
        whites = ring[start : start + half - 1]
        blacks = ring[start - 2 : start - half - 1 : -1]
        if self.odd:
            return ScheduledRound(number, bye=x, whites=tuple(whites), blacks=tuple(blacks))
        if number & 1:
            return ScheduledRound(number, whites=(x, *whites), blacks=(self.n, *blacks))
        return ScheduledRound(number, whites=(self.n, *whites), blacks=(x, *blacks))


def berger_round(players: int, number: int) -> ScheduledRound:
    """One round of the Berger table in O(players), board 1 first, White left.

    >>> berger_round(10, 2).boards
    ((10, 6), (7, 5), (8, 4), (9, 3), (1, 2))
    """
    _check_round(players, number)
    return _Rotation(players).round(number)


def berger_table(players: int) -> Schedule:
    """One cycle of the FIDE Berger table for ``players``, in O(players²).

    >>> [r.boards for r in berger_table(4).rounds]
    [((1, 4), (2, 3)), ((4, 3), (1, 2)), ((2, 4), (3, 1))]
    >>> [r.bye for r in berger_table(3).rounds]
    [1, 3, 2]
    """
    rotation = _Rotation(players)
    build = rotation.round
    return Schedule(players, tuple(build(number) for number in range(1, rotation.m + 1)))
