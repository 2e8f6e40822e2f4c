"""Explanations over the whole table: a player's values, and why A is above B.

>>> from crosstable.core.model import Game, GameResult, Player, Round, Tournament
>>> from crosstable.core.standings.table import compute_standings
>>> t = Tournament(players=(Player(1, "A"), Player(2, "B"), Player(3, "C")), rounds=(
...     Round(1, (Game(1, 1, 2, 3, GameResult.DRAW()),)),
...     Round(2, (Game(2, 1, 3, 1, GameResult.DRAW()),)),
...     Round(3, (Game(3, 1, 1, 2, GameResult.WHITE_WINS()),))))
>>> print(compute_standings(t, "DE,SB").why(1, 3))
1 (A) is above 3 (C) on points: 1.5 against 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Protocol

from crosstable.core.standings.ranking import Lot, Ranking
from crosstable.core.text import Message
from crosstable.core.tiebreaks.base import tiebreak
from crosstable.core.tiebreaks.direct import DirectEncounter, mini_table
from crosstable.core.tiebreaks.explain import Explanation, amount, show
from crosstable.core.tiebreaks.field import Field
from crosstable.core.tiebreaks.spec import TieBreakSpec, parse_code


class Ranked(Protocol):
    """What the explanations read of a standings table (:class:`.table.Standings`)."""

    @property
    def field(self) -> Field: ...
    @property
    def specs(self) -> Sequence[TieBreakSpec]: ...
    @property
    def ranking(self) -> Ranking: ...
    @property
    def lots(self) -> Sequence[Lot]: ...
    @property
    def names(self) -> Mapping[int, str]: ...


def _ranked(standings: Ranked) -> list[TieBreakSpec]:
    return [s for s in standings.specs if s.name != "PTS"]


def explain_player(standings: Ranked, start: int) -> list[Explanation]:
    """The points and every tie-break of player ``start``, each with its elements."""
    f = standings.field
    p = start - 1
    if not 0 <= p < f.n:
        raise KeyError(start)
    out = [tiebreak(parse_code("PTS")).explain(f, parse_code("PTS"), p)]
    ranked = _ranked(standings)
    for spec in standings.specs:
        if spec.name == "PTS":
            continue
        tb = tiebreak(spec)
        if not f.active[p]:
            out.append(
                Explanation(
                    spec.code,
                    start,
                    None,
                    show(None),
                    note=Message("taken out of the standings by the withdrawal rule"),
                )
            )
        elif isinstance(tb, DirectEncounter):
            depth = ranked.index(spec) + 1
            group = standings.ranking.tied_group(p, depth)
            out.append(tb.explain_group(f, spec, group, p))
        else:
            out.append(tb.explain(f, spec, p))
    return out


def why(standings: Ranked, a: int, b: int) -> str:
    """Why ``a`` and ``b`` stand where they do: the first criterion that separates them
    (a :class:`Message`, English as before, translated on the web)."""
    f = standings.field
    pa, pb = a - 1, b - 1
    for q, start in ((pa, a), (pb, b)):
        if not 0 <= q < f.n:
            raise KeyError(start)
    for q, start in ((pa, a), (pb, b)):
        if not f.active[q]:
            return Message(
                "{player} is out of the standings (withdrawal rule).", player=_who(standings, start)
            )
    keys = standings.ranking.keys
    ka, kb = keys[pa], keys[pb]
    if ka > kb:
        pa, pb, a, b, ka, kb = pb, pa, b, a, kb, ka
    top, low = _who(standings, a), _who(standings, b)
    ranked = _ranked(standings)
    for depth, (x, y) in enumerate(zip(ka, kb, strict=True)):
        if x == y:
            continue
        if depth == 0:
            return Message(
                "{top} is above {low} on points: {points} against {other}.",
                top=top,
                low=low,
                points=amount(f.points(f.score[pa])),
                other=amount(f.points(f.score[pb])),
            )
        spec = ranked[depth - 1]
        equal = _equal_on(ranked, depth)
        tb = tiebreak(spec)
        if isinstance(tb, DirectEncounter):
            group = standings.ranking.tied_group(pa, depth)
            totals, met = mini_table(f, spec, group)
            members = Message.joined(", ", [q + 1 for q in sorted(group)])
            scores = Message.joined(
                ", ",
                [
                    Message(
                        "{player}: {points}",
                        player=q + 1,
                        points=amount(Fraction(totals[q], f.scale)),
                    )
                    for q in sorted(group)
                ],
            )
            everyone = all(met[q] == len(group) - 1 for q in group)
            how = (
                Message("everyone in the group met everyone")
                if everyone or f.predetermined
                else Message(
                    "not all of them met: C.07 6.3 ranks a player first only when no missing "
                    "game could change it"
                )
            )
            return Message(
                "{top} is above {low} on direct encounter ({code}) after being equal on "
                "{equal}: the games among the tied players {members} give {scores} ({how}).",
                top=top,
                low=low,
                code=spec.code,
                equal=equal,
                members=members,
                scores=scores,
                how=how,
            )
        column = standings.ranking.columns[depth - 1]
        return Message(
            "{top} is above {low} on {code} after being equal on {equal}: {value} against {other}.",
            top=top,
            low=low,
            code=spec.code,
            equal=equal,
            value=amount(column.natural(pa)),
            other=amount(column.natural(pb)),
        )
    rank = standings.ranking.ranks[pa]
    for lot in standings.lots:
        if a in lot.players and b in lot.players:
            return Message(
                "{top} and {low} are equal on points and every tie-break; lots drawn with "
                "seed {seed} put them in the order {order}.",
                top=top,
                low=low,
                seed=lot.seed,
                order=Message.joined(", ", list(lot.order)),
            )
    return Message(
        "{top} and {low} are equal on points and every tie-break: they share rank {rank}.",
        top=top,
        low=low,
        rank=rank,
    )


def _equal_on(ranked: list[TieBreakSpec], depth: int) -> str:
    names: list[object] = [Message("points")] + [s.code for s in ranked[: depth - 1]]
    return Message.joined(", ", names)


def _who(standings: Ranked, start: int) -> str:
    name = standings.names.get(start, "")
    return Message("{start} ({name})", start=start, name=name) if name else str(start)
