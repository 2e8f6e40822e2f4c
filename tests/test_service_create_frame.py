"""A new tournament goes through the same frame as every other change (issue 14 item 5):
after the commit it is announced to this process's bus and, on PostgreSQL, to the other
processes (their live pages and hubs learn of it).

Before, ``create_tournament`` published to its own process only: a second app process on
the same database never heard of the new tournament (nor of a battle-chess one, nor of
an imported one)."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

from typing import Any

import pytest
from test_service_support import db_url, make_service, started, store  # noqa: F401

from crosstable.service import Notification, PlayerInfo, Regulations
from crosstable.service import frame as frame_module
from crosstable.store import Store


class _Recorder:
    """A notifier to the other processes that keeps what it was given."""

    def __init__(self) -> None:
        self.sent: list[Notification] = []

    def send(self, notification: Notification) -> None:
        self.sent.append(notification)


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> _Recorder:
    kept = _Recorder()
    monkeypatch.setattr(frame_module, "notifier_for", lambda _store: kept)
    return kept


def _said(n: Notification) -> tuple[Any, ...]:
    return (n.tournament_id, n.seq, n.kind, n.summary)


def _others(opened: Store, recorder: _Recorder) -> list[tuple[Any, ...]]:
    """What the other processes were told (none on SQLite: one process per file)."""
    return [_said(n) for n in recorder.sent] if opened.dialect == "postgresql" else []


@pytest.mark.parametrize("players", [0, 3])
def test_a_new_tournament_is_announced_to_every_process(
    store: Store, recorder: _Recorder, players: int
) -> None:
    service = make_service(store)
    heard: list[Notification] = []
    service.bus.subscribe(heard.append)
    entrants = [PlayerInfo(f"Player {i}", rating=2000 + i) for i in range(1, players + 1)]
    change = service.create_tournament(Regulations(name="Club"), players=entrants)
    assert [_said(n) for n in heard] == [
        (change.tournament_id, 1 + players, "player-add" if players else "create", heard[0].summary)
    ]
    if store.dialect == "postgresql":
        assert _others(store, recorder) == [_said(n) for n in heard]
    else:
        assert recorder.sent == []


def test_a_battle_chess_tournament_is_announced_too(store: Store, recorder: _Recorder) -> None:
    service = make_service(store)
    change = service.create_tournament(Regulations(name="Battle", details={"variant": "battle"}))
    assert change.kind == "create"
    if store.dialect == "postgresql":
        assert [n.tournament_id for n in recorder.sent] == [change.tournament_id]


def test_an_imported_tournament_is_announced_too(store: Store, recorder: _Recorder) -> None:
    """A TRF import makes a tournament with one event (``import``)."""
    from crosstable.formats.trf import parse_trf

    service = make_service(store)
    parsed = parse_trf(service.export_trf(started(service, 4)))
    recorder.sent.clear()
    heard: list[Notification] = []
    service.bus.subscribe(heard.append)
    change = service.import_tournament(parsed.tournament, headers=parsed.headers)
    assert [(n.tournament_id, n.kind) for n in heard] == [(change.tournament_id, "import")]
    if store.dialect == "postgresql":
        assert [_said(n) for n in recorder.sent] == [_said(n) for n in heard]
