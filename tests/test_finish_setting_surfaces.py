"""The regulations' finish setting and the TRF header's details from every surface: the JSON
API's creation and ``crosstable new`` (issue 15 items 3 and 7)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_service_support import migrated

from crosstable.cli import main
from crosstable.core.model import LotsMethod
from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient


@pytest.fixture()
def api(tmp_path: Path) -> Any:
    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'web.db'}")))
    accounts = Accounts(service.store)
    user = accounts.create_user("admin", "password-admin", is_admin=True)
    token = accounts.create_token(user.id, "script")
    with TestClient(create_app(service=service)) as client:
        yield client, service, {"Authorization": f"Bearer {token}"}


def _play_all(service: Service, tid: int) -> None:
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    for game in service.overview(tid).games:
        service.record_result(tid, game.round, game.board, "1-0")


def test_the_api_creates_with_the_finish_setting_and_the_header_details(api: Any) -> None:
    client, service, auth = api
    players = [{"name": n, "rating": 1800} for n in ("Anna", "Boris", "Clara", "Dmitri")]
    body = {
        "name": "Club",
        "players": players,
        "venue": "Yerevan",
        "arbiter": "Ashot Arbiter",
        "federation": "ARM",
        "finish": "confirm",
    }
    created = client.post("/api/v1/tournaments", json=body, headers=auth)
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    regulations = service.overview(tid).settings["regulations"]
    assert regulations["finish"] == "confirm" and regulations["venue"] == "Yerevan"
    _play_all(service, tid)
    assert service.overview(tid).status == "running"  # the organiser confirms the finish
    trf = service.export_trf(tid)
    assert "022 Yerevan" in trf and "102 Ashot Arbiter" in trf and "032 ARM" in trf
    auto = client.post("/api/v1/tournaments", json=body | {"finish": "auto"}, headers=auth)
    tid = auto.json()["id"]
    _play_all(service, tid)
    assert service.overview(tid).status == "finished"
    refused = client.post("/api/v1/tournaments", json=body | {"finish": "later"}, headers=auth)
    assert refused.status_code == 422 and "finish" in refused.text


def test_crosstable_new_takes_the_finish_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CROSSTABLE_DB", raising=False)
    db = str(tmp_path / "cli.db")
    assert main(["new", "Club", "--finish", "confirm", "--db", db]) == 0
    service = Service(open_store(db))
    assert service.overview(1).settings["regulations"]["finish"] == "confirm"
    capsys.readouterr()
    assert main(["new", "Club", "--finish", "later", "--db", db]) == 2
    assert "use auto or confirm" in capsys.readouterr().err
