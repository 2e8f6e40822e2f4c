"""The knockout stage goes through the same frame as every other change (issue 14.3):
one transaction, announced after the commit to this process and, on PostgreSQL, to the
other processes, and an idempotency key that answers a repeated request with the first
answer (before, ``create_knockout_stage`` took no key: a form sent twice got a conflict).
"""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import pytest
from test_service_stages import finish_all, make_groups
from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.service import ConflictError, Notification
from crosstable.service import frame as frame_module
from crosstable.store import Store


class _Recorder:
    def __init__(self) -> None:
        self.sent: list[Notification] = []

    def send(self, notification: Notification) -> None:
        self.sent.append(notification)


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> _Recorder:
    kept = _Recorder()
    monkeypatch.setattr(frame_module, "notifier_for", lambda _store: kept)
    return kept


def test_the_knockout_stage_is_announced_to_every_process(
    store: Store, recorder: _Recorder
) -> None:
    service = make_service(store)
    ids = make_groups(service, [4, 4], qualifiers=2)
    finish_all(service, ids)
    recorder.sent.clear()
    heard: list[Notification] = []
    service.bus.subscribe(heard.append)
    change = service.create_knockout_stage(ids[0])
    ko = change.tournament_id
    said = [(n.tournament_id, n.kind) for n in heard]
    assert said == [(ko, "create"), (ko, "knockout-stage")] + [
        (tid, "knockout-stage") for tid in ids
    ]
    assert heard[1].seq == change.seq
    if store.dialect == "postgresql":
        assert [(n.tournament_id, n.seq) for n in recorder.sent] == [
            (n.tournament_id, n.seq) for n in heard
        ]
    else:
        assert recorder.sent == []


def test_the_same_idempotency_key_answers_the_first_answer(store: Store) -> None:
    service = make_service(store)
    ids = make_groups(service, [4, 4], qualifiers=2)
    finish_all(service, ids)
    first = service.create_knockout_stage(ids[0], idempotency_key="form-1")
    again = service.create_knockout_stage(ids[1], idempotency_key="form-1")
    assert again.replayed and not first.replayed
    assert (again.tournament_id, again.seq, again.summary) == (
        first.tournament_id,
        first.seq,
        first.summary,
    )
    assert len(service.overview(first.tournament_id).players) == 4  # registered once
    with pytest.raises(ConflictError, match="idempotency key 'form-1' was already used"):
        service.create_knockout_stage(ids[0], idempotency_key="form-1", lots_seed=5)
    with pytest.raises(ConflictError, match="the knockout stage exists already"):
        service.create_knockout_stage(ids[0], idempotency_key="form-2")
    with pytest.raises(ConflictError, match="the knockout stage exists already"):
        service.create_knockout_stage(ids[0])
