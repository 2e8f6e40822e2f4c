"""A stage's groups: how many, how large, and who plays in which.

The rule (seed 002: "the number of groups and the number of players in a group
are computed automatically"):

* the **fewest** groups of at most ``max_size`` players — ⌈N / max_size⌉;
* sizes as **equal** as possible (they differ by at most one), the larger groups
  first;
* **none under 3** (a round robin of two is a match, not a group). With fewer than
  3 players there is no group at all, and when the fewest groups would leave one
  under 3 there is no split that keeps every rule (only a very small
  ``max_size`` does that: 5 players at most 4 a group, or 4 players at most 3):
  both are refused with the reason, nothing is guessed.

``max_size`` defaults to :data:`DEFAULT_MAX_GROUP_SIZE` = 10: the portal's tables
are one screen wide at ten (a 10-player round robin is 9 rounds, 45 games, and
its crosstable still fits a phone in landscape), and ten per group keeps stage 1
of 10 000 entries at 1 000 groups.

>>> group_sizes_for(23)
(8, 8, 7)
>>> group_sizes_for(40), group_sizes_for(41)
((10, 10, 10, 10), (9, 8, 8, 8, 8))

Seeding spreads the strongest (:func:`seed_groups`): the entrants are put in
seeding order (:func:`seeding_order`) and dealt in *snake* order — seeds 1…g to
groups 1…g, seeds g+1…2g back from group g to 1, and so on, each row passing
over the groups that are full. So every group gets one of the top g, one of the
next g, and the groups' rating sums stay close.

>>> seed_groups([Entrant(k, 2000 - k) for k in range(1, 8)], max_size=4)
((1, 4, 5, 7), (2, 3, 6))

At stage 2 and later the seeding order is the previous stage's result: group
winners first, then the runners-up and so on, each place by rating.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from crosstable.core.errors import RuleError

#: the most players in one group unless the series says otherwise (see the module text)
DEFAULT_MAX_GROUP_SIZE = 10
#: a round robin group has at least three players
MIN_GROUP_SIZE = 3
#: the largest group size a series may set (a 100-player round robin is 99 rounds)
MAX_GROUP_SIZE = 100
#: the most entries one stage may have (bounds memory and time of one computation)
MAX_ENTRIES = 1_000_000


def group_sizes_for(players: int, max_size: int = DEFAULT_MAX_GROUP_SIZE) -> tuple[int, ...]:
    """The stage's group sizes, largest first (see the module text for the rule)."""
    if not MIN_GROUP_SIZE <= max_size <= MAX_GROUP_SIZE:
        raise RuleError(
            "max group size {size}: between {low} and {high}",
            size=max_size,
            low=MIN_GROUP_SIZE,
            high=MAX_GROUP_SIZE,
        )
    if players > MAX_ENTRIES:
        raise RuleError(
            "{players} players: at most {most} in one stage", players=players, most=MAX_ENTRIES
        )
    if players < MIN_GROUP_SIZE:
        raise RuleError(
            "{players} players: a group needs at least {least}",
            players=players,
            least=MIN_GROUP_SIZE,
        )
    groups = -(-players // max_size)
    base, extra = divmod(players, groups)
    if base < MIN_GROUP_SIZE:
        raise RuleError(
            (
                "{players} players cannot be split into groups of {low} to {high} whose sizes "
                "differ by at most one (allow larger groups)"
            ),
            players=players,
            low=MIN_GROUP_SIZE,
            high=max_size,
        )
    return (base + 1,) * extra + (base,) * (groups - extra)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player entering a stage, as the seeding sees them.

    ``key`` is the caller's id of the player (an entry or account id; the
    tie-break of last resort, so pass keys in registration order or drawn by
    lot). ``place`` and ``group`` are the place and the group (0 = A) of a
    qualifier in the previous stage; ``None`` at stage 1.
    """

    key: int
    rating: int | None = None
    place: int | None = None
    group: int | None = None


def seeding_order(entrants: Sequence[Entrant]) -> tuple[Entrant, ...]:
    """Strongest first: by the previous stage's place (all group winners, then all
    runners-up …; entrants without a place after those with one), then by rating
    (unrated last), then by the previous group (A first), then by key.

    >>> [e.key for e in seeding_order([Entrant(1, 1500, 2, 0), Entrant(2, 1400, 1, 1),
    ...                                 Entrant(3, None, 1, 0), Entrant(4, 1600, 1, 2)])]
    [4, 2, 3, 1]
    """
    keys = [e.key for e in entrants]
    if len(set(keys)) != len(keys):
        raise RuleError("a player enters the stage twice")

    def order(e: Entrant) -> tuple[int, int, int, int]:
        place = e.place if e.place is not None else 1 << 30
        rating = -e.rating if e.rating is not None else 1
        return (place, rating, e.group if e.group is not None else 0, e.key)

    return tuple(sorted(entrants, key=order))


def deal_snake(ordered: Sequence[int], sizes: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Deal ``ordered`` (strongest first) into groups of ``sizes`` in snake order.

    >>> deal_snake(range(1, 11), (4, 3, 3))
    ((1, 6, 7, 10), (2, 5, 8), (3, 4, 9))
    """
    if sum(sizes) != len(ordered) or any(size < 1 for size in sizes):
        raise RuleError(
            "{players} players do not fill groups of {sizes}",
            players=len(ordered),
            sizes=list(sizes),
        )
    groups: list[list[int]] = [[] for _ in sizes]
    forward = True
    items = iter(ordered)
    placed = 0
    while placed < len(ordered):
        row = range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)
        for index in row:
            if len(groups[index]) < sizes[index]:
                groups[index].append(next(items))
                placed += 1
        forward = not forward
    return tuple(tuple(group) for group in groups)


def seed_groups(
    entrants: Sequence[Entrant], max_size: int = DEFAULT_MAX_GROUP_SIZE
) -> tuple[tuple[int, ...], ...]:
    """The stage's groups (each a tuple of keys, strongest seed first), group A first."""
    ordered = [e.key for e in seeding_order(entrants)]
    return deal_snake(ordered, group_sizes_for(len(ordered), max_size))
