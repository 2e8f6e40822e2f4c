"""Elements of the opponent-based tie-breaks (BH, SB, FB, AOB) and their cuts.

An *element* is what one round contributes: the opponent's score (adjusted per
C.07 16.3) for a game, or for an unplayed round in a Swiss event the score of a
*dummy* opponent (16.4): the player's own score, capped in the 2026 text at the
scheduled opponent's adjusted score for forfeits (16.4.1) and at a draw's points
times the number of rounds for byes (16.4.2).

In a round robin (pre-determined pairings, 15.2) forfeits are games: the
element is the opponent's score; the free round of an odd field and a game
annulled by the withdrawal rule are no element at all.

Cuts (art. 14) drop the least significant element; with voluntary unplayed
rounds the 16.5 exception applies: the lowest VUR contribution is cut instead,
unless the least significant value is higher (then that one goes).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from operator import mul

from crosstable.core.model import RulesEdition
from crosstable.core.tiebreaks.base import Change
from crosstable.core.tiebreaks.field import (
    DRAW,
    FLOSS,
    FREE,
    FWIN,
    GAME,
    HPB,
    PENDING,
    ZPB,
    Field,
)


@dataclass(frozen=True, slots=True)
class Element:
    """One round's part: ``score`` (scaled) and ``weight`` (own points, scaled) for SB."""

    round: int  # index
    score: int
    weight: int
    vur: bool
    dummy: bool
    capped: bool = False

    def product(self) -> int:
        return self.score * self.weight


def elements(f: Field, p: int, edition: RulesEdition) -> list[Element]:
    """Every element of player index ``p`` in round order."""
    out: list[Element] = []
    kinds = f.kind[p]
    opps = f.opp[p]
    pts = f.pts[p]
    if f.predetermined:
        score = f.score
        for r in range(f.rounds):
            k = kinds[r]
            if k in (GAME, FWIN, FLOSS):
                out.append(Element(r, score[opps[r]], pts[r], False, False))
        return out
    adjusted = f.adjusted
    own = f.score[p]
    cap_bye = f.draw * f.rounds
    capped_edition = edition is RulesEdition.C07_2026
    for r in range(f.rounds):
        k = kinds[r]
        if k == GAME:
            out.append(Element(r, adjusted[opps[r]], pts[r], False, False))
        elif k in (PENDING, FREE):
            continue
        else:
            dummy = own
            if capped_edition:
                limit = adjusted[opps[r]] if k in (FWIN, FLOSS) else cap_bye
                dummy = min(own, limit)
            vur = k in (HPB, ZPB, FLOSS)
            out.append(Element(r, dummy, pts[r], vur, True, dummy < own))
    return out


@dataclass(frozen=True, slots=True)
class ElementTable:
    """Everyone's elements as parallel lists: scores, weights (own points) and whether
    the 16.5 VUR exception can apply (then cuts go through :func:`apply_cuts`)."""

    scores: list[list[int]]
    weights: list[list[int]]
    with_vur: list[bool]


def element_table(f: Field, edition: RulesEdition) -> ElementTable:
    """The elements of every player, built once per field and edition (results change
    them, so :meth:`Field.set_game` forgets the table)."""
    key = f"elements:{edition.value}"
    cached = f.cache.get(key)
    if isinstance(cached, ElementTable):
        return cached
    scores: list[list[int]] = []
    weights: list[list[int]] = []
    with_vur: list[bool] = []
    reference = f.score if f.predetermined else f.adjusted
    top = FLOSS if f.predetermined else GAME
    for kinds, opps, pts in zip(f.kind, f.opp, f.pts, strict=True):
        if f.predetermined or not _has_unplayed(kinds):
            picked = [r for r, k in enumerate(kinds) if k <= top and opps[r] >= 0]
            scores.append([reference[opps[r]] for r in picked])
            weights.append([pts[r] for r in picked])
            with_vur.append(False)
        else:
            items = elements(f, len(scores), edition)
            scores.append([e.score for e in items])
            weights.append([e.weight for e in items])
            with_vur.append(any(e.vur for e in items))
    table = ElementTable(scores, weights, with_vur)
    f.cache[key] = table
    return table


def buchholz_sums(f: Field, edition: RulesEdition) -> list[int]:
    """Plain Buchholz (no modifier) of everyone, scaled."""
    return [sum(row) for row in element_table(f, edition).scores]


def sonneborn_sums(f: Field, edition: RulesEdition) -> list[int]:
    """Plain Sonneborn-Berger of everyone, in scale² units."""
    table = element_table(f, edition)
    return [sum(map(mul, s, w)) for s, w in zip(table.scores, table.weights, strict=True)]


def player_sum(f: Field, p: int, edition: RulesEdition, *, product: bool) -> int:
    """One player's plain BH (or SB) without building element objects."""
    kinds = f.kind[p]
    if f.predetermined:
        score = f.score
        if product:
            return sum(
                score[o] * v
                for k, o, v in zip(kinds, f.opp[p], f.pts[p], strict=True)
                if k <= FLOSS and o >= 0
            )
        return sum(score[o] for k, o in zip(kinds, f.opp[p], strict=True) if k <= FLOSS and o >= 0)
    if _has_unplayed(kinds):
        items = elements(f, p, edition)
        return sum(e.score * e.weight if product else e.score for e in items)
    adjusted = f.adjusted
    if product:
        return sum(
            adjusted[o] * v for k, o, v in zip(kinds, f.opp[p], f.pts[p], strict=True) if k == GAME
        )
    return sum(adjusted[o] for k, o in zip(kinds, f.opp[p], strict=True) if k == GAME)


def cut_sums(f: Field, edition: RulesEdition, low: int, high: int, *, product: bool) -> list[int]:
    """BH (or SB, ``product``) of everyone with ``low``/``high`` cuts.

    Without a voluntary unplayed round the least significant elements are simply
    the lowest (score, contribution) pairs, so a sort does it; with one, the 16.5
    exception goes through :func:`apply_cuts`.
    """
    rounds = f.rounds
    low = min(low, rounds)
    high = min(high, rounds - low)
    table = element_table(f, edition)
    out: list[int] = []
    for p, (scores, weights) in enumerate(zip(table.scores, table.weights, strict=True)):
        if table.with_vur[p]:
            left, _ = apply_cuts(elements(f, p, edition), low, high, rounds, product=product)
            out.append(sum(e.score * e.weight if product else e.score for e in left))
            continue
        if not product and low <= 1 and high <= 1 and len(scores) >= low + high:
            # Buchholz, Cut-1 / Median-1: the least (most) significant value is the lowest
            # (highest) score itself, cut once each. Cut-2 and beyond take the sort below
            # (a single min() here once cut only one value for /C2).
            total = sum(scores)
            if low:
                total -= min(scores)
            if high:
                total -= max(scores)
            out.append(total)
            continue
        pairs = sorted(zip(scores, map(mul, scores, weights) if product else scores, strict=True))
        kept = pairs[low:]
        kept = kept[: max(0, len(kept) - high)]
        out.append(sum(c for _, c in kept))
    return out


def _has_unplayed(kinds: list[int]) -> bool:
    """Any round that is neither a game nor a game still to be played (two C-level counts)."""
    return kinds.count(GAME) + kinds.count(PENDING) != len(kinds)


def delta_update(
    f: Field,
    values: list[int | Fraction | None],
    change: Change,
    *,
    edition: RulesEdition,
    weighted: bool,
    factor: int = 1,
) -> set[int]:
    """Add each changed player's new score to their opponents' BH (or SB) values.

    An opponent's element for a game is the changed player's (adjusted) score, so
    it moves by the same amount (times the points the opponent scored, for SB).
    Returns the players that need a full recomputation: the two players themselves
    and, under the 2026 caps, opponents whose forfeit dummy depends on that score.
    """
    recompute = set(change.players)
    reference = f.score if f.predetermined else f.adjusted
    before = change.old_score if f.predetermined else change.old_adjusted
    capped = edition is RulesEdition.C07_2026 and not f.predetermined
    for x in change.players:
        delta = reference[x] - before[x]
        if not delta:
            continue
        for r, o in enumerate(f.opp[x]):
            if o < 0 or o in recompute:
                continue
            k = f.kind[o][r]
            if k == GAME or (f.predetermined and k <= FLOSS):
                step = delta * f.pts[o][r] * factor if weighted else delta
                current = values[o]
                if current is not None:
                    values[o] = current + step
            elif capped and k in (FWIN, FLOSS):
                recompute.add(o)
    return recompute


def apply_cuts(
    items: list[Element], low: int, high: int, rounds: int, *, product: bool
) -> tuple[list[Element], list[Element]]:
    """Cut ``low`` least and ``high`` most significant elements (C.07 14, 16.5).

    The significance of an element is the opponent's score, then its
    contribution (for SB the product). Returns ``(kept, cut)``.
    """
    low = min(low, rounds)
    high = min(high, rounds - low)
    kept = list(items)
    cut: list[Element] = []

    def contribution(e: Element) -> int:
        return e.score * e.weight if product else e.score

    while low > 0 and kept:
        least = min(kept, key=lambda e: (e.score, contribution(e)))
        vurs = [e for e in kept if e.vur]
        victim = least
        if vurs:
            lowest_vur = min(vurs, key=lambda e: (contribution(e), e.score))
            if contribution(least) <= contribution(lowest_vur):
                victim = lowest_vur
        kept.remove(victim)
        cut.append(victim)
        low -= 1
    while high > 0 and kept:
        most = max(kept, key=lambda e: (e.score, contribution(e)))
        kept.remove(most)
        cut.append(most)
        high -= 1
    return kept, cut


def fore_field(f: Field) -> Field:
    """The field as if every paired game of the final round were drawn (C.07 8.3)."""
    if f.rounds == 0:
        return f
    last = f.rounds - 1
    kind = list(f.kind)
    pts = list(f.pts)
    res = list(f.res)
    for p in range(f.n):
        if f.opp[p][last] >= 0 and f.kind[p][last] in (GAME, FWIN, FLOSS, PENDING):
            kind[p] = [*f.kind[p][:last], GAME]
            pts[p] = [*f.pts[p][:last], f.draw]
            res[p] = [*f.res[p][:last], DRAW]
    return Field(
        n=f.n,
        rounds=f.rounds,
        scale=f.scale,
        win=f.win,
        draw=f.draw,
        loss=f.loss,
        predetermined=f.predetermined,
        edition=f.edition,
        opp=f.opp,
        kind=kind,
        pts=pts,
        res=res,
        col=f.col,
        rating=f.rating,
        active=f.active,
        round_numbers=f.round_numbers,
        outcome_points=f.outcome_points,
        round_robin=f.round_robin,
        round_rating=f.round_rating,
    )
