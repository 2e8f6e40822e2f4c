"""What the pages show, built from the service's views and the standings core.

:func:`crosstable_of` makes seed 000's "турнирная таблица" (R-RR-15): one row
per player by starting number, one column per opponent (the head-to-head
result is read at the crossing), then points, the tie-breaks of the
regulations (provisional while games are missing, R-RR-12) and the place.
Everything is computed, nothing is typed in: the organiser never adds up.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.battle import SETUP_MARK
from crosstable.core.model import Outcome, Reason, Tournament
from crosstable.core.standings.crosstable import CELL_SYMBOLS
from crosstable.service import Service
from crosstable.service.errors import NotFoundError
from crosstable.service.live import results_only
from crosstable.service.loading import result_label, result_of
from crosstable.service.queries import TournamentView
from crosstable.store.models import EventRow, TournamentRow

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
    #: the place as the tables write it: "2–7" when six players share 2nd place (issue 15.9)
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


#: history entries without row changes (who organises, access, staff, account links:
#: crosstable.service.accounts): undo and revert pass over them, so "revert to here" would
#: not bring back what they say. (The knockout stage's kind is informational on a group but
#: a change on the knockout itself, so it stays revertible.)
INFORMATIONAL = frozenset(
    {"claim", "approval", "access", "staff", "account-link", "account-unlink"}
)


def revertible(items: list[Any]) -> set[int]:
    """The history entries (``Service.history``) the organiser may revert to: not the
    latest, not one already undone, not an informational one (issue 15.11)."""
    latest = max((item.seq for item in items), default=0)
    return {
        item.seq
        for item in items
        if item.seq != latest and not item.undone and item.kind not in INFORMATIONAL
    }


def _standings(tournament: Tournament, final: bool) -> Any:
    """The standings core (issue 3); None when it cannot rank this tournament."""
    try:
        from crosstable.core.standings.table import compute_standings
    except ImportError:  # pragma: no cover - the core ships with the package
        return None
    return compute_standings(tournament, final=final)


def build_crosstable(view: TournamentView, tournament: Tournament) -> Crosstable:
    from crosstable.service.live import paired_rounds  # (a Swiss's byes asked for ahead)

    tournament = paired_rounds(tournament)  # count from the round they are paired in
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
                text += SETUP_MARK  # a battle-chess set-up timeout (R-SE-9): its own mark
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


def snapshot(service: Service, tournament_id: int) -> tuple[TournamentView, Tournament]:
    """The screen view and the core value of a tournament from one consistent read.

    (``Service.overview`` and ``Service.tournament`` each load every row; a page
    needs both, so this loads them once, with the service's own loaders.)
    """
    with service.store.reading() as session:
        row = session.get(TournamentRow, tournament_id)
        if row is None:
            raise NotFoundError(f"there is no tournament {tournament_id} in this database")
        return _load(session, row)


def _load(session: Session, row: TournamentRow) -> tuple[TournamentView, Tournament]:
    from crosstable.service.loading import Loaded
    from crosstable.service.queries import _view

    loaded = Loaded(session, row)
    return _view(loaded), loaded.tournament()


#: a cached table this many changes behind or less is brought up to date from the
#: history's row changes when they are all game results; beyond, it is reloaded
CATCH_UP = 64


@dataclass(frozen=True, slots=True)
class _Cached:
    view: TournamentView
    tournament: Tournament
    table: Crosstable
    #: with the id, the tournament's identity (an id may be used again after a deletion)
    created_at: str

    @property
    def revision(self) -> int:
        return self.view.revision


def _reason(text: str) -> Reason:
    try:
        return Reason(text)
    except ValueError:  # (as the service's loader reads it)
        return Reason.NORMAL


def _label(code: str | None) -> str | None:
    return None if code is None else result_label(code)


def catch_up(
    view: TournamentView, tournament: Tournament, events: list[list[dict[str, Any]]]
) -> tuple[TournamentView, Tournament]:
    """``view`` and ``tournament`` after the events' row changes, when every one is a
    game's result, reason or reports (:func:`crosstable.service.live.results_only`).

    The same columns the service's loader reads, changed the way the store changed
    them (a game's version goes up by one per change record); the caller sets the
    revision. A change of anything else raises ``LookupError`` (reload instead).
    """
    games = {(g.round, g.board): g for g in view.games}
    cores = {(g.round, g.board): g for rnd in tournament.rounds for g in rnd.games}
    touched: set[tuple[int, int]] = set()
    for changes in events:
        if not results_only(changes):
            raise LookupError("not only results")
        for change in changes:
            spot = (int(change["key"]["round"]), int(change["key"]["board"]))
            game, core = games[spot], cores[spot]
            after = change["after"]
            shown: dict[str, Any] = {"version": game.version + 1}
            if "result" in after:
                shown["result"] = _label(after["result"])
                core = replace(core, result=result_of(after["result"]))
            if "reason" in after:
                core = replace(core, reason=_reason(after["reason"]))
            for report in ("white_report", "black_report"):
                if report in after:
                    shown[report] = _label(after[report])
            games[spot], cores[spot] = replace(game, **shown), core
            touched.add(spot)
    rounds = tuple(
        replace(rnd, games=tuple(cores[(g.round, g.board)] for g in rnd.games))
        if any((rnd.number, g.board) in touched for g in rnd.games)
        else rnd
        for rnd in tournament.rounds
    )
    view = replace(view, games=tuple(games[(g.round, g.board)] for g in view.games))
    return view, replace(tournament, rounds=rounds)


class CrosstableCache:
    """The crosstable of each tournament at its latest revision, computed once for everyone.

    After a change of game results (the usual change during play) the cached table
    is brought up to date from the change's row changes in the history (one small
    read) instead of reloading the whole tournament; any other change, or a table
    too far behind, reloads it. Either way it is the table at the database's
    current revision, also when another process made the change.
    """

    def __init__(self, service: Service, size: int = 256) -> None:
        self.service = service
        self.size = size
        self._items: OrderedDict[int, _Cached] = OrderedDict()
        self._lock = threading.Lock()

    def revision(self, tournament_id: int) -> int:
        """The tournament's current revision (one indexed read; NotFoundError if none)."""
        with self.service.store.reading() as session:
            revision = session.scalar(
                select(TournamentRow.revision).where(TournamentRow.id == tournament_id)
            )
        if revision is None:
            raise NotFoundError(f"there is no tournament {tournament_id} in this database")
        return int(revision)

    def get(self, tournament_id: int) -> tuple[TournamentView, Crosstable]:
        with self.service.store.reading() as session:
            head = session.execute(
                select(TournamentRow.revision, TournamentRow.created_at).where(
                    TournamentRow.id == tournament_id
                )
            ).first()
            if head is None:
                raise NotFoundError(f"there is no tournament {tournament_id} in this database")
            revision, created_at = int(head[0]), str(head[1])
            with self._lock:
                hit = self._items.get(tournament_id)
                if hit is not None and hit.created_at != created_at:
                    hit = None  # another tournament that has the same number
                if hit is not None and hit.revision == revision:
                    self._items.move_to_end(tournament_id)
                    return hit.view, hit.table
            caught_up = None
            if hit is not None and 0 < revision - hit.revision <= CATCH_UP:
                caught_up = self._caught_up(session, hit, revision)
            if caught_up is None:
                row = session.get(TournamentRow, tournament_id)
                if row is None:
                    raise NotFoundError(f"there is no tournament {tournament_id} in this database")
                view, tournament = _load(session, row)
                created_at = row.created_at
            else:
                view, tournament = caught_up
        fresh = _Cached(view, tournament, build_crosstable(view, tournament), created_at)
        with self._lock:
            current = self._items.get(tournament_id)
            if (
                current is None
                or current.created_at != fresh.created_at
                or current.revision <= fresh.revision
            ):
                self._items[tournament_id] = fresh
                self._items.move_to_end(tournament_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return fresh.view, fresh.table

    def _caught_up(
        self, session: Session, hit: _Cached, revision: int
    ) -> tuple[TournamentView, Tournament] | None:
        """``hit`` brought to ``revision`` by the history's row changes, if they are results."""
        query = (
            select(EventRow.changes)
            .where(
                EventRow.tournament_id == hit.view.id,
                EventRow.seq > hit.revision,
                EventRow.seq <= revision,
            )
            .order_by(EventRow.seq)
        )
        events = [
            json.loads(changes) if isinstance(changes, str) else changes
            for changes in session.scalars(query)
        ]
        if len(events) != revision - hit.revision:
            return None
        try:
            view, tournament = catch_up(hit.view, hit.tournament, events)
        except (LookupError, TypeError, ValueError):
            return None  # (not results; reload)
        return replace(view, revision=revision), tournament
