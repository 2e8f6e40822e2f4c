"""The reason of a result in the JSON API's result body (issue 12 via the brief's item 3):
``{"result": "+-", "reason": "no-show"}``, ``"adjudicated"``, ``"setup-timeout"`` (battle
chess) — recorded with the result (the game row's reason), shown in the history line;
a reason that does not fit the result, or an unknown one, is a 422 that names it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_service_support import migrated

from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
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


def _started(service: Service, **details: str) -> int:
    tid = service.create_tournament(Regulations(name="Club", details=details)).tournament_id
    for name in ("Anna", "Boris", "Clara", "Dmitri"):
        service.add_player(tid, PlayerInfo(name))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    return tid


def _reasons(service: Service, tid: int) -> dict[tuple[int, int], str]:
    games = service.export_json(tid)["games"]
    return {(g["round"], g["board"]): g["reason"] for g in games if g["result"] is not None}


def _post(client: Any, auth: dict[str, str], tid: int, board: int, **body: Any) -> Any:
    url = f"/api/v1/tournaments/{tid}/rounds/1/boards/{board}/result"
    return client.post(url, json=body, headers=auth)


def test_the_reason_is_recorded_and_shown_in_the_history(api: Any) -> None:
    client, service, auth = api
    tid = _started(service)
    done = _post(client, auth, tid, 1, result="1-0", reason="adjudicated")
    assert done.status_code == 200, done.text
    assert "(adjudicated)" in done.json()["summary"]
    forfeit = _post(client, auth, tid, 2, result="+-", reason="no-show")
    assert forfeit.status_code == 200, forfeit.text
    assert _reasons(service, tid) == {(1, 1): "adjudicated", (1, 2): "no-show"}
    lines = [item.summary for item in service.history(tid)]
    assert any(line.startswith("round 1 board 1: 1-0 (adjudicated)") for line in lines)
    # the usual reason says nothing more than before
    assert any(line.startswith("round 1 board 2: +- (") for line in lines)
    page = client.get(f"/t/{tid}/history")
    assert "1-0 (adjudicated)" in page.text


def test_a_reason_that_does_not_fit_is_refused(api: Any) -> None:
    client, service, auth = api
    tid = _started(service)
    played = _post(client, auth, tid, 1, result="1-0", reason="no-show")
    assert played.status_code == 422
    assert "reason no-show: a no-show is a forfeit" in played.text
    forfeit = _post(client, auth, tid, 1, result="+-", reason="normal")
    assert forfeit.status_code == 422 and "is a forfeit" in forfeit.text
    unknown = _post(client, auth, tid, 1, result="1-0", reason="coin")
    assert unknown.status_code == 422 and "reason" in unknown.text
    classical = _post(client, auth, tid, 1, result="1-0", reason="setup-timeout")
    assert classical.status_code == 422 and "battle-chess result" in classical.text
    assert _reasons(service, tid) == {}  # nothing recorded by a refusal


def test_a_set_up_timeout_by_its_reason(api: Any) -> None:
    client, service, auth = api
    tid = _started(service, variant="battle", setup_minutes="5")
    done = _post(client, auth, tid, 1, result="1-0", reason="setup-timeout")
    assert done.status_code == 422 and "set-up timeout" in done.text  # 1-0 is a game played
    done = _post(client, auth, tid, 1, result="WL", reason="setup-timeout")
    assert done.status_code == 200, done.text
    assert "(set-up timeout)" in done.json()["summary"]
    assert _reasons(service, tid) == {(1, 1): "setup-timeout"}
