"""Reverting is bounded by the state it changes, never by the history (issue 13 item 1).

Reverting back and forth between two points used to take back every later event
one by one, earlier reverts included, so each revert held twice the row changes
of the one before (revert #16 of a ping-pong held 120 149). A revert now records
the rows that differ between now and the target, so its size is at most the
number of rows of the tournament — and exactly the number of rows that differ.
"""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from test_service_support import db_url, make_service, migrated, service, started, store  # noqa: F401

from crosstable.core.errors import CrosstableError
from crosstable.service import Service
from crosstable.store import Store, open_store
from crosstable.store.models import MODELS, EventRow, TournamentRow

Rows = dict[tuple[str, str], dict[str, Any]]


def rows(store: Store, tid: int) -> Rows:
    """Every row of the tournament (tracked columns), by table and key."""
    found: Rows = {}
    with store.reading() as session:
        for table, model in MODELS.items():
            column = model.__table__.c["id" if model is TournamentRow else "tournament_id"]
            for item in session.scalars(select(model).where(column == tid)):
                found[(table, json.dumps(item.row_key(), sort_keys=True))] = item.snapshot()
    return found


def differing(a: Rows, b: Rows) -> int:
    return sum(1 for spot in set(a) | set(b) if a.get(spot) != b.get(spot))


def event(store: Store, tid: int, seq: int) -> EventRow:
    with store.reading() as session:
        found = session.scalars(
            select(EventRow).where(EventRow.tournament_id == tid, EventRow.seq == seq)
        ).one()
        session.expunge(found)
        return found


def test_reverting_back_and_forth_stays_the_size_of_the_tournament(service: Service) -> None:
    tid = started(service, 6)  # 15 games in 5 rounds
    games = [(g.round, g.board) for g in service.overview(tid).games]
    for spot in games[:6]:
        service.record_result(tid, *spot, "1-0")
    last = service.history(tid)[-1].seq
    bound = len(rows(service.store, tid))  # every row of the tournament
    sizes = []
    for turn in range(20):
        change = service.revert_to(tid, last - 1 if turn % 2 == 0 else last)
        sizes.append(len(event(service.store, tid, change.seq).changes))
        assert sizes[-1] <= bound, sizes  # (it used to double at every turn)
    # one game's result differs between the two points: one row, every time
    assert sizes == [1] * 20
    assert service.verify(tid) == []
    assert service.overview(tid).games[5].result is not None


def test_a_revert_after_many_reverts_is_the_difference_only(service: Service) -> None:
    tid = started(service, 4)
    games = [(g.round, g.board) for g in service.overview(tid).games]
    start = service.history(tid)[-1].seq
    before = rows(service.store, tid)
    for spot in games[:4]:
        service.record_result(tid, *spot, "½-½")
    for _ in range(5):
        for target in (start, start + 4):
            change = service.revert_to(tid, target)
            assert len(event(service.store, tid, change.seq).changes) == 4
    change = service.revert_to(tid, start)
    assert len(event(service.store, tid, change.seq).changes) == 4
    assert rows(service.store, tid) == before
    assert service.verify(tid) == []
    # and the revert is itself undoable and revertable
    service.revert_to(tid, change.seq - 1)
    assert [g.result for g in service.overview(tid).games[:4]] == ["½-½"] * 4
    assert service.verify(tid) == []


RESULTS = ("1-0", "½-½", "0-1", "+-")

operation = st.one_of(
    st.tuples(st.just("record"), st.integers(0, 5), st.sampled_from(RESULTS)),
    st.tuples(st.just("correct"), st.integers(0, 5), st.sampled_from((*RESULTS, None))),
    st.tuples(st.just("undo"), st.none(), st.none()),
    st.tuples(st.just("revert"), st.integers(0, 40), st.none()),
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(operation, min_size=1, max_size=14))
def test_results_undos_and_reverts_replay_exactly_and_reverts_stay_small(
    operations: list[tuple[str, Any, Any]],
) -> None:
    """Any sequence of results, undos and reverts leaves the rows equal to a fresh
    replay of the history; each revert brings back exactly the rows after its target
    and records no more changes than rows differ."""
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(migrated(f"sqlite:///{Path(folder) / 'h.db'}"))
        try:
            service = make_service(store)
            tid = started(service, 4, details={"finish": "confirm"})
            games = [(g.round, g.board) for g in service.overview(tid).games]
            seen = {service.history(tid)[-1].seq: rows(store, tid)}
            for kind, which, value in operations:
                now = rows(store, tid)
                try:
                    if kind == "record":
                        service.record_result(tid, *games[int(which)], str(value))
                    elif kind == "correct":
                        service.correct_result(tid, *games[int(which)], value)
                    elif kind == "undo":
                        service.undo(tid)
                    else:
                        points = sorted(seen)
                        target = points[int(which) % len(points)]
                        change = service.revert_to(tid, target)
                        if not change.replayed:
                            size = len(event(store, tid, change.seq).changes)
                            assert size <= differing(now, seen[target])
                            assert rows(store, tid) == seen[target]
                except CrosstableError:
                    continue  # refused: nothing written
                seen[service.history(tid)[-1].seq] = rows(store, tid)
                assert service.verify(tid) == []
        finally:
            store.close()
