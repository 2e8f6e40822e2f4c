"""Properties of the history: any sequence of changes can be reverted to any point, exactly."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import make_service, migrated, started

from crosstable.core.errors import CrosstableError
from crosstable.service import Service
from crosstable.service.history import ReopeningError
from crosstable.store import open_store

RESULTS = ("1-0", "½-½", "0-1", "+-", "--")

operation = st.one_of(
    st.tuples(st.just("record"), st.integers(0, 5), st.sampled_from(RESULTS)),
    st.tuples(st.just("correct"), st.integers(0, 5), st.sampled_from((*RESULTS, None))),
    st.tuples(st.just("withdraw"), st.integers(1, 4), st.none()),
    st.tuples(st.just("undo"), st.none(), st.none()),
)


def state(service: Service, tid: int) -> tuple[object, ...]:
    view = service.overview(tid)
    return (
        view.status,
        tuple((g.round, g.board, g.result, g.version > 0) for g in view.games),
        tuple((p.start, p.withdrawn_from) for p in view.players),
        tuple(row["points"] for row in (service.live_standings(tid) or {"rows": []})["rows"]),
    )


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(operation, min_size=1, max_size=8), st.data())
def test_revert_to_any_point_restores_it_exactly(
    operations: list[tuple[str, object, object]], data: st.DataObject
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(migrated(f"sqlite:///{Path(folder) / 'h.db'}"))
        try:
            service = make_service(store)
            tid = started(service, 4)
            games = [(g.round, g.board) for g in service.overview(tid).games]
            seen = {service.history(tid)[-1].seq: state(service, tid)}
            for kind, which, value in operations:
                try:
                    if kind == "record":
                        service.record_result(tid, *games[int(which)], str(value))  # type: ignore[call-overload]
                    elif kind == "correct":
                        service.correct_result(tid, *games[int(which)], value)  # type: ignore[call-overload]
                    elif kind == "withdraw":
                        service.withdraw(tid, int(which))  # type: ignore[call-overload]
                    else:
                        service.undo(tid)
                except CrosstableError:
                    continue  # refused: nothing written
                seen[service.history(tid)[-1].seq] = state(service, tid)
            assert service.verify(tid) == []
            target = data.draw(st.sampled_from(sorted(seen)))
            if target != service.history(tid)[-1].seq:
                finished = service.overview(tid).status == "finished"
                if finished and seen[target][0] != "finished":  # reopening: a reason is asked
                    with pytest.raises(ReopeningError):
                        service.revert_to(tid, target)
                    service.revert_to(tid, target, reason="a result was wrong", confirm=True)
                else:
                    service.revert_to(tid, target)
                assert state(service, tid) == seen[target]
            assert service.verify(tid) == []
        finally:
            store.close()
