"""Battle chess: the colour of each game is drawn just before the game (R-RR-9).

The schedule says who meets whom; who has White is not taken from the table but
drawn by the computer at the moment the game is set up. The draw is fair (each
player White with probability ½) and reproducible, so a disputed colour can be
checked afterwards:

* :func:`draw_colours` uses a ``random.Random`` that the caller injects (already
  seeded); the result depends on how many draws came before.
* :class:`BattleColours` derives each game's draw from the event seed, the round
  and the two players only — the same game gets the same colours whatever order
  the games are set up in. Keep the seed secret until the event is over (anyone
  who knows it can compute every colour in advance), then publish it.

>>> colours = BattleColours(seed=424242)
>>> colours.colours(1, 3, 8) == colours.colours(1, 8, 3)
True
>>> sorted(colours.colours(1, 3, 8))
[3, 8]
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from crosstable.core.errors import RuleError
from crosstable.core.schedule.types import Schedule, ScheduledRound


def draw_colours(first: int, second: int, rng: random.Random) -> tuple[int, int]:
    """``(white, black)`` for a game between ``first`` and ``second``, a fair coin from ``rng``.

    >>> draw_colours(1, 2, random.Random(5))
    (2, 1)
    """
    if first == second:
        raise RuleError(f"player {first} cannot meet themself")
    low, high = sorted((first, second))
    return (low, high) if rng.random() < 0.5 else (high, low)


@dataclass(frozen=True, slots=True)
class BattleColours:
    """Colours drawn game by game from an event ``seed`` (an integer)."""

    seed: int

    def rng(self, round_number: int, first: int, second: int) -> random.Random:
        """The random source of one game: seeded from event seed, round and the two players."""
        low, high = sorted((first, second))
        return random.Random(f"battle:{self.seed}:{round_number}:{low}:{high}")

    def colours(self, round_number: int, first: int, second: int) -> tuple[int, int]:
        """``(white, black)`` of this game."""
        return draw_colours(first, second, self.rng(round_number, first, second))

    def draw_round(self, scheduled: ScheduledRound) -> ScheduledRound:
        """The round with every board's colours drawn (the pairings stay as scheduled)."""
        boards = tuple(self.colours(scheduled.number, w, b) for w, b in scheduled.boards)
        return ScheduledRound(scheduled.number, boards, scheduled.bye, scheduled.cycle)

    def draw_schedule(self, schedule: Schedule) -> Schedule:
        """Every round drawn at once — for checking a finished event or for tests."""
        return Schedule(schedule.players, tuple(self.draw_round(r) for r in schedule.rounds))
