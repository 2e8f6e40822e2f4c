"""The standings table: rows in ranking order, with points and tie-breaks.

>>> from crosstable.core.model import Game, GameResult, Player, Round, Tournament
>>> t = Tournament(players=(Player(1, "A"), Player(2, "B"), Player(3, "C")), rounds=(
...     Round(1, (Game(1, 1, 2, 3, GameResult.DRAW()),)),
...     Round(2, (Game(2, 1, 3, 1, GameResult.BLACK_WINS()),)),
...     Round(3, (Game(3, 1, 1, 2, GameResult.DRAW()),))))
>>> table = compute_standings(t, "DE,SB")
>>> [(row.start, row.rank, str(row.points)) for row in table.rows]
[(1, 1, '3/2'), (2, 2, '1'), (3, 3, '1/2')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field as _field
from fractions import Fraction

from crosstable.core.model import RulesEdition, System, Tournament
from crosstable.core.scoring import points_json
from crosstable.core.standings.begun import rounds_begun
from crosstable.core.standings.compare import explain_player, why
from crosstable.core.standings.ranking import Lot, Ranking, rank
from crosstable.core.standings.withdrawals import WithdrawalEffect, withdrawal_effect
from crosstable.core.tiebreaks.base import Column
from crosstable.core.tiebreaks.explain import Explanation, Number
from crosstable.core.tiebreaks.field import PENDING, Field, compile_field, expelled_out
from crosstable.core.tiebreaks.presets import default_tiebreaks
from crosstable.core.tiebreaks.spec import TieBreakSpec, parse_codes


@dataclass(frozen=True, slots=True)
class Row:
    """One player's line: ``values`` follow :attr:`Standings.tiebreaks`."""

    start: int
    name: str
    rank: int | None
    points: Fraction
    values: tuple[Number | None, ...]
    withdrawn: str = ""  # "", "explicit" or "inferred"
    excluded: bool = False  # taken out by the withdrawal rule

    def value(self, code: str, codes: Sequence[str]) -> Number | None:
        return self.values[list(codes).index(code)]


@dataclass(frozen=True)
class Standings:
    """Ranked rows plus everything needed to explain them."""

    tiebreaks: tuple[str, ...]
    rows: tuple[Row, ...]
    system: System
    edition: RulesEdition
    final: bool
    provisional: bool
    field: Field
    specs: tuple[TieBreakSpec, ...]
    ranking: Ranking
    withdrawals: WithdrawalEffect
    notes: tuple[str, ...] = ()
    lots: tuple[Lot, ...] = ()
    names: dict[int, str] = _field(default_factory=dict)

    def row(self, start: int) -> Row:
        for row in self.rows:
            if row.start == start:
                return row
        raise KeyError(start)

    def to_json(self) -> dict[str, object]:
        """The command-line JSON shape (DESIGN.md): rows in ranking order."""
        return document_json(
            self.tiebreaks,
            self.edition,
            self.system,
            final=self.final,
            provisional=self.provisional,
            rows=[row_json(row, self.tiebreaks) for row in self.rows],
            notes=self.notes,
            lots=self.lots,
        )

    def explain(self, start: int) -> list[Explanation]:
        """Every value of one player, explained (points first)."""
        return explain_player(self, start)

    def why(self, above: int, below: int) -> str:
        """Why one player stands above the other: the criterion that separated them."""
        return why(self, above, below)


def row_json(row: Row, codes: Sequence[str]) -> dict[str, object]:
    """One row of :meth:`Standings.to_json` (``codes``: the table's tie-break codes)."""
    item: dict[str, object] = {
        "start": row.start,
        "rank": row.rank,
        "name": row.name,
        "points": points_json(row.points, "float"),
    }
    for code, value in zip(codes, row.values, strict=True):
        item[code] = points_json(value, "typed")
    if row.withdrawn:
        item["withdrawn"] = row.withdrawn
    if row.excluded:
        item["excluded"] = True
    return item


def document_json(
    tiebreaks: Sequence[str],
    edition: RulesEdition,
    system: System,
    *,
    final: bool,
    provisional: bool,
    rows: object,
    notes: Sequence[str] = (),
    lots: Sequence[Lot] = (),
) -> dict[str, object]:
    """The whole of :meth:`Standings.to_json` around its ``rows`` (in this key order)."""
    out: dict[str, object] = {
        "tiebreaks": list(tiebreaks),
        "rules": edition.value,
        "system": "round-robin" if system.has_predetermined_pairings else "swiss",
        "final": final,
        "provisional": provisional,
        "rows": rows,
    }
    if notes:
        out["notes"] = list(notes)
    if lots:
        out["lots"] = [lot.to_json() for lot in lots]
    return out


def compute_standings(
    tournament: Tournament,
    tiebreaks: str | Sequence[str] | None = None,
    *,
    rules: RulesEdition | None = None,
    system: System | None = None,
    withdrawn: Sequence[int] = (),
    final: bool = False,
    lots_seed: int | None = None,
) -> Standings:
    """Rank ``tournament`` by points, then ``tiebreaks`` (default: its regulations' list,
    else the system's preset).

    ``final`` applies the withdrawal rule to explicit and inferred withdrawals and
    leaves excluded players out; otherwise the table is live: explicit withdrawals
    show their provisional effect and excluded players stay in, unranked, at the end.
    ``lots_seed`` breaks ties left after the list by a reproducible drawing of lots
    (default: the tournament's settings' seed).
    """
    if lots_seed is None:
        lots_seed = tournament.settings.lots_seed
    system = system or tournament.settings.system
    edition = rules or tournament.settings.rules
    if tiebreaks is None or (not isinstance(tiebreaks, str) and not tiebreaks):
        tiebreaks = tournament.settings.tiebreaks or default_tiebreaks(system)
    specs = parse_codes(tiebreaks)
    # a bye counts once its round has begun; a final table counts every bye
    byes_from = None if final else rounds_begun(tournament)
    raw = compile_field(tournament, system=system, edition=edition, byes_from=byes_from)
    effect = withdrawal_effect(
        tournament, raw, system=system, explicit=frozenset(withdrawn), final=final
    )
    f = raw
    if effect.excluded or effect.forfeited:
        f = compile_field(
            tournament,
            system=system,
            edition=edition,
            excluded=effect.excluded,
            forfeit_pending=effect.forfeited,
            byes_from=byes_from,
        )
    ranked_specs = [s for s in specs if s.name != "PTS"]
    ranking = rank(f, ranked_specs, lots_seed=lots_seed)
    return assemble(tournament, f, specs, ranking, effect, final=final, system=system)


def assemble(
    tournament: Tournament,
    f: Field,
    specs: Sequence[TieBreakSpec],
    ranking: Ranking,
    effect: WithdrawalEffect,
    *,
    final: bool,
    system: System,
    extra_notes: Sequence[str] = (),
) -> Standings:
    """Build the rows from a ranking (also used by the live table)."""
    columns: dict[TieBreakSpec, Column] = {}
    ranked = [s for s in specs if s.name != "PTS"]
    for spec, column in zip(ranked, ranking.columns, strict=True):
        columns[spec] = column
    notes = table_notes(effect, ranking.columns, [*extra_notes, *lots_notes(ranking.lots)])
    names = {p.start: p.name for p in tournament.players}
    listed = list(ranking.order)
    expelled = {p for p in range(f.n) if expelled_out(tournament, p + 1)}
    listed += [p for p in range(f.n) if not f.active[p] and (not final or p in expelled)]
    aligned: list[Column | None] = [None if s.name == "PTS" else columns[s] for s in specs]
    flags = dict(effect.withdrawn) | {p + 1: "expelled" for p in expelled}  # shown apart
    rows = [build_row(f, p, aligned, ranking, names, flags) for p in listed]
    return Standings(
        tiebreaks=tuple(s.code for s in specs),
        rows=tuple(rows),
        system=system,
        edition=f.edition,
        final=final,
        provisional=is_provisional(tournament, f),
        field=f,
        specs=tuple(specs),
        ranking=ranking,
        withdrawals=effect,
        notes=tuple(notes),
        lots=ranking.lots,
        names=names,
    )


def lots_notes(lots: Sequence[Lot]) -> list[str]:
    """One note per tie the lots broke, e.g. "lots drawn, seed 7: players 2,
    5 were equal on points and every tie-break; the lots put them in the order 5, 2"."""
    return [
        f"lots drawn, seed {lot.seed}: players {', '.join(map(str, lot.players))} were "
        "equal on points and every tie-break; the lots put them in the order "
        f"{', '.join(map(str, lot.order))}"
        for lot in lots
    ]


def table_notes(
    effect: WithdrawalEffect, columns: Sequence[Column], extra: Sequence[str] = ()
) -> list[str]:
    """The notes under a table: the withdrawal rule's, then why a tie-break was dropped."""
    notes = list(effect.notes)
    for column in columns:
        if column.dropped and column.dropped not in notes:
            notes.append(column.dropped)
    notes.extend(extra)
    return notes


def build_row(
    f: Field,
    p: int,
    aligned: Sequence[Column | None],
    ranking: Ranking,
    names: dict[int, str],
    withdrawn: dict[int, str],
) -> Row:
    """Player index ``p``'s row: ``aligned`` holds each listed tie-break's column (None
    for PTS, the points)."""
    start = p + 1
    active = f.active[p]
    points = f.points(f.score[p])
    values: list[Number | None] = []
    for shown in aligned:
        if shown is None:
            values.append(points)
        else:
            values.append(shown.natural(p) if active else None)
    return Row(
        start=start,
        name=names.get(start, ""),
        rank=ranking.ranks.get(p) if active else None,
        points=points,
        values=tuple(values),
        withdrawn=withdrawn.get(start, ""),
        excluded=not active,
    )


def is_provisional(tournament: Tournament, f: Field) -> bool:
    """True while games are missing: results pending or rounds still to come."""
    if any(PENDING in row for p, row in enumerate(f.kind) if f.active[p]):
        return True
    planned = tournament.settings.rounds
    if planned is not None and planned > f.rounds:
        return True
    if f.round_robin and tournament.players:
        size = len(tournament.players)
        per_cycle = size - 1 if size % 2 == 0 else size
        if f.rounds < per_cycle * tournament.settings.cycles:
            return True
    return False
