"""Quads: the field sorted by rating and cut into round robins of four (R-RR-17).

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

_SMALL = {3: (3,), 5: (5,), 6: (6,), 7: (7,)}
_BOTTOM = {0: (), 1: (5,), 2: (6,), 3: (5, 6)}


def quad_sizes(players: int) -> tuple[int, ...]:
    """The group sizes from the top of the field to the bottom.

    >>> quad_sizes(16), quad_sizes(9)
    ((4, 4, 4, 4), (4, 5))
    """
    if players < 3:
        raise RuleError("players: {players} — quads need at least 3 players", players=players)
    if players in _SMALL:
        return _SMALL[players]
    bottom = _BOTTOM[players % 4]
    fours = (players - sum(bottom)) // 4
    return (4,) * fours + bottom


def quads(players: int) -> tuple[tuple[int, ...], ...]:
    """The groups as rating ranks 1…N, top group first."""
    groups: list[tuple[int, ...]] = []
    first = 1
    for size in quad_sizes(players):
        groups.append(tuple(range(first, first + size)))
        first += size
    return tuple(groups)


def group_rounds(size: int) -> int:
    """Rounds of a single round robin of ``size`` (3 for a quad).

    >>> [group_rounds(n) for n in (3, 4, 5, 6, 7)]
    [3, 3, 5, 5, 7]
    """
    return size - 1 if size % 2 == 0 else size


def rating_rank(players: Sequence[Player]) -> tuple[Player, ...]:
    """Players by rating: highest first, unrated last, ties by name, then input order.

    >>> ranked = rating_rank([Player(1, "Cy"), Player(2, "Bo", 1800), Player(3, "Al", 1800)])
    >>> [p.name for p in ranked]
    ['Al', 'Bo', 'Cy']
    """
    ordered = sorted(
        enumerate(players),
        key=lambda item: (
            item[1].rating is None,
            -(item[1].rating or 0),
            item[1].name.casefold(),
            item[1].name,
            item[0],
        ),
    )
    return tuple(player for _, player in ordered)


def quads_of(players: Sequence[Player]) -> tuple[tuple[Player, ...], ...]:
    """Real players cut into quads (see :func:`rating_rank` for the order)."""
    ranked = rating_rank(players)
    return tuple(tuple(ranked[rank - 1] for rank in group) for group in quads(len(ranked)))
