"""The clock's notices are written in the transaction of the change they announce (the
start at the preset time, a postponed start, a knockout's next round): a crash while
they are written leaves neither the change nor a notice, and the next pass makes both,
each notice once. SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

import pytest
from test_service_support import db_url, store  # noqa: F401
from test_timed_start import START, clocked, kinds, knockout, open_boards

from crosstable.service import clockwork
from crosstable.service.clockwork import tick_all
from crosstable.service.series.outbox import outbox
from crosstable.store import Store
from crosstable.store.models import TournamentRow


class CrashError(Exception):
    """The process dies while the notices are written."""


def crashing(monkeypatch: pytest.MonkeyPatch, after: int) -> None:
    """The clock's ``notify_user`` writes ``after`` notices, then the process dies."""
    real = clockwork.notify_user
    calls = {"n": 0}

    def notify(*args: Any, **kwargs: Any) -> None:
        calls["n"] += 1
        if calls["n"] > after:
            raise CrashError
        real(*args, **kwargs)

    monkeypatch.setattr(clockwork, "notify_user", notify)


def keys(store: Store) -> Counter[str]:
    with store.reading() as session:
        return Counter(row.dedupe_key for row in outbox(session))


def test_r_x_4_a_crash_while_telling_the_players_undoes_the_start(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, clock = clocked(store)
    tid = knockout(service, 4, capacity="4", starts_at=START, round_time="18:00")
    clock.advance(dt.timedelta(hours=6))
    revision = service.revision(tid)
    with monkeypatch.context() as patch:
        crashing(patch, after=2)  # two of the four round-starts written, then the crash
        with pytest.raises(CrashError):
            tick_all(service)
    assert service.overview(tid).status == "registration" and kinds(store) == []
    assert service.revision(tid) > revision  # (the lots were drawn: a change of their own)
    said = tick_all(service)
    assert len(said) == 1 and "knockout started" in said[0]
    assert kinds(store) == ["round-starts"] * 4 and max(keys(store).values()) == 1
    assert tick_all(service) == [] and len(kinds(store)) == 4  # nothing twice


def test_r_x_4_a_crash_while_telling_of_a_postponement_keeps_the_old_start(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, clock = clocked(store)
    tid = knockout(service, 3, capacity="4", starts_at=START)
    clock.advance(dt.timedelta(hours=6))
    with monkeypatch.context() as patch:
        crashing(patch, after=1)
        with pytest.raises(CrashError):
            tick_all(service)
    with store.reading() as session:
        row = session.get(TournamentRow, tid)
        assert row is not None and row.regulations["starts_at"] == START
    assert kinds(store) == []
    said = tick_all(service)
    assert said and "the start moved to 2026-12-08T18:00:00+00:00" in said[0]
    assert kinds(store) == ["start-moved"] * 4 and max(keys(store).values()) == 1


def test_r_x_3_a_crash_while_telling_of_the_next_round_leaves_it_unpaired(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, clock = clocked(store)
    tid = knockout(service, 4, capacity="4", starts_at=START, round_time="18:00")
    clock.advance(dt.timedelta(hours=6))
    assert "knockout started" in tick_all(service)[0]
    for rnd, board in open_boards(service, tid):
        service.record_result(tid, rnd, board, "1-0")
    clock.advance(dt.timedelta(days=1))
    with monkeypatch.context() as patch:
        crashing(patch, after=1)  # White of the final told, then the crash
        with pytest.raises(CrashError):
            tick_all(service)
    assert open_boards(service, tid) == [] and kinds(store).count("round-starts") == 4
    said = tick_all(service)
    assert len(said) == 1 and "paired" in said[0]
    assert open_boards(service, tid) == [(2, 1)]
    assert kinds(store).count("round-starts") == 6 and max(keys(store).values()) == 1
