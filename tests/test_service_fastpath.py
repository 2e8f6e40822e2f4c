"""The fast path for recording results writes exactly what the ordinary path writes,
and never trusts a live table that another service (another process) made stale."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import datetime as dt
import json
import random
import time
from collections.abc import Callable
from typing import Any, cast

import pytest
from sqlalchemy import select
from test_service_support import (  # noqa: F401
    db_url,
    make_service,
    result_write,
    started,
    store,
)

from crosstable.core.errors import CrosstableError
from crosstable.service import (
    Change,
    ConflictError,
    FixedClock,
    Notification,
    PostgresListener,
    Service,
)
from crosstable.service import frame as frame_module
from crosstable.service import recording as recording_module
from crosstable.service.bus import notifier_for
from crosstable.service.live import LiveTable, LiveTables, live_standings
from crosstable.store import Store, open_store
from crosstable.store.hotpath import record_result
from crosstable.store.models import (
    EventRow,
    GameRow,
    LiveStandingsRow,
    PreferenceRow,
    TournamentRow,
)


def _spy(monkeypatch: pytest.MonkeyPatch, name: str = "record_result") -> list[bool]:
    """Every write the fast path tried (``record_result``: at the table's revision;
    ``record_result_locked``: under the lock): True committed, False not."""
    tried: list[bool] = []
    original = getattr(recording_module, name)

    def spy(*args: Any) -> bool:
        done = bool(original(*args))
        tried.append(done)
        return done

    monkeypatch.setattr(recording_module, name, spy)
    return tried


def _answer(call: Callable[[], Change]) -> tuple[Any, ...]:
    try:
        change = call()
    except CrosstableError as error:
        return ("error", type(error).__name__, str(error), getattr(error, "current", None))
    return ("ok", change.seq, change.kind, change.summary, change.at, change.replayed, change.data)


def _script(service: Service, tid: int) -> list[tuple[Any, ...]]:
    """Every kind of answer record_result gives, and changes between results."""
    s = service
    calls: list[Callable[[], Change]] = [
        lambda: s.record_result(tid, 1, 1, "1-0"),
        lambda: s.record_result(tid, 1, 2, "½-½", actor="arbiter"),
        lambda: s.record_result(tid, 1, 2, "½-½"),  # the same again: replayed
        lambda: s.record_result(tid, 1, 2, "0-1"),  # conflict
        lambda: s.record_result(tid, 1, 3, "+-"),  # forfeit: reason changes too
        lambda: s.record_result(tid, 2, 1, "0-1", idempotency_key="k1"),
        lambda: s.record_result(tid, 2, 1, "0-1", idempotency_key="k1"),  # replayed
        lambda: s.record_result(tid, 2, 2, "1-0", idempotency_key="k1"),  # key reused
        lambda: s.record_result(tid, 2, 2, "1-0", expected_version=7),  # stale version
        lambda: s.record_result(tid, 2, 2, "1-0", expected_version=1),
        lambda: s.mark_forfeit(tid, 2, 3, absent="both"),
        lambda: s.record_result(tid, 9, 1, "1-0"),  # no such round
        lambda: s.correct_result(tid, 1, 1, "0-1"),
        lambda: s.record_result(tid, 3, 1, "1-0"),
        lambda: s.undo(tid),
        lambda: s.record_result(tid, 3, 1, "½-½"),  # after the undo: no result there
        lambda: s.report_result(tid, 3, 2, "1-0", player=s.overview(tid).games[7].white or 0),
        lambda: s.record_result(tid, 3, 2, "1-0"),  # a reported game
        lambda: s.withdraw(tid, 7),
        lambda: s.record_result(tid, 3, 3, "0-1"),
        lambda: s.revert_to(tid, 12),
        lambda: s.record_result(tid, 4, 1, "1-0"),
        lambda: s.record_result(tid, 4, 2, "0-1"),
    ]
    return [_answer(call) for call in calls]


def _rows(store: Store, tid: int) -> dict[str, Any]:
    """Everything the tournament has in the database, without database identifiers."""
    with store.reading() as session:
        events = [
            (e.seq, e.at, e.actor, e.kind, e.summary, e.changes, e.data, e.idempotency_key)
            for e in session.scalars(
                select(EventRow).where(EventRow.tournament_id == tid).order_by(EventRow.seq)
            )
        ]
        games = [
            (
                g.round,
                g.board,
                g.white,
                g.black,
                g.result,
                g.reason,
                g.version,
                g.white_report,
                g.black_report,
            )
            for g in session.scalars(
                select(GameRow)
                .where(GameRow.tournament_id == tid)
                .order_by(GameRow.round, GameRow.board)
            )
        ]
        standings = session.get(LiveStandingsRow, tid)
        assert standings is not None
        revision = session.get(TournamentRow, tid).revision  # type: ignore[union-attr]
        return {
            "events": events,
            "games": games,
            "revision": revision,
            "standings": (standings.revision, standings.body),
        }


def test_fast_and_ordinary_paths_write_the_same(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    tried = _spy(monkeypatch)
    # a clock that does not step: a fast attempt that hands over reads it once more
    clock = FixedClock(dt.datetime(2026, 5, 1, 18, 0, tzinfo=dt.UTC))
    ordinary = Service(store, clock=clock, random=random.Random(1))
    fast = Service(store, clock=clock, random=random.Random(1))
    ordinary.fast_path = False
    heard: dict[str, list[Notification]] = {"ordinary": [], "fast": []}
    ordinary.bus.subscribe(heard["ordinary"].append)
    fast.bus.subscribe(heard["fast"].append)
    one, two = started(ordinary, 7), started(fast, 7)  # odd: free rounds too

    assert _script(ordinary, one) == _script(fast, two)
    assert sum(tried) >= 8  # most new results went the fast way
    rows_one, rows_two = _rows(store, one), _rows(store, two)
    for rows in (rows_one, rows_two):
        rows["events"].pop(0)  # the creation names the tournament's number
    assert rows_one == rows_two

    def said(n: Notification) -> tuple[Any, ...]:
        return (n.seq, n.kind, n.summary, n.games, json.dumps(n.standings, sort_keys=True))

    assert [said(n) for n in heard["ordinary"]][1:] == [said(n) for n in heard["fast"]][1:]
    for service, tid in ((ordinary, one), (fast, two)):
        assert service.verify(tid) == []
        stored = dict(service.live_standings(tid) or {})
        assert stored.pop("revision") == service.history(tid)[-1].seq
        assert stored == live_standings(service.tournament(tid))


def test_a_change_by_another_service_is_never_missed(
    db_url: str, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    tried = _spy(monkeypatch)
    locked = _spy(monkeypatch, "record_result_locked")
    here = make_service(store)
    other_store = open_store(db_url)  # another process, as it were: its own connections
    try:
        there = make_service(other_store, seed=2)
        tid = started(here, 6, tiebreaks=("DE", "SB", "WIN"))
        loads: list[int] = []
        load_live = frame_module.load_live

        def counted(session: Any, row: TournamentRow) -> Any:
            loads.append(row.id)
            return load_live(session, row)

        monkeypatch.setattr(frame_module, "load_live", counted)

        def check() -> None:
            for service in (here, there):
                stored = dict(service.live_standings(tid) or {})
                assert stored.pop("revision") == service.history(tid)[-1].seq
                assert stored == live_standings(service.tournament(tid))
            assert here.verify(tid) == []

        here.record_result(tid, 1, 1, "1-0")  # the start left here a live table
        here.record_result(tid, 1, 2, "½-½")
        assert tried == [True, True]
        there.record_result(tid, 1, 3, "0-1")  # there's first: it reads a table, then fast
        assert tried == [True, True, True] and loads == [tid]
        # here's table still says round 1 board 3 has no result: the write must not pass
        with pytest.raises(ConflictError) as conflict:
            here.record_result(tid, 1, 3, "1-0")
        assert conflict.value.current == "0-1"
        assert tried[3:] == [False]  # then, under the lock, the table caught up
        assert locked == [False]  # and saw the result there: the ordinary path answered
        # others write here too: the next results go straight to the locked write
        here.record_result(tid, 2, 1, "1-0")
        here.record_result(tid, 2, 2, "0-1")
        assert tried[3:] == [False] and locked == [False, True, True]
        check()
        there.correct_result(tid, 2, 2, "1-0")
        here.record_result(tid, 2, 3, "½-½")
        check()
        there.undo(tid)  # takes back here's last result
        here.record_result(tid, 2, 3, "0-1")  # here's table says it is taken: ordinary path
        check()
        there.record_result(tid, 3, 1, "1-0", idempotency_key="same")
        replay = here.record_result(tid, 3, 1, "1-0", idempotency_key="same")
        assert replay.replayed
        assert [h.kind for h in here.history(tid)].count("result") == 8
        check()
        there.record_result(tid, 3, 3, "½-½")
        here.record_result(tid, 4, 1, "1-0")  # caught up and written under the lock
        assert locked[-1] is True
        check()
        # here caught up with there's results from the event log: only there loaded once
        assert loads == [tid]
        there.withdraw(tid, 6)  # not only results: both reload
        here.record_result(tid, 3, 2, "1-0")
        assert loads == [tid, tid, tid]
        check()
    finally:
        other_store.close()


def test_the_hot_path_writes_all_or_nothing(store: Store) -> None:
    service = make_service(store)
    tid = started(service, 4)
    service.record_result(tid, 1, 2, "1-0", idempotency_key="used")
    before = _rows(store, tid)
    revision = before["revision"]
    refused = [
        {"revision": revision - 1},  # another change came in between
        {"created_at": "another tournament"},
        {"old_version": 2},  # the game row is not as the table says
        {"old_reason": "no-show"},
        {"board": 2, "old_version": 2},  # the game has a result
        {"round": 9},  # no such game
        {"idempotency_key": "used"},  # the same request again
    ]
    for change in refused:
        assert record_result(store, result_write(store, tid, **change)) is False, change
        assert _rows(store, tid) == before, change  # nothing written, not even the revision
    assert record_result(store, result_write(store, tid)) is True
    after = _rows(store, tid)
    assert after["revision"] == revision + 1
    assert after["events"][-1][0] == revision + 1
    assert after["games"][0][4:7] == ("10", "normal", 2)
    assert after["standings"] == (revision + 1, {"rows": []})


def test_fast_changes_are_heard_here_and_in_other_processes(db_url: str, store: Store) -> None:
    service = make_service(store)
    tid = started(service, 4)
    service.record_result(tid, 1, 1, "1-0")  # loads the live table: the next one is fast
    here: list[Notification] = []
    service.bus.subscribe(here.append)
    elsewhere = make_service(store)
    heard: list[Notification] = []
    elsewhere.bus.subscribe(heard.append)
    if store.dialect == "postgresql":
        # (notifications go out after the commit: the earlier changes' first)
        assert notifier_for(store).flush()
        with PostgresListener(db_url, elsewhere.bus):
            change = service.record_result(tid, 1, 2, "0-1")
            deadline = time.monotonic() + 10
            while not heard and time.monotonic() < deadline:
                time.sleep(0.02)
        said = [(n.tournament_id, n.seq, n.kind, n.games, n.summary) for n in heard]
        assert said == [(tid, change.seq, "result", ((1, 2),), change.summary)]
    else:  # no LISTEN/NOTIFY: only this process's bus hears it
        change = service.record_result(tid, 1, 2, "0-1")
        assert heard == []
    assert [(n.seq, n.games) for n in here] == [(change.seq, ((1, 2),))]
    assert here[0].standings == live_standings(service.tournament(tid))


def test_live_tables_keep_the_newest_and_let_the_least_used_go() -> None:
    def table(revision: int) -> LiveTable:
        return LiveTable(revision, cast(Any, None), {}, "running", {}, "")

    tables = LiveTables(capacity=2)
    tables.checkin(1, table(5))
    tables.checkin(1, table(4))  # an older one coming back late (another thread)
    found = tables.checkout(1)
    assert found is not None and found.revision == 5
    assert tables.checkout(1) is None  # taken out while a change uses it
    tables.checkin(1, found)
    tables.checkin(2, table(1))
    used = tables.checkout(1)  # 1 is used again: 2 is now the least recently used
    assert used is not None
    tables.checkin(1, used)
    tables.checkin(3, table(1))
    assert tables.checkout(2) is None
    assert tables.checkout(1) is not None and tables.checkout(3) is not None


def test_raw_transactions_commit_whole_or_not_at_all(store: Store) -> None:
    with store.raw_transaction() as connection:
        connection.execute("INSERT INTO preferences (key, value) VALUES ('kept', '1')")
    with pytest.raises(RuntimeError), store.raw_transaction() as connection:
        connection.execute("INSERT INTO preferences (key, value) VALUES ('lost', '1')")
        raise RuntimeError("a failure half-way")
    with store.reading() as session:
        keys = set(session.scalars(select(PreferenceRow.key)))
    assert {"kept", "lost"} & keys == {"kept"}


def test_after_contention_the_lock_is_taken_first_for_a_while(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    tried = _spy(monkeypatch)
    locked = _spy(monkeypatch, "record_result_locked")
    service = make_service(store)
    tid = started(service, 4)
    table = service.live_tables.checkout(tid)
    assert table is not None
    table.contended = 2  # as after a write that another process got in before
    service.live_tables.checkin(tid, table)
    for board, value in ((1, "1-0"), (2, "0-1")):
        service.record_result(tid, 1, board, value)
    service.record_result(tid, 2, 1, "½-½")
    assert locked == [True, True] and tried == [True]
    stored = dict(service.live_standings(tid) or {})
    assert stored.pop("revision") == service.history(tid)[-1].seq
    assert stored == live_standings(service.tournament(tid))
    assert service.verify(tid) == []
