"""Buchholz and its relatives (C.07 art. 8): BH, FB, AOB.

Buchholz sums the opponents' scores; Fore Buchholz does it as if the final
round's paired games were all drawn; AOB averages the opponents' Buchholz.
The 2026 text bars them from round robins (note to art. 8).
"""

from __future__ import annotations

from crosstable.core.model import RulesEdition
from crosstable.core.text import Message
from crosstable.core.tiebreaks.base import Change, Column, TieBreak, Value, edition, register
from crosstable.core.tiebreaks.elements import (
    Element,
    apply_cuts,
    buchholz_sums,
    cut_sums,
    delta_update,
    elements,
    fore_field,
    player_sum,
)
from crosstable.core.tiebreaks.explain import Explanation, Item, amount, join_sum, show
from crosstable.core.tiebreaks.field import GAME, KIND_NAMES, Field
from crosstable.core.tiebreaks.spec import CUT, FORE, MEDIAN, TieBreakSpec


def barred_in_round_robin(f: Field, spec: TieBreakSpec) -> str | None:
    if f.predetermined and edition(f, spec) is RulesEdition.C07_2026:
        return Message(
            "{code}: Buchholz tie-breaks must not be used in round robins (C.07 2026, art. 8)",
            code=spec.code,
        )
    return None


def element_text(f: Field, p: int, e: Element) -> str:
    """What an element is, in words."""
    r = e.round
    o = f.opp[p][r]
    shown = amount(f.points(e.score))
    # Messages: English as before, translated on the web
    if not e.dummy:
        raw = f.score[o]
        if raw != e.score:
            return Message(
                "opponent {opponent}: score {score}, adjusted to {adjusted} "
                "(a late requested bye counts as a draw, C.07 16.3.2)",
                opponent=o + 1,
                score=amount(f.points(raw)),
                adjusted=shown,
            )
        return Message("opponent {opponent}: score {score}", opponent=o + 1, score=shown)
    what = KIND_NAMES[f.kind[p][r]]
    if e.capped:
        return Message(
            "{what}: dummy opponent with the player's own score {score} (capped, C.07 2026 16.4)",
            what=what,
            score=shown,
        )
    return Message(
        "{what}: dummy opponent with the player's own score {score}", what=what, score=shown
    )


def buchholz_of(f: Field, spec: TieBreakSpec, p: int) -> int:
    """One player's Buchholz with the spec's cuts, scaled."""
    if not spec.modified:
        return player_sum(f, p, edition(f, spec), product=False)
    kept, _ = apply_cuts(
        elements(f, p, edition(f, spec)), spec.cut_low, spec.cut_high, f.rounds, product=False
    )
    return sum(e.score for e in kept)


def buchholz_values(f: Field, spec: TieBreakSpec) -> list[int]:
    """Buchholz of everyone with the spec's cuts, scaled."""
    ed = edition(f, spec)
    if not spec.modified:
        return buchholz_sums(f, ed)
    return cut_sums(f, ed, spec.cut_low, spec.cut_high, product=False)


def explain_buchholz(f: Field, spec: TieBreakSpec, p: int, title: str) -> Explanation:
    ed = edition(f, spec)
    items_all = elements(f, p, ed)
    kept, cut = apply_cuts(items_all, spec.cut_low, spec.cut_high, f.rounds, product=False)
    items = []
    parts: list[object] = []
    for e in items_all:
        counted = e not in cut
        items.append(
            Item(
                f.round_numbers[e.round],
                f.opp[p][e.round] + 1 if f.opp[p][e.round] >= 0 else None,
                element_text(f, p, e)
                if counted
                else Message("{element} — cut", element=element_text(f, p, e)),
                f.points(e.score),
                counted,
            )
        )
        if counted:
            parts.append(amount(f.points(e.score)))
    value = f.points(sum(e.score for e in kept))
    return Explanation(
        spec.code,
        p + 1,
        value,
        show(value),
        tuple(items),
        Message("{title} = {sum} = {value}", title=title, sum=join_sum(parts), value=amount(value)),
    )


@register
class Buchholz(TieBreak):
    """BH: the sum of the opponents' scores (8.1), unplayed rounds per art. 16."""

    name = "BH"
    title = "Buchholz"
    article = "C.07 8.1"
    tb_type = "C"
    modifiers = frozenset({CUT, MEDIAN})
    scope = "opponents"

    def applies(self, f: Field, spec: TieBreakSpec) -> str | None:
        return barred_in_round_robin(f, spec)

    def denominator(self, f: Field, spec: TieBreakSpec) -> int:
        return f.scale

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        return list(buchholz_values(f, spec))

    def player_value(self, f: Field, spec: TieBreakSpec, p: int) -> Value | None:
        return buchholz_of(f, spec, p)

    def update(self, f: Field, spec: TieBreakSpec, column: Column, change: Change) -> None:
        if column.dropped is not None or spec.modified or self.scope != "opponents":
            super().update(f, spec, column, change)
            return
        ed = edition(f, spec)
        for p in delta_update(f, column.values, change, edition=ed, weighted=False):
            column.values[p] = buchholz_of(f, spec, p)

    def explain(self, f: Field, spec: TieBreakSpec, p: int) -> Explanation:
        reason = self.applies(f, spec)
        if reason:
            return Explanation(spec.code, p + 1, None, show(None), note=reason)
        return explain_buchholz(f, spec, p, spec.code)


@register
class ForeBuchholz(Buchholz):
    """FB: Buchholz as if every paired game of the final round were drawn (8.3)."""

    name = "FB"
    title = "Fore Buchholz"
    article = "C.07 8.3"
    tb_type = "D"
    scope = "field"

    def player_value(self, f: Field, spec: TieBreakSpec, p: int) -> Value | None:
        return buchholz_of(fore_field(f), spec, p)

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        return list(buchholz_values(fore_field(f), spec))

    def explain(self, f: Field, spec: TieBreakSpec, p: int) -> Explanation:
        reason = self.applies(f, spec)
        if reason:
            return Explanation(spec.code, p + 1, None, show(None), note=reason)
        return explain_buchholz(
            fore_field(f), spec, p, Message("{code} (final round as draws)", code=spec.code)
        )


@register
class AverageOfBuchholz(TieBreak):
    """AOB: the average Buchholz of the opponents played over the board (8.2), to 0.01.

    ``/F`` averages Fore Buchholz instead; cut modifiers apply to the opponents'
    Buchholz.
    """

    name = "AOB"
    title = "Average of opponents' Buchholz"
    article = "C.07 8.2"
    tb_type = "CC"
    modifiers = frozenset({CUT, MEDIAN, FORE})
    scope = "field"

    def applies(self, f: Field, spec: TieBreakSpec) -> str | None:
        return barred_in_round_robin(f, spec)

    def denominator(self, f: Field, spec: TieBreakSpec) -> int:
        return 100

    def opponent_values(self, f: Field, spec: TieBreakSpec) -> list[int]:
        return buchholz_values(fore_field(f) if spec.fore else f, spec)

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        bh = self.opponent_values(f, spec)
        scale = f.scale
        out: list[Value | None] = []
        for kinds, opps in zip(f.kind, f.opp, strict=True):
            total = 0
            count = 0
            for k, o in zip(kinds, opps, strict=True):
                if k == GAME:
                    total += bh[o]
                    count += 1
            if count == 0:
                out.append(None)
            else:  # hundredths, 0.005 rounded up
                out.append((200 * total + count * scale) // (2 * count * scale))
        return out

    def explain(self, f: Field, spec: TieBreakSpec, p: int) -> Explanation:
        reason = self.applies(f, spec)
        if reason:
            return Explanation(spec.code, p + 1, None, show(None), note=reason)
        bh = self.opponent_values(f, spec)
        items = []
        parts: list[object] = []
        for r in range(f.rounds):
            o = f.opp[p][r]
            if f.kind[p][r] == GAME:
                value_of = f.points(bh[o])
                parts.append(amount(value_of))
                text = Message("opponent {opponent}: Buchholz", opponent=o + 1)
                items.append(Item(f.round_numbers[r], o + 1, text, value_of))
        column = self.compute(f, spec)
        value = column.natural(p)
        formula: str = ""
        if parts:
            formula = Message(
                "({sum}) / {count} = {value}",
                sum=join_sum(parts),
                count=len(parts),
                value=amount(value),
            )
        return Explanation(spec.code, p + 1, value, show(value), tuple(items), formula)
