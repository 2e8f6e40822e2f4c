"""What the pages show, built from the service's views and the standings core.

:func:`crosstable_of` makes seed 000's "турнирная таблица" (R-RR-15): one row
per player by starting number, one column per opponent (the head-to-head
result is read at the crossing), then points, the tie-breaks of the
regulations (provisional while games are missing, R-RR-12) and the place.
Everything is computed, nothing is typed in: the organiser never adds up.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from crosstable.core.model import Outcome, Tournament
from crosstable.service import Service
from crosstable.service.queries import TournamentView

#: what a crosstable cell shows for one player's outcome of one game
CELL = {
    Outcome.WIN: "1",
    Outcome.SHORT_WIN: "1",
    Outcome.DRAW: "½",
    Outcome.SHORT_DRAW: "½",
    Outcome.LOSS: "0",
    Outcome.SHORT_LOSS: "0",
    Outcome.FORFEIT_WIN: "+",
    Outcome.FORFEIT_LOSS: "−",
}


@dataclass(frozen=True, slots=True)
class Cell:
    text: str  # "1", "½", "0", "+", "−" or "" (not played yet)
    round: int
    colour: str  # "w" or "b"


@dataclass(frozen=True, slots=True)
class PlayerLine:
    start: int
    name: str
    rating: int | None
    title: str
    federation: str
    cells: dict[int, tuple[Cell, ...]]  # opponent's starting number → games against them
    points: Fraction
    values: tuple[Any, ...]  # tie-break values, in the order of ``Crosstable.tiebreaks``
    rank: int | None
    withdrawn: bool = False
    excluded: bool = False
    free_rounds: tuple[int, ...] = ()


@dataclass(frozen=True)
class Crosstable:
    tournament_id: int
    revision: int
    name: str
    status: str
    lines: tuple[PlayerLine, ...]  # by starting number
    tiebreaks: tuple[str, ...]
    provisional: bool
    final: bool
    notes: tuple[str, ...] = ()
    ranked: tuple[int, ...] = ()  # starting numbers in ranking order
    standings: Any = field(default=None, repr=False)

    @property
    def size(self) -> int:
        return len(self.lines)

    def line(self, start: int) -> PlayerLine:
        return self.lines[start - 1]

    def ranked_lines(self) -> list[PlayerLine]:
        return [self.line(s) for s in self.ranked]


def _standings(tournament: Tournament, final: bool) -> Any:
    """The standings core (issue 3); None when it cannot rank this tournament."""
    try:
        from crosstable.core.standings.table import compute_standings
    except ImportError:  # pragma: no cover - the core ships with the package
        return None
    return compute_standings(tournament, final=final)


def build_crosstable(view: TournamentView, tournament: Tournament) -> Crosstable:
    players = tournament.players
    final = view.status == "finished"
    standings = _standings(tournament, final) if players else None
    codes: tuple[str, ...] = ()
    rows: dict[int, Any] = {}
    notes: tuple[str, ...] = ()
    ranked: list[int] = []
    provisional = not final
    if standings is not None:
        codes = tuple(c for c in standings.tiebreaks if c != "PTS")
        shown = [i for i, c in enumerate(standings.tiebreaks) if c != "PTS"]
        for row in standings.rows:
            rows[row.start] = (row, tuple(row.values[i] for i in shown))
            ranked.append(row.start)
        provisional = bool(standings.provisional) and not final
        notes = tuple(standings.notes)
    lines: list[PlayerLine] = []
    withdrawn = {p.start for p in view.players if p.withdrawn_from is not None}
    for player in players:
        cells: dict[int, list[Cell]] = {}
        free: list[int] = []
        for entry in tournament.entries(player.start):
            if entry.opponent is None:
                if entry.outcome is Outcome.PENDING or entry.outcome.is_bye:
                    free.append(entry.round)
                continue
            cells.setdefault(entry.opponent, []).append(
                Cell(CELL.get(entry.outcome, ""), entry.round, entry.colour.value)
            )
        row, values = rows.get(player.start, (None, ()))
        lines.append(
            PlayerLine(
                start=player.start,
                name=player.name,
                rating=player.rating,
                title=player.title,
                federation=player.federation,
                cells={k: tuple(v) for k, v in cells.items()},
                points=tournament.score(player.start) if row is None else row.points,
                values=values or tuple(None for _ in codes),
                rank=None if row is None else row.rank,
                withdrawn=player.start in withdrawn,
                excluded=bool(row is not None and row.excluded),
                free_rounds=tuple(free),
            )
        )
    if not ranked:
        ranked = [line.start for line in sorted(lines, key=lambda x: (-x.points, x.start))]
    return Crosstable(
        tournament_id=view.id,
        revision=view.revision,
        name=view.name,
        status=view.status,
        lines=tuple(lines),
        tiebreaks=codes,
        provisional=provisional,
        final=final,
        notes=notes,
        ranked=tuple(ranked),
        standings=standings,
    )


class CrosstableCache:
    """The crosstable of each tournament at its latest revision, computed once for everyone."""

    def __init__(self, service: Service, size: int = 256) -> None:
        self.service = service
        self.size = size
        self._items: OrderedDict[int, tuple[TournamentView, Crosstable]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, tournament_id: int) -> tuple[TournamentView, Crosstable]:
        view = self.service.overview(tournament_id)
        with self._lock:
            hit = self._items.get(tournament_id)
            if hit is not None and hit[0].revision == view.revision:
                self._items.move_to_end(tournament_id)
                return hit
        table = build_crosstable(view, self.service.tournament(tournament_id))
        with self._lock:
            current = self._items.get(tournament_id)
            if current is None or current[0].revision <= view.revision:
                self._items[tournament_id] = (view, table)
                self._items.move_to_end(tournament_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return view, table
