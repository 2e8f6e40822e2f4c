"""Baku acceleration (C.04.5.1): fictitious points for the top group in the first rounds."""

from __future__ import annotations

import math
from fractions import Fraction


def baku(players: int, rounds: int) -> dict[int, list[Fraction]]:
    """C.04.5.1: group A (the first 2·⌈N/4⌉ players) gets 1 point in the first
    half (rounded up) of the accelerated rounds and ½ in the rest; the
    accelerated rounds are the first half of the event, rounded up.

    >>> table = baku(161, 9)
    >>> len(table), [str(p) for p in table[1]]
    (82, ['1', '1', '1', '1/2', '1/2'])
    """
    group_a = 2 * math.ceil(players / 4)
    accelerated = math.ceil(rounds / 2)
    full = math.ceil(accelerated / 2)
    row = [Fraction(1)] * full + [Fraction(1, 2)] * (accelerated - full)
    return {start: list(row) for start in range(1, min(group_a, players) + 1)}
