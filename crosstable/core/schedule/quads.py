"""Quads: the field sorted by rating and cut into round robins of four.

Quads are the rating groups of four of :mod:`crosstable.core.schedule.rating_groups`
(the same code for any size); the rule, for four:

Players are numbered by rating rank (1 = highest). Groups of four are cut from
the top (1–4, 5–8, …); a group of three is never left over:

=======  =====================================================================
N mod 4  bottom of the field
=======  =====================================================================
0        groups of four only
1        the bottom group has five
2        the bottom group has six
3        the bottom eleven form a five and then a six (the six is the last group)
=======  =====================================================================

Small fields are one round robin: N = 3, 5, 6 and 7 (seed 001's "bottom seven
or nine into a five or a six" cannot be read literally for seven). N < 3 is an
error. Group sizes therefore never decrease down the field — the larger groups
are at the bottom, as in the N mod 4 = 1 and 2 cases, so the bottom eleven are a
five above a six. A group of four plays 3 rounds, five and six play 5, seven 7.

>>> quad_sizes(11), quad_sizes(15), quad_sizes(7)
((5, 6), (4, 5, 6), (7,))
>>> quads(10)
((1, 2, 3, 4), (5, 6, 7, 8, 9, 10))
"""

from __future__ import annotations

from collections.abc import Sequence

from crosstable.core.errors import RuleError
from crosstable.core.model import Player
from crosstable.core.schedule.rating_groups import (
    rating_group_sizes,
    rating_groups,
    rating_groups_of,
    rating_rank,
    round_robin_rounds,
)

__all__ = ["group_rounds", "quad_sizes", "quads", "quads_of", "rating_rank"]


def quad_sizes(players: int) -> tuple[int, ...]:
    """The group sizes from the top of the field to the bottom (rating groups of four).

    >>> quad_sizes(16), quad_sizes(9)
    ((4, 4, 4, 4), (4, 5))
    """
    if players < 3:
        raise RuleError("players: {players} — quads need at least 3 players", players=players)
    return rating_group_sizes(players, 4)


def quads(players: int) -> tuple[tuple[int, ...], ...]:
    """The groups as rating ranks 1…N, top group first."""
    quad_sizes(players)  # (the quads' own message for a field too small)
    return rating_groups(players, 4)


def group_rounds(size: int) -> int:
    """Rounds of a single round robin of ``size`` (3 for a quad).

    >>> [group_rounds(n) for n in (3, 4, 5, 6, 7)]
    [3, 3, 5, 5, 7]
    """
    return round_robin_rounds(size)


def quads_of(players: Sequence[Player]) -> tuple[tuple[Player, ...], ...]:
    """Real players cut into quads (see :func:`rating_rank` for the order)."""
    quad_sizes(len(players))
    return rating_groups_of(players, 4)
