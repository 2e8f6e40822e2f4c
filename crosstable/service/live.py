"""Live standings after each change: the only coupling to the standings core.

The body stored with the tournament (and sent with in-process notifications, as
JSON text) is the standings core's JSON (the command line's shape):
``{"tiebreaks": [...], "rows": [{"start", "rank", "name", "points", <code>: value…}],
"provisional": …}``, computed exactly and printed as JSON numbers (4.5); the live
table writes it straight as text (:mod:`crosstable.service.standings_text`).

A service keeps each tournament's :class:`LiveTable` between changes: the
:class:`LiveStandings`, the state of every game (players, result, reason, row
version) and the tournament's status, all valid at one revision. When the next
change is only game results and nobody else changed the tournament meanwhile
(its revision is the one the table was built at), the table is updated for those
games alone; otherwise it is rebuilt from the database. The fast path for
recording a result (:mod:`crosstable.service.recording`) reads the game from
this table instead of the database, and its write succeeds only while the
database is still at the table's revision.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from crosstable.core.changes import (
    ChangeRecord,
    GameRecord,
    GameRow,
    apply_record,
    read_event,
)
from crosstable.core.model import ByeKind, GameResult, Outcome, Tournament
from crosstable.core.row_changes import RowChange
from crosstable.core.standings import compute_standings
from crosstable.core.standings.live import LiveStandings
from crosstable.service.standings_text import StandingsText

#: one game as the database has it at the table's revision (the kept row every copy
#: changes through :func:`crosstable.core.changes.apply_record`)
GameState = GameRow


@dataclass(frozen=True, slots=True)
class LiveSource:
    """What a live table is built from: the core value and the games' row states."""

    tournament: Tournament
    games: dict[tuple[int, int], GameState]
    status: str
    created_at: str


@dataclass
class LiveTable:
    """One tournament's live table, valid at ``revision``."""

    revision: int
    standings: LiveStandings
    #: (round, board) → the game's state
    games: dict[tuple[int, int], GameState]
    #: the tournament's status (registration, running, finished)
    status: str
    #: starting number → name
    names: dict[int, str]
    #: the tournament's creation time (with its id, the tournament's identity)
    created_at: str
    #: results still to send straight to the locked write (others write here too)
    contended: int = 0
    #: games without a result (the fast path leaves the last one to the ordinary path,
    #: which finishes the tournament with it: see crosstable.service.finishing)
    open_games: int = 0
    #: writes the standings' JSON text (made on first use; keeps the texts that do not
    #: change from one result to the next)
    text: StandingsText | None = None


#: live tables a process keeps at most (``CROSSTABLE_LIVE_TABLES`` overrides)
LIVE_TABLES = 2000
#: and their estimated bytes at most (``CROSSTABLE_LIVE_TABLES_MB`` overrides, in MiB)
LIVE_TABLES_BYTES = 128 * 1024 * 1024


def table_bytes(table: LiveTable) -> int:
    """A live table's memory, estimated from its games (measured with
    tracemalloc in bench/bench_portal.py, 40 KB for a round robin of 8 players, 78 KB
    of 12, 188 KB of 20, 680 KB of 40: about 16 KB and 0.85 KB a game)."""
    return 16_000 + 900 * len(table.games)


def env_bound(name: str, default: int, unit: int = 1) -> int:
    """A positive whole number from the environment variable ``name`` (times ``unit``),
    else ``default`` (a process's bounds, set per ``serve`` process)."""
    raw = os.environ.get(name, "")
    return int(raw) * unit if raw.isascii() and raw.isdigit() and int(raw) > 0 else default


class LiveTables:
    """The live tables a service keeps between changes (thread-safe), at most
    ``capacity`` of them and ``max_bytes`` (estimated, :func:`table_bytes`) in all: the
    tables used longest ago are let go first, and rebuilt from the database when a
    change needs them again (10 000 running tournaments do not all
    fit in every process)."""

    def __init__(self, capacity: int | None = None, max_bytes: int | None = None) -> None:
        self.capacity = capacity or env_bound("CROSSTABLE_LIVE_TABLES", LIVE_TABLES)
        self.max_bytes = max_bytes or env_bound(
            "CROSSTABLE_LIVE_TABLES_MB", LIVE_TABLES_BYTES, 1024 * 1024
        )
        #: in order of use, the least recently used first (checkout takes a table out,
        #: checkin puts it back at the end)
        self._tables: dict[int, LiveTable] = {}
        self._sizes: dict[int, int] = {}
        self._bytes = 0
        #: tables let go to stay within the bounds (since the start)
        self.evicted = 0
        self._lock = threading.Lock()

    def checkout(self, tournament_id: int) -> LiveTable | None:
        """Take a table out while a change uses it (it goes back only if the change commits)."""
        with self._lock:
            self._bytes -= self._sizes.pop(tournament_id, 0)
            return self._tables.pop(tournament_id, None)

    def checkin(self, tournament_id: int, table: LiveTable) -> None:
        """Keep ``table`` (unless a newer one came back meanwhile, from another thread)."""
        with self._lock:
            kept = self._tables.pop(tournament_id, None)
            self._bytes -= self._sizes.pop(tournament_id, 0)
            chosen = table if kept is None or kept.revision <= table.revision else kept
            self._tables[tournament_id] = chosen
            self._sizes[tournament_id] = size = table_bytes(chosen)
            self._bytes += size
            while len(self._tables) > 1 and (
                len(self._tables) > self.capacity or self._bytes > self.max_bytes
            ):
                oldest = next(iter(self._tables))
                del self._tables[oldest]
                self._bytes -= self._sizes.pop(oldest, 0)
                self.evicted += 1

    def stats(self) -> tuple[int, int]:
        """The tables kept and their estimated bytes."""
        with self._lock:
            return len(self._tables), self._bytes


def refresh(
    table: LiveTable | None,
    revision: int,
    changes: Sequence[RowChange],
    load: Callable[[], LiveSource | None],
    missed: Callable[[int], Sequence[Sequence[RowChange]]] | None = None,
    created_at: str | None = None,
) -> tuple[str | None, LiveTable | None]:
    """The standings body (JSON text) after a change at ``revision``, and the table to
    keep.

    ``missed(n)`` gives the row changes of the events after ``n`` and before this
    one (made by another process): when they too are results only, the table
    catches up with them instead of being rebuilt. A table of another tournament
    that had the same number (``created_at`` differs) is never used.
    """
    if table is not None and created_at is not None and table.created_at != created_at:
        table = None
    if table is not None and missed is not None and table.revision < revision - 1:
        catch_up(table, missed(table.revision), revision - 1)
    if table is not None and table.revision == revision - 1:
        records = read_event("", changes)
        if games_only(records) and apply_records(table, records):
            table.revision = revision
            return standings_text(table), table
    source = load()
    if source is None:
        return None, None
    kept = build_table(source, revision)
    return standings_text(kept), kept


def build_table(source: LiveSource, revision: int) -> LiveTable:
    """A live table from what the database holds at ``revision``."""
    tournament = paired_rounds(source.tournament)
    live = LiveStandings(tournament, withdrawn=sorted(tournament.withdrawn))
    names = {player.start: player.name for player in tournament.players}
    table = LiveTable(revision, live, source.games, source.status, names, source.created_at)
    table.open_games = sum(1 for game in source.games.values() if game.result is None)
    return table


def apply_records(table: LiveTable, records: Sequence[ChangeRecord]) -> bool:
    """Take the games (and the standings) through game records, with the one applier
    (:func:`crosstable.core.changes.apply_record`); False when a record is a reload or
    names a game the table does not have (then the table is let go). The caller sets
    the revision."""
    for record in records:
        if not isinstance(record, GameRecord) or record.spot not in table.games:
            return False
        step = apply_record(table.games, record)
        if step.before != step.after:
            table.open_games += (step.after is None) - (step.before is None)
            table.standings.record(step.round, step.white, step.black, _result(step.after))
    return True


def games_only(records: Sequence[ChangeRecord]) -> bool:
    """True when every record is a game's (nothing to reload)."""
    return all(isinstance(record, GameRecord) for record in records)


def read_events(events: Iterable[Sequence[RowChange]]) -> list[ChangeRecord]:
    """The records of several events' row changes, in order (the one reader,
    :func:`crosstable.core.changes.read_event`)."""
    return [record for changes in events for record in read_event("", changes)]


def catch_up(table: LiveTable, events: Sequence[Sequence[RowChange]], revision: int) -> bool:
    """Bring ``table`` to ``revision`` with ``events``, the row changes of every event
    after the table's revision up to ``revision``, when they are all game records
    (False: something else changed, or an event is missing; the table is as it was)."""
    if revision < table.revision or len(events) != revision - table.revision:
        return False
    records = read_events(events)
    if not games_only(records) or any(
        isinstance(r, GameRecord) and r.spot not in table.games for r in records
    ):
        return False
    apply_records(table, records)
    table.revision = revision
    return True


def live_standings(tournament: Tournament) -> dict[str, object]:
    """The provisional table of ``tournament`` as it stands now (computed whole)."""
    body: dict[str, object] = compute_standings(
        paired_rounds(tournament), withdrawn=sorted(tournament.withdrawn), final=False
    ).to_json()
    return body


def paired_rounds(tournament: Tournament) -> Tournament:
    """Without the rounds that hold only byes requested ahead (a Swiss round not paired
    yet): such a round counts in the table once it is paired, not before."""
    kept = tuple(
        rnd
        for rnd in tournament.rounds
        if rnd.games or any(bye.kind in (ByeKind.PAIRING, ByeKind.FREE) for bye in rnd.byes)
    )
    return tournament if len(kept) == len(tournament.rounds) else replace(tournament, rounds=kept)


def final_places(tournament: Tournament) -> dict[int, int]:
    """Final place by starting number; players the withdrawal rule removes have none."""
    table = compute_standings(tournament, withdrawn=sorted(tournament.withdrawn), final=True)
    return {row.start: row.rank for row in table.rows if row.rank is not None and not row.excluded}


def standings_text(table: LiveTable) -> str:
    """The stored and published body of a live table: the JSON text of
    :func:`live_standings` for the same tournament (written by the table's own
    :class:`~crosstable.service.standings_text.StandingsText`)."""
    writer = table.text
    if writer is None or writer.live is not table.standings:
        writer = table.text = StandingsText(table.standings)
    return writer.text()


def results_only(changes: Sequence[RowChange]) -> bool:
    """True when an event's row changes are game results (and reports) alone."""
    return games_only(read_event("", changes))


def _result(code: str | None) -> GameResult | None:
    return None if code is None else GameResult(Outcome(code[0]), Outcome(code[1]))
