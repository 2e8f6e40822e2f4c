"""Tie-breaks on the player's and the opponents' results (C.07 art. 9): SB, KS.

Also the portal's doubled Sonneborn-Berger (seeds 000, 002: twice the score of
each opponent beaten plus the score of each opponent drawn), code ``DSB``:
the same order as SB, written the portal's way.
"""

from __future__ import annotations

from fractions import Fraction

from crosstable.core.text import Message
from crosstable.core.tiebreaks.base import Change, Column, TieBreak, Value, edition, register
from crosstable.core.tiebreaks.buchholz import element_text
from crosstable.core.tiebreaks.elements import (
    apply_cuts,
    cut_sums,
    delta_update,
    elements,
    player_sum,
    sonneborn_sums,
)
from crosstable.core.tiebreaks.explain import Explanation, Item, join_sum, show
from crosstable.core.tiebreaks.explain import amount as as_amount
from crosstable.core.tiebreaks.field import FLOSS, FREE, FWIN, GAME, Field
from crosstable.core.tiebreaks.spec import CUT, LIMIT, MEDIAN, TieBreakSpec


def sonneborn_of(f: Field, spec: TieBreakSpec, p: int) -> int:
    """One player's Sonneborn-Berger with the spec's cuts, in scale² units."""
    if not spec.modified:
        return player_sum(f, p, edition(f, spec), product=True)
    kept, _ = apply_cuts(
        elements(f, p, edition(f, spec)), spec.cut_low, spec.cut_high, f.rounds, product=True
    )
    return sum(e.score * e.weight for e in kept)


def sonneborn_values(f: Field, spec: TieBreakSpec) -> list[int]:
    """Sonneborn-Berger of everyone with the spec's cuts, in scale² units."""
    ed = edition(f, spec)
    if not spec.modified:
        return sonneborn_sums(f, ed)
    return cut_sums(f, ed, spec.cut_low, spec.cut_high, product=True)


@register
class SonnebornBerger(TieBreak):
    """SB: Σ opponent's final score × points scored against them (9.1).

    With 1-½-0 that is the full score of each opponent beaten plus half the score
    of each opponent drawn; forfeit wins count as wins (seed 003, C.07 15.2).
    """

    name = "SB"
    title = "Sonneborn-Berger"
    article = "C.07 9.1"
    tb_type = "BC"
    modifiers = frozenset({CUT, MEDIAN})
    scope = "opponents"
    factor = 1

    def denominator(self, f: Field, spec: TieBreakSpec) -> int:
        return f.scale * f.scale

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        factor = self.factor
        return [v * factor for v in sonneborn_values(f, spec)]

    def player_value(self, f: Field, spec: TieBreakSpec, p: int) -> Value | None:
        return sonneborn_of(f, spec, p) * self.factor

    def update(self, f: Field, spec: TieBreakSpec, column: Column, change: Change) -> None:
        if column.dropped is not None or spec.modified:
            super().update(f, spec, column, change)
            return
        ed = edition(f, spec)
        todo = delta_update(f, column.values, change, edition=ed, weighted=True, factor=self.factor)
        for p in todo:
            column.values[p] = sonneborn_of(f, spec, p) * self.factor

    def explain(self, f: Field, spec: TieBreakSpec, p: int) -> Explanation:
        ed = edition(f, spec)
        all_items = elements(f, p, ed)
        kept, cut = apply_cuts(all_items, spec.cut_low, spec.cut_high, f.rounds, product=True)
        items = []
        won: list[object] = []
        drawn: list[object] = []
        other: list[object] = []
        for e in all_items:
            counted = e not in cut
            score = f.points(e.score)
            weight = f.points(e.weight)
            amount = score * weight * self.factor
            text: str = element_text(f, p, e)
            # the texts are Messages: English as before, translated on the web
            if e.weight == f.win:
                text = Message("{element}; won: the full score", element=text)
                bucket = won
            elif e.weight == f.draw:
                text = Message(
                    "{element}; drawn: {weight} × {score}",
                    element=text,
                    weight=as_amount(weight),
                    score=as_amount(score),
                )
                bucket = drawn
            elif e.weight == 0:
                text = Message("{element}; lost: nothing", element=text)
                bucket = []
            else:
                text = Message(
                    "{element}; {weight} × {score}",
                    element=text,
                    weight=as_amount(weight),
                    score=as_amount(score),
                )
                bucket = other
            if not counted:
                text = Message("{element} — cut", element=text)
            elif e.weight:
                bucket.append(
                    as_amount(score) if bucket is not other else as_amount(score * weight)
                )
            items.append(
                Item(
                    f.round_numbers[e.round],
                    f.opp[p][e.round] + 1 if f.opp[p][e.round] >= 0 else None,
                    text,
                    amount,
                    counted,
                )
            )
        value = Fraction(sum(e.score * e.weight for e in kept) * self.factor, f.scale * f.scale)
        formula = _formula(f, won, drawn, other, self.factor)
        return Explanation(
            spec.code,
            p + 1,
            value,
            show(value),
            tuple(items),
            Message("{formula} = {value}", formula=formula, value=as_amount(value)),
        )


def _formula(
    f: Field, won: list[object], drawn: list[object], other: list[object], factor: int
) -> object:
    win = f.points(f.win)
    draw = f.points(f.draw)
    parts: list[object] = []
    if won:
        if win * factor != 1:
            parts.append(
                Message("{factor} × ({sum})", factor=as_amount(win * factor), sum=join_sum(won))
            )
        elif len(won) > 1:
            parts.append(Message("({sum})", sum=join_sum(won)))
        else:
            parts.append(won[0])
    if drawn:
        parts.append(
            Message("{factor} × ({sum})", factor=as_amount(draw * factor), sum=join_sum(drawn))
        )
    parts.extend(other)
    return join_sum(parts)


@register
class DoubledSonnebornBerger(SonnebornBerger):
    """DSB: the portal's SB, 2 × beaten + drawn (seeds 000, 002); orders like SB."""

    name = "DSB"
    title = "Sonneborn-Berger, doubled (portal)"
    # the portal's rules: seeds 000, 002 (cited here, not in the explanation users read)
    article = "portal rules: 2 × scores of opponents beaten + scores drawn"
    factor = 2


@register
class Koya(TieBreak):
    """KS: points scored against the players with at least 50 % of the maximum (9.2).

    The maximum counts only rounds with an opponent: 13 players in 13 rounds can
    score at most 12. ``/L-1`` lowers the bar by half a point, ``/L+1`` raises it.
    """

    name = "KS"
    title = "Koya system"
    article = "C.07 9.2"
    tb_type = "BC"
    modifiers = frozenset({LIMIT})
    scope = "opponents"

    def denominator(self, f: Field, spec: TieBreakSpec) -> int:
        return f.scale

    def maximum_games(self, f: Field) -> int:
        """Rounds with an opponent: all of them in a Swiss event; in a round robin the
        rounds less each player's free rounds (results never change this: cached)."""
        if not f.round_robin:  # (the pairing system's, whatever the forfeit setting)
            return f.rounds
        cached = f.cache.get("koya-games")
        if isinstance(cached, int):
            return cached
        free = [row.count(FREE) for p, row in enumerate(f.kind) if f.active[p]]
        games = f.rounds - (min(free) if free else 0)
        f.cache["koya-games"] = games
        return games

    def threshold(self, f: Field, spec: TieBreakSpec) -> Fraction:
        """The qualifying score, scaled."""
        share = spec.limit_percent if spec.limit_percent is not None else Fraction(50)
        limit = Fraction(f.win * self.maximum_games(f)) * share / 100
        limit += Fraction(spec.limit_steps * f.scale, 2)
        if spec.limit_points is not None:
            limit += spec.limit_points * f.scale
        return limit

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        limit = self.threshold(f, spec)
        qualifies = [s >= limit for s in f.score]
        return [_koya(f, p, qualifies) for p in f.indices()]

    def player_value(self, f: Field, spec: TieBreakSpec, p: int) -> Value | None:
        limit = self.threshold(f, spec)
        num, den = limit.numerator, limit.denominator
        score = f.score
        return sum(
            v
            for k, o, v in zip(f.kind[p], f.opp[p], f.pts[p], strict=True)
            if o >= 0 and k <= FLOSS and score[o] * den >= num
        )

    def update(self, f: Field, spec: TieBreakSpec, column: Column, change: Change) -> None:
        """A player crossing the bar adds (or takes) their opponents' points against them."""
        limit = self.threshold(f, spec)
        values = column.values
        for x in change.players:
            was, now = change.old_score[x] >= limit, f.score[x] >= limit
            if was == now:
                continue
            sign = 1 if now else -1
            for r, o in enumerate(f.opp[x]):
                current = values[o] if o >= 0 else None
                if current is not None and o not in change.players and f.kind[o][r] <= FLOSS:
                    values[o] = current + sign * f.pts[o][r]
        for p in change.players:
            values[p] = self.player_value(f, spec, p)

    def explain(self, f: Field, spec: TieBreakSpec, p: int) -> Explanation:
        limit = self.threshold(f, spec)
        items = []
        parts: list[object] = []
        for r in range(f.rounds):
            o = f.opp[p][r]
            if o < 0 or f.kind[p][r] not in (GAME, FWIN, FLOSS):
                continue
            ok = f.score[o] >= limit
            amount = f.points(f.pts[p][r])
            score = as_amount(f.points(f.score[o]))
            least = as_amount(Fraction(limit, f.scale))
            if ok:
                text = Message(
                    "against {opponent} (score {score} ≥ {limit})",
                    opponent=o + 1,
                    score=score,
                    limit=least,
                )
            else:
                text = Message(
                    "against {opponent} (score {score} < {limit})",
                    opponent=o + 1,
                    score=score,
                    limit=least,
                )
            items.append(Item(f.round_numbers[r], o + 1, text, amount, ok))
            if ok:
                parts.append(as_amount(amount))
        value = self.compute(f, spec).natural(p)
        note = Message(
            "qualifying score: {limit} (maximum {maximum})",
            limit=as_amount(Fraction(limit, f.scale)),
            maximum=as_amount(f.points(f.win * self.maximum_games(f))),
        )
        return Explanation(
            spec.code,
            p + 1,
            value,
            show(value),
            tuple(items),
            Message("{sum} = {value}", sum=join_sum(parts), value=as_amount(value)),
            note,
        )


def _koya(f: Field, p: int, qualifies: list[bool]) -> int:
    return sum(
        v
        for k, o, v in zip(f.kind[p], f.opp[p], f.pts[p], strict=True)
        if o >= 0 and k <= FLOSS and qualifies[o]
    )
