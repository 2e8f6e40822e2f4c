"""A tournament's field is capped per system and created in one transaction (issue 13.10).

``POST /api/v1/tournaments`` with 20 000 players used to run for minutes and leave a
partial tournament: now the cap refuses it before any work, and a tournament is
created with its players at once, so a refusal or a crash leaves nothing behind.
The same cap holds for the wizard, ``crosstable new`` + ``player add`` and
self-registration (``add_player``). On SQLite and PostgreSQL.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_service_support import db_url, migrated_url, service, store  # noqa: F401

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service import registration as registration_module
from crosstable.service.accounts import Accounts
from crosstable.service.field import MAX_PLAYERS, check_field
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient


def players(count: int) -> list[PlayerInfo]:
    return [PlayerInfo(f"Player {i:05d}", 1500 + i % 700) for i in range(count)]


def test_the_caps_per_system() -> None:
    for system, cap in MAX_PLAYERS.items():
        check_field(system, cap)
        with pytest.raises(RuleError, match=f"at most {cap} players, not {cap + 1}"):
            check_field(system, cap + 1)
    check_field(System.ROUND_ROBIN, 100, cycles=2)
    with pytest.raises(RuleError, match="at most 12 cycles"):
        check_field(System.ROUND_ROBIN, 4, cycles=13)
    with pytest.raises(RuleError, match="at most 9900 games: 100 players in 3 cycles make 14850"):
        check_field(System.ROUND_ROBIN, 100, cycles=3)


def test_a_tournament_is_created_with_its_players_at_once(service: Service) -> None:  # noqa: F811
    change = service.create_tournament(Regulations(name="Open"), players=players(12))
    tid = change.tournament_id
    view = service.overview(tid)
    assert [p.number for p in view.players] == list(range(1, 13))
    assert view.players[0].name == "Player 00000"
    # the history is the same as adding them one by one
    history = service.history(tid)
    assert [h.kind for h in history] == ["create"] + ["player-add"] * 12
    assert history[-1].summary == "player 12 Player 00011 registered"
    service.undo(tid)  # the last one can be taken back as before
    assert len(service.overview(tid).players) == 11


def test_over_the_cap_nothing_is_created(service: Service) -> None:  # noqa: F811
    swiss = Regulations(name="Open", system=System.SWISS_DUTCH)
    with pytest.raises(RuleError, match="a Swiss has at most 1000 players, not 1001"):
        service.create_tournament(swiss, players=players(1001))
    with pytest.raises(RuleError, match="a round robin has at most 100 players, not 101"):
        service.create_tournament(Regulations(name="Club"), players=players(101))
    assert service.tournaments() == []


def test_a_crash_midway_leaves_nothing_behind(
    service: Service,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = registration_module.info_columns
    calls = {"n": 0}

    def failing(info: PlayerInfo) -> dict[str, Any]:
        calls["n"] += 1
        if calls["n"] == 7:
            raise RuntimeError("the server fell over")
        return real(info)

    monkeypatch.setattr(registration_module, "info_columns", failing)
    with pytest.raises(RuntimeError):
        service.create_tournament(Regulations(name="Club"), players=players(10))
    assert service.tournaments() == []


def test_add_player_refuses_past_the_cap(service: Service) -> None:  # noqa: F811
    tid = service.create_tournament(Regulations(name="Club"), players=players(100)).tournament_id
    with pytest.raises(RuleError, match="a round robin has at most 100 players, not 101"):
        service.add_player(tid, PlayerInfo("One too many"))
    assert len(service.overview(tid).players) == 100
    # nor may a Swiss of 150 become a round robin
    swiss = Regulations(name="Open", system=System.SWISS_DUTCH)
    open_id = service.create_tournament(swiss, players=players(150)).tournament_id
    with pytest.raises(RuleError, match="a round robin has at most 100 players, not 150"):
        service.edit_regulations(open_id, system=System.ROUND_ROBIN)


@pytest.fixture()
def web(migrated_url: str) -> Any:  # noqa: F811
    svc = Service(open_store(migrated_url))
    accounts = Accounts(svc.store)
    admin = accounts.create_user("arbiter", "password-arbiter", is_admin=True)
    token = accounts.create_token(admin.id, "test")
    with TestClient(create_app(service=svc), raise_server_exceptions=False) as client:
        yield client, svc, {"Authorization": f"Bearer {token}"}
    svc.store.close()


def test_the_api_refuses_20000_players_at_once(web: Any) -> None:
    client, svc, auth = web
    body = {
        "name": "Huge open",
        "format": "swiss",
        "players": [{"name": f"P{i}"} for i in range(20_000)],
    }
    answer = client.post("/api/v1/tournaments", json=body, headers=auth)
    assert answer.status_code == 422
    assert answer.json()["detail"] == "a Swiss has at most 1000 players, not 20000"
    assert svc.tournaments() == []
    round_robin = {"name": "Club", "players": [{"name": f"P{i}"} for i in range(101)]}
    answer = client.post("/api/v1/tournaments", json=round_robin, headers=auth)
    assert answer.status_code == 422 and "at most 100 players" in answer.json()["detail"]
    many = [{"name": f"P{i}"} for i in range(1004)]
    quads = {"name": "Quads", "format": "quads", "players": many}
    answer = client.post("/api/v1/tournaments", json=quads, headers=auth)
    assert answer.status_code == 422
    assert answer.json()["detail"] == (
        "an event of quads or groups has at most 1000 players, not 1004"
    )
    assert svc.tournaments() == []


def test_the_api_creates_a_large_swiss_in_one_go(web: Any) -> None:
    client, svc, auth = web
    body = {"name": "Open", "format": "swiss", "players": [{"name": f"P{i}"} for i in range(300)]}
    answer = client.post("/api/v1/tournaments", json=body, headers=auth)
    assert answer.status_code == 201, answer.text
    assert len(svc.overview(answer.json()["id"]).players) == 300


def test_a_crash_in_the_api_leaves_nothing_behind(
    web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, svc, auth = web
    real = registration_module.info_columns
    calls = {"n": 0}

    def failing(info: PlayerInfo) -> dict[str, Any]:
        calls["n"] += 1
        if calls["n"] == 4:
            raise RuntimeError("the server fell over")
        return real(info)

    monkeypatch.setattr(registration_module, "info_columns", failing)
    body = {"name": "Club", "players": [{"name": f"P{i}"} for i in range(8)]}
    assert client.post("/api/v1/tournaments", json=body, headers=auth).status_code == 500
    assert svc.tournaments() == []


def test_the_wizard_refuses_past_the_cap(web: Any) -> None:
    client, svc, _auth = web
    page = client.get("/signin").text
    token = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert token
    form = {"username": "arbiter", "password": "password-arbiter", "csrf_token": token.group(1)}
    client.post("/signin", data=form)
    token = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/new").text)
    assert token
    listing = "\n".join(f"Player {i}, {1500 + i}" for i in range(101))
    answer = client.post(
        "/new",
        data={"csrf_token": token.group(1), "name": "Club", "format": "round-robin"}
        | {"list": listing},
        headers={"accept-language": "ru"},
    )
    assert answer.status_code < 500
    assert "в круговом турнире не больше 100 участников, а не 101" in answer.text
    assert svc.tournaments() == []


def test_the_cli_refuses_player_add_past_the_cap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CROSSTABLE_DB", raising=False)
    db = str(tmp_path / "club.db")
    assert main(["new", "Club", "--db", db]) == 0
    svc = Service(open_store(db))
    tid = svc.tournaments()[0].id
    for player in players(100):
        svc.add_player(tid, player)
    svc.store.close()
    capsys.readouterr()
    assert main(["player", "add", "One too many", "--db", db]) == 2
    err = capsys.readouterr().err
    assert "a round robin has at most 100 players, not 101" in err
    assert "Traceback" not in err
    assert main(["new", "Marathon", "--cycles", "13", "--db", db]) == 2
    assert "at most 12 cycles" in capsys.readouterr().err
