"""Recording a result, fast: the game and the standings from memory, one short transaction.

Most changes during a tournament are results entered one after another. When
the service already holds the tournament's live table (:mod:`crosstable.service.live`)
and the game has no result yet, :func:`record_fast` does what the ordinary path
(:meth:`crosstable.service.play.Play.record_result`) would do, without reading
the database: it builds the same event (same row change, summary and data),
updates the live standings in memory, and writes everything in one transaction
that succeeds only while the database is still at the table's revision
(:mod:`crosstable.store.hotpath`). Whenever that is not so — another process
changed the tournament, the game has a result, an expected version differs, an
idempotency key was used before — nothing is written, the table is dropped, and
the ordinary path answers (a conflict, a replay, an error, or the same change).
So the answers are the same; only the work differs.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from crosstable.core.model import GameResult, Reason
from crosstable.service.bus import CHANNEL, Notification
from crosstable.service.live import standings_json
from crosstable.service.loading import result_code
from crosstable.store.hotpath import ResultWrite, record_result

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
    from crosstable.service.base import Change

    tables = service.live_tables
    table = tables.checkout(tournament_id)
    if table is None:
        return None
    spot = (round_number, board)
    game = table.games.get(spot)
    if (
        table.status != "running"
        or game is None
        or game.result is not None
        or (expected_version is not None and expected_version != game.version)
    ):
        tables.checkin(tournament_id, table)  # untouched: still valid
        return None
    code = result_code(value)
    assert code is not None
    before: dict[str, Any] = {"result": None}
    after: dict[str, Any] = {"result": code}
    if game.reason != reason.value:
        before["reason"] = game.reason
        after["reason"] = reason.value
    changes = [
        {
            "table": "games",
            "key": {"round": round_number, "board": board},
            "before": before,
            "after": after,
        }
    ]
    names = table.names
    summary = (
        f"round {round_number} board {board}: {value.label()} "
        f"({game.white} {names[game.white]} – {game.black} {names[game.black]})"
    )
    data = {"request": request}
    seq = table.revision + 1
    # from here on the table is changed: it goes back only if the write commits
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
    if not record_result(service.store, write):
        return None
    game.result = code
    game.reason = reason.value
    game.version += 1
    table.revision = seq
    tables.checkin(tournament_id, table)
    service.bus.publish(notification)
    return Change(tournament_id, seq, KIND, summary, at, actor, data=data)
