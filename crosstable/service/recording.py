"""Recording a result, fast: the game and the standings from memory, one short transaction.

Most changes during a tournament are results entered one after another. When
the service already holds the tournament's live table (:mod:`crosstable.service.live`)
and the game has no result yet, :func:`record_fast` does what the ordinary path
(:meth:`crosstable.service.play.Play.record_result`) would do, without reading
the database: it builds the same event (same row change, summary and data),
updates the live standings in memory, and writes everything in one transaction
that succeeds only while the database is still at the table's revision
(:mod:`crosstable.store.hotpath`).

When the write does not pass, nothing was written and the result is taken out
of the table again. If other processes recorded results meanwhile, the table
catches up with them from the event log and the write is tried again; if
anything else happened — the game has a result now, an expected version
differs, an idempotency key was used before, the field or the status changed —
the ordinary path answers (a conflict, a replay, an error, or the same change).
So the answers are the same; only the work differs. (A try that does not pass
has read the clock: with a stepping test clock the times then differ by steps.)
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from crosstable.core.model import GameResult, Reason
from crosstable.service.bus import CHANNEL, Notification
from crosstable.service.live import (
    GameState,
    LiveTable,
    apply_results,
    results_only,
    standings_json,
)
from crosstable.service.loading import result_code
from crosstable.store.hotpath import ResultWrite, events_since, record_result

if TYPE_CHECKING:
    from crosstable.service.base import Change, ServiceBase

KIND = "result"


def record_fast(
    service: ServiceBase,
    tournament_id: int,
    round_number: int,
    board: int,
    value: GameResult,
    reason: Reason,
    request: dict[str, Any],
    *,
    actor: str,
    idempotency_key: str | None,
    expected_version: int | None,
) -> Change | None:
    """The change, recorded; or None when the ordinary path must decide (nothing written)."""
    tables = service.live_tables
    table = tables.checkout(tournament_id)
    if table is None:
        return None
    for _ in range(ATTEMPTS):
        game = table.games.get((round_number, board))
        if (
            table.status != "running"
            or game is None
            or game.result is not None
            or (expected_version is not None and expected_version != game.version)
        ):
            break
        change = _attempt(
            service,
            tournament_id,
            table,
            game,
            (round_number, board),
            value,
            reason,
            request,
            actor,
            idempotency_key,
        )
        if change is not None:
            tables.checkin(tournament_id, table)
            return change
        # nothing written: the table is as it was; catch up with what others wrote
        if not _catch_up(service, tournament_id, table):
            break
    tables.checkin(tournament_id, table)  # valid at its revision
    return None


#: writes tried before handing over to the ordinary path (between two tries the
#: table catches up with the results other processes recorded meanwhile)
ATTEMPTS = 3


def _attempt(
    service: ServiceBase,
    tournament_id: int,
    table: LiveTable,
    game: GameState,
    spot: tuple[int, int],
    value: GameResult,
    reason: Reason,
    request: dict[str, Any],
    actor: str,
    idempotency_key: str | None,
) -> Change | None:
    """One try at writing the result at the table's revision; None: nothing written
    (and the table as it was)."""
    from crosstable.service.base import Change

    round_number, board = spot
    code = result_code(value)
    assert code is not None
    before: dict[str, Any] = {"result": None}
    after: dict[str, Any] = {"result": code}
    if game.reason != reason.value:
        before["reason"] = game.reason
        after["reason"] = reason.value
    key = {"round": round_number, "board": board}
    changes = [{"table": "games", "key": key, "before": before, "after": after}]
    names = table.names
    summary = (
        f"round {round_number} board {board}: {value.label()} "
        f"({game.white} {names[game.white]} – {game.black} {names[game.black]})"
    )
    data = {"request": request}
    seq = table.revision + 1
    table.standings.record(round_number, game.white, game.black, value)
    body = standings_json(table.standings)
    at = service._now()
    notification = Notification(
        tournament_id=tournament_id,
        seq=seq,
        kind=KIND,
        summary=summary,
        games=(spot,),
        origin=service.bus.origin,
        standings=body,
    )
    write = ResultWrite(
        tournament_id=tournament_id,
        revision=table.revision,
        created_at=table.created_at,
        round=round_number,
        board=board,
        result=code,
        reason=reason.value,
        old_reason=game.reason,
        old_version=game.version,
        at=at,
        actor=actor,
        kind=KIND,
        summary=summary,
        changes=json.dumps(changes),
        data=json.dumps(data),
        idempotency_key=idempotency_key,
        standings=json.dumps(body),
        channel=CHANNEL,
        payload=notification.to_json(),
    )
    # (an error propagates: the caller then lets the changed table go)
    if not record_result(service.store, write):
        table.standings.record(round_number, game.white, game.black, None)  # as it was
        return None
    game.result = code
    game.reason = reason.value
    game.version += 1
    table.revision = seq
    service.bus.publish(notification)
    return Change(tournament_id, seq, KIND, summary, at, actor, data=data)


def _catch_up(service: ServiceBase, tournament_id: int, table: LiveTable) -> bool:
    """Bring the table up to the newest event when the events since its revision are all
    results (False: nothing new, or something else changed — the table is as it was)."""
    events = events_since(service.store, tournament_id, table.revision)
    seqs = [seq for seq, _ in events]
    if not events or seqs != list(range(table.revision + 1, table.revision + 1 + len(seqs))):
        return False
    if not all(results_only(changes) for _, changes in events):
        return False
    for _, changes in events:
        apply_results(table, changes)
    table.revision = seqs[-1]
    return True
