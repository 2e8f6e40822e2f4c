"""Ranking: points first, then the tie-break list applied to each still-tied group.

C.07 4.2: rank by the first tie-break, then move to the next one for each
subgroup still tied. Every ordinary tie-break is a number per player, so the
list is a lexicographic key. Direct encounter (Type A) works on the tied group
as it stands when its turn comes; its result enters the key as a place within
that group, which is only ever compared inside the group. Ties that survive
the list share a rank (1, 2, 2, 4), or — when the regulations ask for lots —
are drawn with a seeded :class:`random.Random`, reproducibly, and recorded.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import neg
from typing import cast

from crosstable.core.tiebreaks.base import Column, Value, tiebreak
from crosstable.core.tiebreaks.direct import DirectEncounter
from crosstable.core.tiebreaks.field import Field
from crosstable.core.tiebreaks.spec import TieBreakSpec

Key = tuple[object, ...]
#: the DE places of one tied group (``DirectEncounter.places``), possibly remembered
GroupPlaces = Callable[[TieBreakSpec, list[int]], dict[int, int]]


@dataclass(frozen=True, slots=True)
class Lot:
    """A tie left after the whole list, broken by drawing lots."""

    players: tuple[int, ...]  # starting numbers, ascending
    order: tuple[int, ...]  # the order drawn, best first
    seed: int

    def to_json(self) -> dict[str, object]:
        return {"players": list(self.players), "order": list(self.order), "seed": self.seed}


@dataclass(frozen=True, slots=True)
class Ranking:
    """The order of the players (indices), their ranks, keys and the columns used."""

    order: tuple[int, ...]
    ranks: dict[int, int]
    keys: dict[int, Key]
    columns: tuple[Column, ...]
    lots: tuple[Lot, ...] = ()

    def tied_group(self, p: int, depth: int) -> list[int]:
        """The players sharing ``p``'s key up to (not including) criterion ``depth``.

        Depth 0 is points; depth ``i + 1`` is the ``i``-th tie-break.
        """
        prefix = self.keys[p][:depth]
        return [q for q in self.order if self.keys[q][:depth] == prefix]


def _sort_keys(column: Column, chosen: list[int]) -> list[object]:
    """``[column.key(p) for p in chosen]``, without a Python call per player when no
    value is missing (then a key is the value, negated when higher is better)."""
    values = list(map(column.values.__getitem__, chosen))
    if None in values:
        return list(map(column.key, chosen))
    present = cast(list[Value], values)
    return list(map(neg, present)) if column.higher_is_better else list(present)


def rank(
    f: Field,
    specs: Sequence[TieBreakSpec],
    *,
    columns: Sequence[Column | None] | None = None,
    players: Sequence[int] | None = None,
    lots_seed: int | None = None,
    group_places: GroupPlaces | None = None,
) -> Ranking:
    """Rank ``players`` (indices; default: every active player) of ``f``.

    ``columns`` may hold values already computed (e.g. kept up to date by the
    live table), one per spec, None where the column must be computed.
    ``group_places`` answers DE for a tied group instead of computing it (the live
    table remembers the answers of groups whose games did not change).
    """
    chosen = list(compress(range(f.n), f.active)) if players is None else sorted(players)
    # one list per criterion (points first), aligned with ``chosen`` (built through
    # C-level map: per-player Python work is most of a small table's cost)
    criteria: list[list[object]] = [list(map(neg, map(f.score.__getitem__, chosen)))]
    used: list[Column] = []
    for i, spec in enumerate(specs):
        tb = tiebreak(spec)
        if isinstance(tb, DirectEncounter):
            numbers: list[Value | None] = [0] * f.n
            # the players still tied (equal keys so far), each group in ascending order
            # (right after the points, the key so far is the points alone: no tuples)
            prefixes = criteria[0] if len(criteria) == 1 else zip(*criteria, strict=True)
            tied: dict[object, list[int]] = {}
            for p, prefix in zip(chosen, prefixes, strict=True):
                found = tied.get(prefix)
                if found is None:
                    tied[prefix] = [p]
                else:
                    found.append(p)
            for group in tied.values():
                if len(group) > 1:
                    if group_places is not None:
                        places = group_places(spec, group)
                    else:
                        _, places = tb.places(f, spec, group)
                    for p, place in places.items():
                        numbers[p] = place
            column = Column(spec, numbers, 1, False, True)
            criteria.append(list(map(numbers.__getitem__, chosen)))
        else:
            given = columns[i] if columns is not None else None
            column = given if given is not None else tb.compute(f, spec)
            criteria.append(_sort_keys(column, chosen))
        used.append(column)
    frozen: dict[int, Key] = dict(zip(chosen, zip(*criteria, strict=True), strict=True))
    # ``chosen`` ascends and the sort is stable: equal keys stay in starting order
    order = sorted(chosen, key=frozen.__getitem__)
    ranks: dict[int, int] = {}
    lots: list[Lot] = []
    if lots_seed is None:  # ties share a rank (1, 2, 2, 4)
        shared = 0
        previous: Key | None = None
        for place, p in enumerate(order, 1):
            mine = frozen[p]
            if mine != previous:
                shared, previous = place, mine
            ranks[p] = shared
        return Ranking(tuple(order), ranks, frozen, tuple(used))
    rng = random.Random(lots_seed)
    position = 0
    while position < len(order):
        stop = position + 1
        while stop < len(order) and frozen[order[stop]] == frozen[order[position]]:
            stop += 1
        group = order[position:stop]
        if len(group) > 1:
            drawn = list(group)
            rng.shuffle(drawn)
            order[position:stop] = drawn
            for offset, p in enumerate(drawn):
                ranks[p] = position + offset + 1
            lots.append(
                Lot(
                    tuple(sorted(p + 1 for p in group)),
                    tuple(p + 1 for p in drawn),
                    lots_seed,
                )
            )
        else:
            for p in group:
                ranks[p] = position + 1
        position = stop
    return Ranking(tuple(order), ranks, frozen, tuple(used), tuple(lots))
