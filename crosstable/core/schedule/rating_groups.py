"""Rating groups: the field sorted by rating and cut into round robins of a chosen size.

Players are numbered by rating rank (1 = highest). The organiser chooses the size
``k`` of a group (3 to 16); quads are rating groups of four. The rule:

1. Every group has from ``low`` to ``k + 2`` players, where ``low`` is ``k − 1``, but
   never fewer than four unless ``k`` is 3 (a group of three or fewer is only made
   when the organiser asks for threes). No group of one or two is ever made.
2. Of the splits that keep to 1., the one with the fewest groups whose size is not
   ``k`` is taken; then the one whose longest group plays the fewest rounds; then the
   one with the smaller groups. (A split never needs both a smaller and a larger
   group: a ``k − 1`` and a ``k + 1`` are two groups of ``k``.)
3. The groups of size ``k`` are at the top of the field and the others at the bottom,
   a smaller group above a larger one.
4. A field too small for two groups (fewer than ``2 × low`` players) and that no
   group size of 1. fits is one round robin of everyone (at least 3 players).
5. Any other field that 1. cannot split is refused, naming the sizes that fit it.

For ``k = 4`` this is the quads rule: the remainder of N mod 4 makes the bottom
group a five (1) or a six (2), or the bottom two a five above a six (3); a field of
3 or 7 is one round robin.

>>> rating_group_sizes(23, 6), rating_group_sizes(23, 8), rating_group_sizes(10, 4)
((6, 6, 6, 5), (8, 8, 7), (4, 6))
"""

from __future__ import annotations

from collections.abc import Sequence

from crosstable.core.errors import RuleError
from crosstable.core.model import Player
from crosstable.core.text import Message

#: the sizes an organiser may choose for a rating group
SMALLEST_SIZE = 3
LARGEST_SIZE = 16
#: the largest field cut into groups (four-digit starting numbers, as in a TRF file)
MOST_PLAYERS = 9999


def round_robin_rounds(size: int) -> int:
    """Rounds of a single round robin of ``size`` players (3 for four, 5 for five).

    >>> [round_robin_rounds(n) for n in (3, 4, 5, 6, 7, 8)]
    [3, 3, 5, 5, 7, 7]
    """
    return size - 1 if size % 2 == 0 else size


def size_bounds(size: int) -> tuple[int, int]:
    """The smallest and largest group allowed when the organiser chooses ``size``.

    >>> size_bounds(3), size_bounds(4), size_bounds(5), size_bounds(8)
    ((3, 5), (4, 6), (4, 7), (7, 10))
    """
    check_size(size)
    low = size if size <= 4 else size - 1
    return low, size + 2


def check_size(size: int) -> None:
    """RuleError unless ``size`` is a size a rating group may be chosen with."""
    if not SMALLEST_SIZE <= size <= LARGEST_SIZE:
        raise RuleError(
            (
                "group size: {size} — a round-robin group has {least} to {most} players "
                "(fewer than 3 would leave a group of one or two)"
            ),
            size=size,
            least=SMALLEST_SIZE,
            most=LARGEST_SIZE,
        )


def _best_split(players: int, size: int) -> tuple[int, ...] | None:
    """Rules 1–3 for ``players`` in groups of about ``size``; None when nothing fits."""
    low, _high = size_bounds(size)
    best: tuple[tuple[int, int, tuple[int, ...]], tuple[int, ...]] | None = None
    for count in range(1, players // low + 1):
        surplus = players - count * size
        if surplus < 0:  # |surplus| groups of size − 1 at the bottom
            if low > size - 1 or -surplus > count:
                continue
            off = (size - 1,) * -surplus
        else:  # the surplus as sixes before fives: each group at most two over
            twos, ones = divmod(surplus, 2)
            if twos + ones > count:
                continue
            off = (size + 1,) * ones + (size + 2,) * twos
        sizes = (size,) * (count - len(off)) + off
        key = (len(off), max(round_robin_rounds(s) for s in sizes), tuple(sorted(sizes)))
        if best is None or key < best[0]:
            best = (key, sizes)
    return None if best is None else best[1]


def fitting_sizes(players: int) -> tuple[int, ...]:
    """The group sizes rule 1 can split ``players`` into (for the refusal's advice).

    >>> fitting_sizes(40)[:6]
    (3, 4, 5, 6, 7, 8)
    """
    return tuple(
        size
        for size in range(SMALLEST_SIZE, LARGEST_SIZE + 1)
        if _best_split(players, size) is not None
    )


def rating_group_sizes(players: int, size: int) -> tuple[int, ...]:
    """The group sizes from the top of the field to the bottom (see the module's rule).

    >>> rating_group_sizes(16, 4), rating_group_sizes(25, 8), rating_group_sizes(7, 4)
    ((4, 4, 4, 4), (8, 8, 9), (7,))
    """
    check_size(size)
    if players < 3:
        raise RuleError(
            "players: {players} — rating groups need at least 3 players", players=players
        )
    if players > MOST_PLAYERS:
        raise RuleError(
            "players: {players} — rating groups are made for at most {most} players",
            players=players,
            most=MOST_PLAYERS,
        )
    sizes = _best_split(players, size)
    if sizes is not None:
        return sizes
    low, high = size_bounds(size)
    if players < 2 * low:
        return (players,)
    raise RuleError(
        (
            "{players} players cannot be cut into groups of {size}: every group needs "
            "{low} to {high} players; group sizes that fit {players} players: {sizes}"
        ),
        players=players,
        size=size,
        low=low,
        high=high,
        sizes=Message.joined(", ", [str(s) for s in fitting_sizes(players)]),
    )


def rating_groups(players: int, size: int) -> tuple[tuple[int, ...], ...]:
    """The groups as rating ranks 1…N, top group first.

    >>> rating_groups(11, 4)
    ((1, 2, 3, 4, 5), (6, 7, 8, 9, 10, 11))
    """
    groups: list[tuple[int, ...]] = []
    first = 1
    for count in rating_group_sizes(players, size):
        groups.append(tuple(range(first, first + count)))
        first += count
    return tuple(groups)


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


def rating_groups_of(players: Sequence[Player], size: int) -> tuple[tuple[Player, ...], ...]:
    """Real players cut into rating groups (see :func:`rating_rank` for the order)."""
    ranked = rating_rank(players)
    return tuple(
        tuple(ranked[rank - 1] for rank in group) for group in rating_groups(len(ranked), size)
    )


def groups_rounds(sizes: Sequence[int]) -> int:
    """The rounds the whole event needs: its longest group's (groups play side by side)."""
    return max(round_robin_rounds(s) for s in sizes)
