"""The fast path from a cold start: a service that holds no live table of a tournament
(a process that just started) reads one from a single snapshot and records even its
first result the fast way, with the same rows, standings and answers."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select
from test_service_support import db_url, make_service, started, store  # noqa: F401

from crosstable.service import Service
from crosstable.service import recording as recording_module
from crosstable.service.live import live_standings
from crosstable.store import Store
from crosstable.store.models import GameRow


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    tried: list[bool] = []
    original = recording_module.record_result

    def spy(*args: Any) -> bool:
        done = bool(original(*args))
        tried.append(done)
        return done

    monkeypatch.setattr(recording_module, "record_result", spy)
    return tried


def _check(service: Service, tid: int) -> None:
    """The stored standings are a recount; the table the service keeps is the database."""
    stored = dict(service.live_standings(tid) or {})
    assert stored.pop("revision") == service.history(tid)[-1].seq
    assert stored == live_standings(service.tournament(tid))
    assert service.verify(tid) == []
    table = service.live_tables.checkout(tid)
    assert table is not None
    service.live_tables.checkin(tid, table)
    with service.store.reading() as session:
        rows = session.scalars(select(GameRow).where(GameRow.tournament_id == tid)).all()
        held = {(g.round, g.board): (g.result, g.reason, g.version) for g in rows}
    kept = {spot: (g.result, g.reason, g.version) for spot, g in table.games.items()}
    assert kept == held
    assert table.revision == service.history(tid)[-1].seq


def test_the_first_result_of_a_fresh_service_is_fast(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    tid = started(make_service(store), 6, tiebreaks=("DE", "SB", "WIN"))
    tried = _spy(monkeypatch)
    fresh = make_service(store)  # as in a process that just started: no live table
    change = fresh.record_result(tid, 1, 1, "1-0")
    assert tried == [True]
    assert fresh.history(tid)[-1].summary == change.summary
    _check(fresh, tid)
    again = make_service(store)
    assert again.record_result(tid, 1, 1, "1-0").replayed  # the same again: the
    assert tried == [True]  # ordinary path answers (the table says it has a result)
    _check(again, tid)


def test_a_change_while_the_table_is_read_is_not_mixed_in(
    db_url: str, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process commits between the reads of a cold load: the table is the
    snapshot before it, its write does not pass, and it catches up under the lock."""
    tid = started(make_service(store), 6)
    other = make_service(store)
    cold = make_service(store)
    tried = _spy(monkeypatch)
    load = cold._load_live

    def interrupted(session: Any, row: Any) -> Any:
        other.record_result(tid, 1, 2, "0-1")  # commits after the revision was read
        return load(session, row)

    monkeypatch.setattr(cold, "_load_live", interrupted)
    cold.record_result(tid, 1, 1, "½-½")
    assert tried[-1] is False  # the table was one change behind: nothing written
    results = {(g.round, g.board): g.result for g in cold.overview(tid).games}
    assert (results[(1, 1)], results[(1, 2)]) == ("½-½", "0-1")
    _check(cold, tid)
    monkeypatch.setattr(cold, "_load_live", load)
    cold.record_result(tid, 1, 3, "1-0")  # the table it kept is right
    _check(cold, tid)


def test_a_tournament_not_running_is_left_to_the_ordinary_path(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = make_service(store)
    tid = started(service, 4)
    for round_number in (1, 2, 3):
        for board in (1, 2):
            service.record_result(tid, round_number, board, "1-0")
    service.finish(tid)
    tried = _spy(monkeypatch)
    fresh = make_service(store)
    with pytest.raises(Exception, match="finished"):
        fresh.record_result(tid, 1, 1, "0-1")
    assert tried == []
