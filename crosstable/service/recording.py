"""Recording a result, fast: the game and the standings from memory, one short transaction.

Most changes during a tournament are results entered one after another. When
the service already holds the tournament's live table (:mod:`crosstable.service.live`)
and the game has no result yet, :func:`record_fast` does what the ordinary path
(:meth:`crosstable.service.play.Play.record_result`) would do, without reading
the database: it builds the same event (same row change, summary and data),
updates the live standings in memory, and writes everything in one transaction
that succeeds only while the database is still at the table's revision
(:mod:`crosstable.store.hotpath`).

When that write does not pass, nothing was written and the result is taken out
of the table again. It is tried once more holding the tournament's write lock:
the table first catches up with the events recorded since its revision (when
they are all results, e.g. from other processes), then the write goes in, and
nobody can get in between. If anything else happened — the game has a result
now, an expected version differs, an idempotency key was used before, the
field or the status changed — the ordinary path answers (a conflict, a replay,
an error, or the same change). So the answers are the same; only the work
differs. (A try that does not pass has read the clock: with a stepping test
clock the times then differ by a step.)

The result of the last game without one (by the table's count) is left to the
ordinary path too: it may finish the tournament in the same change
(:mod:`crosstable.service.finishing`), which needs the rows. That is one result
per round at most; every other result of the round takes the fast path.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from crosstable.core.changes import ResultRecorded, apply_record
from crosstable.core.model import GameResult, Reason
from crosstable.core.reasons import WORDS, reason_words
from crosstable.core.row_changes import RowChange, read_changes
from crosstable.core.text import Message
from crosstable.service.bus import Notification
from crosstable.service.frame import SUMMARY_MESSAGE, Change, ChangeFrame, EventData
from crosstable.service.live import (
    GameState,
    LiveTable,
    LiveTables,
    build_table,
    catch_up,
    standings_text,
)
from crosstable.service.loading import result_code
from crosstable.store.hotpath import (
    Current,
    Events,
    ResultWrite,
    record_result,
    record_result_locked,
)
from crosstable.store.models import TournamentRow


def result_words(value: GameResult, reason: Reason | str) -> str:
    """A result as a history line writes it: ``1-0``, ``+- (no-show)``… (the reason when
    it is not the result's usual one), a Message so that it is translated."""
    if not reason_words(reason, value):
        return value.label()
    why = reason if isinstance(reason, Reason) else Reason(reason)
    return Message("{result} ({reason})", result=value.label(), reason=WORDS[why])


def result_summary(where: str, result: str, players: str) -> Message:
    """A result's history line: ``round 3 board 2: 1-0 (4 Anna – 7 Boris)``."""
    return Message("{where}: {result}{players}", where=where, result=result, players=players)


KIND = "result"


def record_fast(
    frame: ChangeFrame,
    tournament_id: int,
    round_number: int,
    board: int,
    value: GameResult,
    reason: Reason,
    request: EventData,
    *,
    actor: str,
    idempotency_key: str | None,
    expected_version: int | None,
) -> Change | None:
    """The change, recorded; or None when the ordinary path must decide (nothing written)."""
    tables = frame.live_tables
    table = tables.checkout(tournament_id) or _cold_table(frame, tournament_id)
    if table is None:
        return None
    spot = (round_number, board)
    if not _open(table, spot, expected_version) or _last(table):
        tables.checkin(tournament_id, table)  # untouched: still valid
        return None
    ask = _Request(tournament_id, spot, value, reason, request, actor, idempotency_key)
    # (an error on the way propagates: the table, perhaps changed, is let go)
    if table.contended:  # others write this tournament too: straight to the lock
        table.contended -= 1
    else:
        ready = _prepare(frame, table, ask)
        if record_result(frame.store, ready.write):
            return _done(frame, tables, table, ready)
        _take_back(table, ready)
        table.contended = CONTENDED_RUN
    # Someone got in between (or the row or the idempotency key says no): try once more
    # holding the tournament's write lock, after catching up with the events since.
    held: list[_Ready] = []

    def build(current: Current, events: Events) -> ResultWrite | None:
        revision, created_at, status = current
        if created_at != table.created_at or status != "running":
            return None
        if not _catch_up(table, revision, events) or not _open(table, spot, expected_version):
            return None
        if _last(table):
            return None
        held.append(_prepare(frame, table, ask))
        return held[-1].write

    if record_result_locked(frame.store, tournament_id, table.revision, build):
        return _done(frame, tables, table, held[-1])
    if held:  # refused under the lock: the row or the key says no; let the table go
        return None
    tables.checkin(tournament_id, table)  # valid at its (perhaps newer) revision
    return None


#: after a write that did not pass (another process wrote the tournament meanwhile),
#: this many of the next results go straight to the locked try: under contention it
#: saves a try that would fail again
CONTENDED_RUN = 16


@dataclass(slots=True)
class _Request:
    tournament_id: int
    spot: tuple[int, int]
    value: GameResult
    reason: Reason
    request: EventData
    actor: str
    idempotency_key: str | None


@dataclass(slots=True)
class _Ready:
    """A result entered in the table's standings, and the write that makes it true."""

    ask: _Request
    game: GameState
    write: ResultWrite
    notification: Notification
    data: EventData


def _cold_table(frame: ChangeFrame, tournament_id: int) -> LiveTable | None:
    """The live table of a running tournament this service holds none of (e.g. its
    first result since the process started), read from one snapshot of the database:
    then even that result takes the fast path. None: not running (or not there)."""
    with frame.store.reading() as session:
        if frame.store.dialect == "postgresql":  # every read from the same snapshot
            session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
        row = session.get(TournamentRow, tournament_id)
        if row is None or row.status != "running":
            return None
        source = frame.load_live(session, row)
        return None if source is None else build_table(source, row.revision)


def _open(table: LiveTable, spot: tuple[int, int], expected_version: int | None) -> bool:
    """The table says the game waits for its result (and is at the expected version)."""
    game = table.games.get(spot)
    return (
        table.status == "running"
        and game is not None
        and game.result is None
        and (expected_version is None or expected_version == game.version)
    )


def _last(table: LiveTable) -> bool:
    """The game is the last one without a result: the ordinary path records it, as the
    result may finish the tournament (crosstable.service.finishing)."""
    return table.open_games <= 1


def _prepare(frame: ChangeFrame, table: LiveTable, ask: _Request) -> _Ready:
    """Enter the result in the table's standings and build the write at its revision."""
    round_number, board = ask.spot
    game = table.games[ask.spot]
    code = result_code(ask.value)
    assert code is not None
    reason = ask.reason.value
    if game.reason == reason and _plain(code):
        # (the text json.dumps makes of the row change below, made directly)
        changes = _CHANGE_TEXT % (round_number, board, code)
    else:
        before: dict[str, str | None] = {"result": None}
        after: dict[str, str | None] = {"result": code}
        if game.reason != reason:
            before["reason"] = game.reason
            after["reason"] = reason
        key = {"round": round_number, "board": board}
        changes = json.dumps([RowChange("games", key, before, after).to_json()])
    names = table.names
    summary = result_summary(
        Message("round {round} board {board}", round=round_number, board=board),
        result_words(ask.value, ask.reason),
        f" ({game.white} {names[game.white]} – {game.black} {names[game.black]})",
    )
    data = {"request": ask.request}
    table.standings.record(round_number, game.white, game.black, ask.value)
    body = standings_text(table)
    at = frame.now()
    notification = Notification(
        tournament_id=ask.tournament_id,
        seq=table.revision + 1,
        kind=KIND,
        summary=summary,
        games=(ask.spot,),
        origin=frame.bus.origin,
        standings_text=body,
    )
    write = ResultWrite(
        tournament_id=ask.tournament_id,
        revision=table.revision,
        created_at=table.created_at,
        round=round_number,
        board=board,
        result=code,
        reason=reason,
        old_reason=game.reason,
        old_version=game.version,
        at=at,
        actor=ask.actor,
        kind=KIND,
        summary=summary,
        changes=changes,
        data=json.dumps(data | {SUMMARY_MESSAGE: summary.to_json()}),
        idempotency_key=ask.idempotency_key,
        standings=body,
    )
    return _Ready(ask, game, write, notification, data)


#: a result's row change as JSON text (json.dumps's), when the reason stays as it was
_CHANGE_TEXT = (
    '[{"table": "games", "key": {"round": %d, "board": %d}, '
    '"before": {"result": null}, "after": {"result": "%s"}}]'
)


def _plain(code: str) -> bool:
    """A code json.dumps writes as it is (printable ASCII, nothing to escape)."""
    return code.isascii() and code.isprintable() and '"' not in code and "\\" not in code


def _take_back(table: LiveTable, ready: _Ready) -> None:
    """Nothing was written: the table's standings as they were."""
    game = ready.game
    table.standings.record(ready.ask.spot[0], game.white, game.black, None)


def _done(frame: ChangeFrame, tables: LiveTables, table: LiveTable, ready: _Ready) -> Change:
    """The write committed: the table follows, the change is published."""
    write = ready.write
    # (the standings took the result in _prepare; the game's row follows by the applier)
    record = ResultRecorded(write.round, write.board, write.reason, (), write.result)
    apply_record(table.games, record)
    table.open_games -= 1
    table.revision = write.revision + 1
    tables.checkin(write.tournament_id, table)
    frame.announce(ready.notification)
    return Change(
        write.tournament_id,
        table.revision,
        KIND,
        write.summary,
        write.at,
        write.actor,
        data=ready.data,
    )


def _catch_up(table: LiveTable, revision: int, events: Events) -> bool:
    """Bring the table to ``revision`` with the events since its own, when they are all
    results (False: something else changed; the table is as it was)."""
    seqs = [seq for seq, _ in events]
    if seqs != list(range(table.revision + 1, revision + 1)):
        return False  # (a database older than the table: restored from a backup?)
    try:
        stored = [read_changes(changes) for _, changes in events]
    except ValueError:
        return False  # (not row changes as the log writes them: the ordinary path decides)
    return catch_up(table, stored, revision)
