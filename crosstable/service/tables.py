"""The read model: each tournament's current state as the pages read it, kept once per service.

Where a tournament's state is, and which copy is the truth:

* **The database** (the rows and the history of changes) is the truth. Every
  other copy is a cache that knows the revision, and with the tournament's
  creation time the tournament, it is valid at, and is used only while that
  is the database's current revision.
* **The write side's live table** (:class:`crosstable.service.live.LiveTable`):
  the live standings and every game's row state, so that a result is recorded
  without reading the tournament (:mod:`crosstable.service.recording`). It
  cannot go stale unnoticed: a write built from it commits only while the
  database is still at the table's revision (:mod:`crosstable.store.hotpath`).
* **The stored standings row**, written with every change in the change's
  transaction: the standings as JSON for readers without a live table (the
  command line's ``show``, other processes; :meth:`Queries.live_standings`).
* **This read model** (:class:`ReadModel`): the screen view, the core value and
  the crosstable of each tournament at its latest revision, computed once for
  every reader — a thousand spectators of the live page cost one table per
  change, not one each. Every read first asks the database for the
  tournament's revision and creation time (one indexed read), so a reader never
  gets a table older than the database; a kept copy at an older revision is
  brought up to date by replaying the history's row changes, or reloaded.

Both caches replay recorded changes through one reader and one applier,
:func:`crosstable.core.changes.read_event` (typed records: game records, or a
reload) and :func:`crosstable.core.changes.apply_record`, so they cannot read
or apply a change differently.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from crosstable.core.changes import GameRecord, GameRow, apply_record
from crosstable.core.model import Reason, Tournament
from crosstable.core.row_changes import RowChange, read_changes
from crosstable.service.crosstable import Crosstable, build_crosstable
from crosstable.service.errors import NotFoundError
from crosstable.service.live import env_bound, read_events
from crosstable.service.loading import Loaded, result_code, result_label, result_of
from crosstable.service.views import TournamentView, tournament_view
from crosstable.store import Store
from crosstable.store.models import EventRow, TournamentRow

_HEAD = select(TournamentRow.revision, TournamentRow.created_at).where(
    TournamentRow.id == bindparam("tid")
)

#: a kept table this many changes behind or less is brought up to date from the
#: history's row changes when they are all game results; beyond, it is reloaded
CATCH_UP = 64


@dataclass(frozen=True, slots=True)
class TableState:
    """One tournament as the pages read it, valid at ``view.revision``."""

    view: TournamentView
    tournament: Tournament
    table: Crosstable
    #: with the id, the tournament's identity (an id may be used again after a deletion)
    created_at: str

    @property
    def revision(self) -> int:
        return self.view.revision


def _missing(tournament_id: int) -> NotFoundError:
    return NotFoundError(
        "there is no tournament {tournament} in this database", tournament=tournament_id
    )


def snapshot(store: Store, tournament_id: int) -> tuple[TournamentView, Tournament]:
    """The screen view and the core value of a tournament from one consistent read.

    (``Service.overview`` and ``Service.tournament`` each load every row; a page
    needs both, so this loads them once, with the service's own loaders.)
    """
    with store.reading() as session:
        row = session.get(TournamentRow, tournament_id)
        if row is None:
            raise _missing(tournament_id)
        return _load(session, row)


def _load(session: Session, row: TournamentRow) -> tuple[TournamentView, Tournament]:
    loaded = Loaded(session, row)
    return tournament_view(loaded), loaded.tournament()


def _reason(text: str) -> Reason:
    try:
        return Reason(text)
    except ValueError:  # (as the service's loader reads it)
        return Reason.NORMAL


def _label(code: str | None) -> str | None:
    return None if code is None else result_label(code)


def replay(
    view: TournamentView, tournament: Tournament, events: Sequence[Sequence[RowChange]]
) -> tuple[TournamentView, Tournament]:
    """``view`` and ``tournament`` after the events' records, when every one is a game
    record (:func:`crosstable.service.live.read_events`), applied by the one applier
    (:func:`crosstable.core.changes.apply_record`) to the games' rows.

    The same columns the service's loader reads; the caller sets the revision. A
    reload record (or a game the view does not have) raises ``LookupError``.
    """
    records = read_events(events)
    views = {(g.round, g.board): g for g in view.games}
    cores = {(g.round, g.board): g for rnd in tournament.rounds for g in rnd.games}
    rows: dict[tuple[int, int], GameRow] = {}
    noted: dict[tuple[int, int], set[str]] = {}
    for record in records:
        if not isinstance(record, GameRecord) or record.spot not in cores:
            raise LookupError("not a game record")
        if record.spot not in rows:
            game, core = views[record.spot], cores[record.spot]
            rows[record.spot] = GameRow(
                core.white,
                core.black,
                result_code(core.result),
                core.reason.value,
                game.version,
            )
        apply_record(rows, record)
        noted.setdefault(record.spot, set()).update(column for column, _ in record.reports)
    for spot, row in rows.items():
        shown = replace(views[spot], result=_label(row.result), version=row.version)
        if "white_report" in noted[spot]:
            shown = replace(shown, white_report=_label(row.white_report))
        if "black_report" in noted[spot]:
            shown = replace(shown, black_report=_label(row.black_report))
        views[spot] = shown
        cores[spot] = replace(cores[spot], result=result_of(row.result), reason=_reason(row.reason))
    rounds = tuple(
        replace(rnd, games=tuple(cores[(g.round, g.board)] for g in rnd.games))
        if any((rnd.number, g.board) in rows for g in rnd.games)
        else rnd
        for rnd in tournament.rounds
    )
    view = replace(view, games=tuple(views[(g.round, g.board)] for g in view.games))
    return view, replace(tournament, rounds=rounds)


#: the estimated bytes the read model keeps at most (``CROSSTABLE_READ_MODEL_MB``)
READ_MODEL_BYTES = 128 * 1024 * 1024
#: and the tournaments it keeps at most (``CROSSTABLE_READ_MODEL_TABLES``)
READ_MODEL_TABLES = 256


def state_bytes(state: TableState) -> int:
    """A kept page state's memory, estimated (measured with tracemalloc
    in bench/bench_portal.py, 56 KB for a round robin of 8 players, 108 KB of 12, 251 KB
    of 20, 921 KB of 40: about 8 KB, 1 KB a game and 2.5 KB a player)."""
    return 8_000 + 1_000 * len(state.view.games) + 2_500 * len(state.tournament.players)


class ReadModel:
    """The crosstable of each tournament at its latest revision, computed once for everyone.

    After a change of game results (the usual change during play) the kept table
    is brought up to date from the change's row changes in the history (one small
    read) instead of reloading the whole tournament; any other change, or a table
    too far behind, reloads it. Either way it is the table at the database's
    current revision, also when another process made the change. At most ``size``
    tournaments and ``max_bytes`` (estimated, :func:`state_bytes`) are kept: the least
    recently read are let go first.
    """

    def __init__(self, store: Store, size: int | None = None, max_bytes: int | None = None) -> None:
        self.store = store
        self.size = size or env_bound("CROSSTABLE_READ_MODEL_TABLES", READ_MODEL_TABLES)
        if max_bytes is None:
            max_bytes = env_bound("CROSSTABLE_READ_MODEL_MB", READ_MODEL_BYTES, 1024 * 1024)
        self.max_bytes = max_bytes
        self._items: OrderedDict[int, TableState] = OrderedDict()
        self._sizes: dict[int, int] = {}
        self._bytes = 0
        self._lock = threading.Lock()

    def stats(self) -> tuple[int, int]:
        """The tournaments kept and their estimated bytes."""
        with self._lock:
            return len(self._items), self._bytes

    def revision(self, tournament_id: int) -> int:
        """The tournament's current revision (one indexed read; NotFoundError if none)."""
        return self._head(tournament_id)[0]

    def _head(self, tournament_id: int) -> tuple[int, str]:
        """The tournament's revision and creation time (asked before most reads and after
        every publication: one indexed read, :meth:`Store.first`)."""
        head = self.store.first(_HEAD, {"tid": tournament_id})
        if head is None:
            raise _missing(tournament_id)
        return int(head[0]), str(head[1])

    def _kept(self, tournament_id: int, created_at: str) -> TableState | None:
        """The state kept of the tournament (None: none, or one of another tournament
        that had the same number)."""
        with self._lock:
            hit = self._items.get(tournament_id)
            if hit is None or hit.created_at != created_at:
                return None
            self._items.move_to_end(tournament_id)
            return hit

    def get(self, tournament_id: int) -> tuple[TournamentView, Crosstable]:
        """The screen view and the crosstable at the current revision."""
        state = self.current(tournament_id)
        return state.view, state.table

    def current(self, tournament_id: int) -> TableState:
        """The tournament's state at the database's current revision."""
        revision, created_at = self._head(tournament_id)
        hit = self._kept(tournament_id, created_at)
        if hit is not None and hit.revision == revision:
            return hit
        with self.store.reading() as session:
            if self.store.dialect == "postgresql":  # the head and the rows from one snapshot
                session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            head = session.execute(_HEAD, {"tid": tournament_id}).first()
            if head is None:
                raise _missing(tournament_id)
            revision, created_at = int(head[0]), str(head[1])
            hit = self._kept(tournament_id, created_at)
            if hit is not None and hit.revision == revision:
                return hit
            caught_up = None
            if hit is not None and 0 < revision - hit.revision <= CATCH_UP:
                caught_up = self._caught_up(session, hit, revision)
            if caught_up is None:
                row = session.get(TournamentRow, tournament_id)
                if row is None:
                    raise _missing(tournament_id)
                view, tournament = _load(session, row)
                created_at = row.created_at
            else:
                view, tournament = caught_up
        fresh = TableState(view, tournament, build_crosstable(view, tournament), created_at)
        with self._lock:
            kept = self._items.get(tournament_id)
            if (
                kept is None
                or kept.created_at != fresh.created_at
                or kept.revision <= fresh.revision
            ):
                self._items[tournament_id] = fresh
                self._items.move_to_end(tournament_id)
                self._bytes -= self._sizes.pop(tournament_id, 0)
                self._sizes[tournament_id] = size = state_bytes(fresh)
                self._bytes += size
            while len(self._items) > 1 and (
                len(self._items) > self.size or self._bytes > self.max_bytes
            ):
                oldest, _state = self._items.popitem(last=False)
                self._bytes -= self._sizes.pop(oldest, 0)
        return fresh

    def _caught_up(
        self, session: Session, hit: TableState, revision: int
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
        stored = list(session.scalars(query))
        if len(stored) != revision - hit.revision:
            return None
        try:
            events = [read_changes(changes) for changes in stored]
            view, tournament = replay(hit.view, hit.tournament, events)
        except (LookupError, TypeError, ValueError):
            return None  # (not results; reload)
        return replace(view, revision=revision), tournament
