"""The crosstable (seed 000's "турнирная таблица"): the main view.

One row per player in starting-number order; in a round robin one column per
opponent (with one result per cycle), in a Swiss event one column per round
(opponent, colour, result). Then points, tie-breaks and place. Results are
``1 ½ 0``; forfeits ``+``/``−``; a battle-chess set-up timeout ``1† ½† 0†``; a game
not played yet is ``·``; games of a player taken out by the withdrawal rule stay,
in brackets, e.g. ``(1)``.

>>> from crosstable.core.model import Game, GameResult, Player, Round, Tournament
>>> from crosstable.core.standings.table import compute_standings
>>> t = Tournament(players=(Player(1, "A"), Player(2, "B")),
...                rounds=(Round(1, (Game(1, 1, 1, 2, GameResult.parse("+-")),)),))
>>> view = crosstable_view(t, compute_standings(t, "SB"))
>>> view.rows[0].cells, view.rows[1].cells
((('×',), ('+',)), (('−',), ('×',)))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from crosstable.core.battle import SETUP_MARK
from crosstable.core.model import Colour, Outcome, Reason, Tournament
from crosstable.core.scoring import points_json
from crosstable.core.standings.table import Standings
from crosstable.core.tiebreaks.explain import Number, show

#: what a crosstable cell shows for one player's outcome of one round
CELL_SYMBOLS = {
    Outcome.WIN: "1",
    Outcome.SHORT_WIN: "1",
    Outcome.DRAW: "½",
    Outcome.SHORT_DRAW: "½",
    Outcome.LOSS: "0",
    Outcome.SHORT_LOSS: "0",
    Outcome.FORFEIT_WIN: "+",
    Outcome.FORFEIT_LOSS: "−",
    Outcome.HALF_BYE: "H",
    Outcome.FULL_BYE: "F",
    Outcome.PAIRING_BYE: "U",
    Outcome.ZERO_BYE: "Z",
    Outcome.PENDING: "·",
    Outcome.UNKNOWN: "*",
}


@dataclass(frozen=True, slots=True)
class CrosstableRow:
    start: int
    name: str
    rating: int | None
    cells: tuple[tuple[str, ...], ...]  # round robin: per opponent, per cycle; Swiss: per round
    points: Fraction
    values: tuple[Number | None, ...]
    rank: int | None
    withdrawn: str = ""
    excluded: bool = False


@dataclass(frozen=True, slots=True)
class Crosstable:
    by_opponent: bool  # True: columns are opponents (round robin); False: rounds
    columns: tuple[int, ...]  # opponents' starting numbers, or round numbers
    cycles: int
    tiebreaks: tuple[str, ...]
    rows: tuple[CrosstableRow, ...]
    provisional: bool

    def to_json(self) -> dict[str, object]:
        rows = []
        for row in self.rows:
            item: dict[str, object] = {"start": row.start, "name": row.name}
            key = "results" if self.by_opponent else "rounds"
            item[key] = {
                str(c): list(cell) if self.by_opponent else cell[0]
                for c, cell in zip(self.columns, row.cells, strict=True)
            }
            item["points"] = points_json(row.points, "float")
            for code, value in zip(self.tiebreaks, row.values, strict=True):
                item[code] = points_json(value, "typed")
            item["rank"] = row.rank
            if row.withdrawn:
                item["withdrawn"] = row.withdrawn
            if row.excluded:
                item["excluded"] = True
            rows.append(item)
        return {
            "by": "opponent" if self.by_opponent else "round",
            "cycles": self.cycles,
            "tiebreaks": list(self.tiebreaks),
            "provisional": self.provisional,
            "rows": rows,
        }

    def text(self) -> str:
        """The crosstable as a fixed-width text grid."""
        headers = ["No", "Name", "Rtg"]
        headers += [str(c) for c in self.columns]
        headers += ["Pts", *self.tiebreaks, "Rank"]
        lines = []
        for row in self.rows:
            name = row.name + (" (w)" if row.withdrawn else "")
            cells = [" ".join(cell) for cell in row.cells]
            rank = "—" if row.rank is None else str(row.rank)
            if row.excluded:
                rank = "out"
            values = [show(v) for v in row.values]
            rating = "" if row.rating is None else str(row.rating)
            lines.append([str(row.start), name, rating, *cells, show(row.points), *values, rank])
        widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(headers)]
        out = []
        for line in [headers, *lines]:
            cols = [
                text.ljust(width) if i == 1 else text.rjust(width)
                for i, (text, width) in enumerate(zip(line, widths, strict=True))
            ]
            out.append("  ".join(cols).rstrip())
        if self.provisional:
            out.append("provisional: games are still to be played")
        return "\n".join(out)


def crosstable_view(tournament: Tournament, standings: Standings) -> Crosstable:
    """Build the crosstable of ``tournament`` with the values of ``standings``."""
    size = len(tournament.players)
    excluded = standings.withdrawals.excluded
    forfeited = standings.withdrawals.forfeited
    by_row = {row.start: row for row in standings.rows}
    by_opponent = standings.field.round_robin
    meetings: dict[tuple[int, int], list[str]] = {}
    per_round: dict[int, list[str]] = {p.start: [] for p in tournament.players}
    for rnd in tournament.rounds:
        seen: set[int] = set()
        for game in rnd.games:
            for me, other, colour in (
                (game.white, game.black, Colour.WHITE),
                (game.black, game.white, Colour.BLACK),
            ):
                outcome = game.outcome_of(me)
                if not outcome.is_decided and (me in forfeited or other in forfeited):
                    outcome = Outcome.FORFEIT_LOSS if me in forfeited else Outcome.FORFEIT_WIN
                symbol = CELL_SYMBOLS[outcome]
                if game.reason is Reason.SETUP_TIMEOUT and game.result is not None:
                    symbol += SETUP_MARK  # battle chess: its own mark
                if me in excluded or other in excluded:
                    symbol = f"({symbol})"
                meetings.setdefault((me, other), []).append(symbol)
                per_round[me].append(f"{other}{colour.value}{symbol}")
                seen.add(me)
        for bye in rnd.byes:
            per_round[bye.player].append(
                "—" if bye.kind.value == "free" else CELL_SYMBOLS[bye.kind.outcome]
            )
            seen.add(bye.player)
        for start in per_round:
            if start not in seen:
                per_round[start].append("—" if by_opponent else "Z")
    cycles = max((len(v) for v in meetings.values()), default=1)
    columns = (
        tuple(range(1, size + 1)) if by_opponent else tuple(r.number for r in tournament.rounds)
    )
    rows = []
    for player in tournament.players:
        start = player.start
        if by_opponent:
            cells = tuple(
                ("×",) * cycles
                if other == start
                else tuple((meetings.get((start, other), []) + ["·"] * cycles)[:cycles])
                for other in columns
            )
        else:
            cells = tuple((cell,) for cell in per_round[start])
        row = by_row.get(start)
        rows.append(
            CrosstableRow(
                start=start,
                name=player.name,
                rating=player.rating,
                cells=cells,
                points=row.points if row else tournament.score(start),
                values=row.values if row else tuple(None for _ in standings.tiebreaks),
                rank=row.rank if row else None,
                withdrawn=standings.withdrawals.withdrawn.get(start, ""),
                excluded=start in excluded,
            )
        )
    return Crosstable(
        by_opponent=by_opponent,
        columns=columns,
        cycles=cycles,
        tiebreaks=standings.tiebreaks,
        rows=tuple(rows),
        provisional=standings.provisional,
    )
