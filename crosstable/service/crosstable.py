"""A round robin's crosstable as the pages, sheets and PDFs show it, computed from the
tournament.

:func:`build_crosstable` makes seed 000's "турнирная таблица": one row per player
by starting number, one column per opponent (the head-to-head result is read at
the crossing), then points, the tie-breaks of the regulations (provisional while
games are missing) and the place. Everything is computed, nothing is
typed in: the organiser never adds up. The service keeps the table of each
tournament's current revision (:mod:`crosstable.service.tables`); the web layer
only shows it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from crosstable.core.battle import SETUP_MARK
from crosstable.core.event import Section
from crosstable.core.model import Outcome, Reason, Tournament
from crosstable.core.standings.crosstable import CELL_SYMBOLS
from crosstable.service.live import paired_rounds
from crosstable.service.views import TournamentView

#: what a crosstable cell shows for one player's outcome of one game (byes and
#: pending games stay blank on the page)
CELL = {
    outcome: symbol
    for outcome, symbol in CELL_SYMBOLS.items()
    if outcome.is_decided and not outcome.is_bye
}


_CSS = {"1": "r1", "½": "rh", "0": "r0", "+": "rp", "−": "rm"}


@dataclass(frozen=True, slots=True)
class Cell:
    text: str  # "1", "½", "0", "+", "−" or "" (not played yet)
    round: int
    colour: str  # "w" or "b"

    @property
    def css(self) -> str:
        return _CSS.get(self.text.removesuffix(SETUP_MARK), "")


@dataclass(frozen=True, slots=True)
class GridCell:
    """What one crossing of the table shows: every game of the two players (double: two)."""

    text: str  # "1", "½ 0", "" …
    css: str  # "r1", "rh r0" …
    rounds: str  # "3 ○" (round 3 with White), "3 ○, 8 ●"


def _grid_cell(cells: tuple[Cell, ...]) -> GridCell:
    return GridCell(
        " ".join(c.text for c in cells),
        " ".join(c.css for c in cells),
        ", ".join(f"{c.round} {'○' if c.colour == 'w' else '●'}" for c in cells),
    )


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
    #: one entry per starting number 1…N: the crossing with that opponent (None: oneself)
    grid: tuple[GridCell | None, ...] = ()
    #: the place as the tables write it: "2–7" when six players share 2nd place
    place: str = ""
    #: games played over the board (forfeits and byes are not games played)
    played: int = 0


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


#: a cell of a game played over the board (not a forfeit)
_PLAYED = frozenset({"1", "½", "0"})


def place_texts(ranks: dict[int, int | None]) -> dict[int, str]:
    """Each player's place as a table writes it: a shared place is the range of places the
    tied players hold ("2–7" for six players tied for 2nd), an unshared one the number, no
    place (withdrawn, excluded) empty.

    >>> place_texts({1: 1, 2: 2, 3: 2, 4: 2, 5: 5, 6: None})
    {1: '1', 2: '2–4', 3: '2–4', 4: '2–4', 5: '5', 6: ''}
    """
    sharing: dict[int, int] = {}
    for rank in ranks.values():
        if rank is not None:
            sharing[rank] = sharing.get(rank, 0) + 1
    texts: dict[int, str] = {}
    for start, rank in ranks.items():
        if rank is None:
            texts[start] = ""
        elif sharing[rank] > 1:
            texts[start] = f"{rank}–{rank + sharing[rank] - 1}"
        else:
            texts[start] = str(rank)
    return texts


def _standings(tournament: Tournament, final: bool) -> Any:
    """The standings of the tournament's competitors (its players)."""
    return Section(tournament.name, tournament).standings(final=final)


def build_crosstable(view: TournamentView, tournament: Tournament) -> Crosstable:
    tournament = paired_rounds(tournament)  # (a Swiss's byes asked for ahead count from
    # the round they are paired in)
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
    setup = {
        (rnd.number, start)
        for rnd in tournament.rounds
        for game in rnd.games
        if game.reason is Reason.SETUP_TIMEOUT
        for start in (game.white, game.black)
    }
    for player in players:
        cells: dict[int, list[Cell]] = {}
        free: list[int] = []
        for entry in tournament.entries(player.start):
            if entry.opponent is None:
                if entry.outcome is Outcome.PENDING or entry.outcome.is_bye:
                    free.append(entry.round)
                continue
            text = CELL.get(entry.outcome, "")
            if text and (entry.round, player.start) in setup:
                text += SETUP_MARK  # a battle-chess set-up timeout: its own mark
            cells.setdefault(entry.opponent, []).append(Cell(text, entry.round, entry.colour.value))
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
                grid=tuple(
                    None
                    if other.start == player.start
                    else _grid_cell(tuple(cells.get(other.start, ())))
                    for other in players
                ),
            )
        )
    if not ranked:
        ranked = [line.start for line in sorted(lines, key=lambda x: (-x.points, x.start))]
    places = place_texts({line.start: line.rank for line in lines})
    lines = [
        replace(
            line,
            place=places[line.start],
            played=sum(
                c.text.removesuffix(SETUP_MARK) in _PLAYED
                for games in line.cells.values()
                for c in games
            ),
        )
        for line in lines
    ]
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
