"""Double and multiple round robins (RULES.md §1.3).

Cycle 1 is the single-cycle table with its last two rounds exchanged (FIDE's
recommendation, ``swap_last_rounds``, on by default); cycle 2 is the table in
its own round order with every colour reversed. Further cycles repeat the
pattern: odd cycles like cycle 1, even cycles like cycle 2. Round numbers run on
across cycles and each round records its ``cycle``.

With the exchange nobody has three games in a row with one colour across the
first junction; without it players 1 and ``n/2 + 1`` do. A junction between
cycle 2 and cycle 3 can give three in a row (player 1 in a Berger table ends
cycle 2 with White and starts cycle 3 with two Whites): :func:`verify_schedule`
reports it, nothing hides it.

>>> double = berger_schedule(4, cycles=2)
>>> [(r.number, r.cycle, r.boards) for r in double.rounds]  # doctest: +NORMALIZE_WHITESPACE
[(1, 1, ((1, 4), (2, 3))), (2, 1, ((2, 4), (3, 1))), (3, 1, ((4, 3), (1, 2))),
 (4, 2, ((4, 1), (3, 2))), (5, 2, ((3, 4), (2, 1))), (6, 2, ((4, 2), (1, 3)))]
"""

from __future__ import annotations

from crosstable.core.errors import ScheduleError
from crosstable.core.schedule.berger import berger_table
from crosstable.core.schedule.circle import circle_table
from crosstable.core.schedule.types import Schedule, ScheduledRound

__all__ = ["berger_schedule", "circle_schedule", "repeat_cycles"]


def repeat_cycles(single: Schedule, cycles: int = 2, *, swap_last_rounds: bool = True) -> Schedule:
    """Play the single-cycle ``single`` ``cycles`` times (odd cycles as cycle 1, even as cycle 2).

    With one cycle the table is returned unchanged: the exchange of the last two
    rounds only matters at a junction.

    >>> table = berger_table(3)
    >>> [(r.number, r.cycle, r.boards, r.bye) for r in repeat_cycles(table, 2).rounds][2:4]
    [(3, 1, ((1, 2),), 3), (4, 2, ((3, 2),), 1)]
    """
    if isinstance(cycles, bool) or not isinstance(cycles, int) or cycles < 1:
        raise ScheduleError(
            "the number of cycles must be 1 or more, not {cycles}", cycles=repr(cycles)
        )
    base = single.rounds
    if any(r.cycle != 1 for r in base) or [r.number for r in base] != list(range(1, len(base) + 1)):
        raise ScheduleError("repeat_cycles needs one cycle with rounds numbered 1, 2, …")
    if cycles == 1:
        return single
    first = list(base)
    if swap_last_rounds and len(first) >= 2:
        first[-2], first[-1] = first[-1], first[-2]
    count = len(base)
    second: list[ScheduledRound] | None = None
    rounds: list[ScheduledRound] = []
    for cycle in range(1, cycles + 1):
        offset = (cycle - 1) * count
        if cycle % 2:
            rounds.extend(r.renumbered(offset + i, cycle) for i, r in enumerate(first, start=1))
        elif second is None:
            second = [
                r.with_colours_reversed(offset + i, cycle) for i, r in enumerate(base, start=1)
            ]
            rounds.extend(second)
        else:  # share the reversed columns built for cycle 2
            rounds.extend(r.renumbered(offset + i, cycle) for i, r in enumerate(second, start=1))
    return Schedule(single.players, tuple(rounds))


def berger_schedule(players: int, cycles: int = 1, *, swap_last_rounds: bool = True) -> Schedule:
    """The FIDE Berger schedule for ``players``, single or over several cycles.

    >>> len(berger_schedule(6, cycles=2).rounds), len(berger_schedule(7, cycles=4).rounds)
    (10, 28)
    """
    return repeat_cycles(berger_table(players), cycles, swap_last_rounds=swap_last_rounds)


def circle_schedule(players: int, cycles: int = 1, *, swap_last_rounds: bool = True) -> Schedule:
    """The circle-method schedule for ``players``, single or over several cycles.

    >>> circle_schedule(4, cycles=2).rounds[3].boards
    ((4, 1), (2, 3))
    """
    return repeat_cycles(circle_table(players), cycles, swap_last_rounds=swap_last_rounds)
