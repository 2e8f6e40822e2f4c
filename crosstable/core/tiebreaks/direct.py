"""Direct encounter (C.07 art. 6), a Type A tie-break: it works on a tied group.

6.1: the games among the tied players make a mini-table; forfeits count only in
round robins (15.2) or with ``/P``; players who met more than once count the
average of those games (6.1.2).
6.2: if everyone met everyone, the mini-table ranks them; any still-tied subset
gets art. 6 again, until nothing more resolves.
6.3 (Swiss): if not all met, a player who stays alone on top whatever the
missing games give is ranked first, then the same for the next place; art. 6
is then reapplied to the rest.

The value shown for DE is the reference calculator's: the player's place in the
mini-table of their tied group (1 = best), 0 when not tied or not separated.
"""

from __future__ import annotations

from fractions import Fraction

from crosstable.core.text import Message
from crosstable.core.tiebreaks.base import TieBreak, Value, register
from crosstable.core.tiebreaks.explain import Explanation, Item, amount, join_sum
from crosstable.core.tiebreaks.field import FLOSS, FWIN, GAME, Field
from crosstable.core.tiebreaks.spec import FORFEITS, TieBreakSpec


def meetings(f: Field) -> list[dict[int, list[int]]]:
    """For each player, the round indices in which they met each opponent.

    The pairings never change once compiled (only results do), so this is cached.
    """
    cached = f.cache.get("meetings")
    if isinstance(cached, list):
        return cached
    table: list[dict[int, list[int]]] = []
    for opps in f.opp:
        met: dict[int, list[int]] = {}
        for r, o in enumerate(opps):
            if o >= 0:
                met.setdefault(o, []).append(r)
        table.append(met)
    f.cache["meetings"] = table
    return table


def encounters(f: Field, spec: TieBreakSpec, p: int, group: set[int]) -> dict[int, list[int]]:
    """Scaled points of ``p`` in each counted game against each member of ``group``."""
    counted = (GAME, FWIN, FLOSS) if f.predetermined or spec.forfeits_as_games else (GAME,)
    kinds = f.kind[p]
    pts = f.pts[p]
    met = meetings(f)[p]
    out: dict[int, list[int]] = {}
    for o in group:
        rounds = met.get(o)
        if rounds:
            games = [pts[r] for r in rounds if kinds[r] in counted]
            if games:
                out[o] = games
    return out


def mini_table(
    f: Field, spec: TieBreakSpec, group: list[int]
) -> tuple[dict[int, Value], dict[int, int]]:
    """Each member's mini-table score (averages of repeated games) and opponents met.

    Scores are scaled points, exact: an integer unless games were repeated (then a
    fraction: the average of those games). (The same sums as :func:`encounters` per
    member, without its lists: a live table decides tied groups after every result.)
    """
    counted = (GAME, FWIN, FLOSS) if f.predetermined or spec.forfeits_as_games else (GAME,)
    met_all = meetings(f)
    totals: dict[int, Value] = {}
    met_count: dict[int, int] = {}
    for p in group:
        kinds = f.kind[p]
        pts = f.pts[p]
        met = met_all[p]
        whole = 0
        count = 0
        parts: Fraction | None = None
        for o in group:
            rounds = met.get(o)
            if not rounds:
                continue
            if len(rounds) == 1:
                r = rounds[0]
                if kinds[r] in counted:
                    whole += pts[r]
                    count += 1
                continue
            games = [pts[r] for r in rounds if kinds[r] in counted]
            if not games:
                continue
            count += 1
            if len(games) == 1:
                whole += games[0]
            else:
                share = Fraction(sum(games), len(games))
                parts = share if parts is None else parts + share
        totals[p] = whole if parts is None else parts + whole
        met_count[p] = count
    return totals, met_count


@register
class DirectEncounter(TieBreak):
    """DE: the mini-table of the games among the tied players (art. 6)."""

    name = "DE"
    title = "Direct encounter"
    article = "C.07 art. 6"
    tb_type = "A"
    modifiers = frozenset({FORFEITS})
    higher_is_better = False  # the value is a place: 1 is best
    integral = True
    scope = "group"

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        """Without a tied group every player stands alone: 0 (see :meth:`split`)."""
        return [0] * f.n

    def split(self, f: Field, spec: TieBreakSpec, group: list[int]) -> list[list[int]]:
        """Order a tied ``group``: a list of sub-groups, best first, each still tied."""
        if len(group) < 2:
            return [list(group)]
        totals, met_count = mini_table(f, spec, group)
        everyone_met = f.predetermined or all(met_count[p] == len(group) - 1 for p in group)
        if everyone_met:  # 6.2
            ordered = sorted(group, key=lambda p: -totals[p])
            tiers: list[list[int]] = []
            for p in ordered:
                if tiers and totals[tiers[-1][0]] == totals[p]:
                    tiers[-1].append(p)
                else:
                    tiers.append([p])
            if len(tiers) == 1:
                return tiers
            out: list[list[int]] = []
            for tier in tiers:
                out.extend(self.split(f, spec, tier))
            return out
        # 6.3: rank a player first only if nobody can catch them whatever the missing games
        win = Fraction(f.win)
        best = {p: totals[p] + (len(group) - 1 - met_count[p]) * win for p in group}
        remaining = sorted(group, key=lambda p: (-totals[p], -best[p]))
        ranked: list[list[int]] = []
        while len(remaining) > 1:
            top, others = remaining[0], remaining[1:]
            if totals[top] > max(best[o] for o in others):
                ranked.append([top])
                remaining = others
            else:
                break
        if not ranked:
            return [list(group)]
        return ranked + self.split(f, spec, remaining)

    def places(
        self, f: Field, spec: TieBreakSpec, group: list[int]
    ) -> tuple[list[list[int]], dict[int, int]]:
        """The sub-groups and each member's DE number (place in the group, 0 if unseparated)."""
        parts = self.split(f, spec, group)
        numbers: dict[int, int] = {}
        if len(parts) == 1:
            for p in group:
                numbers[p] = 0
            return parts, numbers
        place = 1
        for part in parts:
            for p in part:
                numbers[p] = place
            place += len(part)
        return parts, numbers

    def explain_group(self, f: Field, spec: TieBreakSpec, group: list[int], p: int) -> Explanation:
        """How player ``p`` stands in the mini-table of ``group``."""
        _, numbers = self.places(f, spec, group) if len(group) > 1 else ([group], {p: 0})
        # the texts are Messages: English as before, translated on the web
        if len(group) < 2:
            return Explanation(
                spec.code,
                p + 1,
                0,
                "0",
                note=Message("not tied with anyone at this point: DE is 0"),
            )
        members = set(group)
        met = encounters(f, spec, p, members)
        items = []
        parts: list[object] = []
        for o in sorted(members - {p}):
            games = met.get(o)
            if not games:
                items.append(
                    Item(
                        None,
                        o + 1,
                        Message("has not met {opponent} (no counted game)", opponent=o + 1),
                        None,
                        False,
                    )
                )
                continue
            average = Fraction(sum(games), len(games) * f.scale)
            text: str
            if len(games) > 1:
                text = Message(
                    "against {opponent}: games {games}, average {average} (C.07 6.1.2)",
                    opponent=o + 1,
                    games=Message.joined(", ", [amount(f.points(v)) for v in games]),
                    average=amount(average),
                )
            else:
                text = Message(
                    "against {opponent}: {average}", opponent=o + 1, average=amount(average)
                )
            items.append(Item(None, o + 1, text, average))
            parts.append(amount(average))
        total = sum((Fraction(sum(v), len(v) * f.scale) for v in met.values()), Fraction(0))
        note = Message(
            "mini-table of the tied players {players}",
            players=Message.joined(", ", [q + 1 for q in sorted(group)]),
        )
        if numbers[p]:
            formula = Message(
                "{sum} = {total}; place {place}",
                sum=join_sum(parts),
                total=amount(total),
                place=numbers[p],
            )
        else:
            formula = Message(
                "{sum} = {total}; place shared", sum=join_sum(parts), total=amount(total)
            )
        return Explanation(
            spec.code, p + 1, numbers[p], str(numbers[p]), tuple(items), formula, note
        )
