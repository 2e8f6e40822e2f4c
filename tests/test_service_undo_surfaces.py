"""Reopening a finished tournament through every surface (issue 13 item 2): the command
line (``undo --to N --reason … --yes``), the history page and the JSON API.

Without a reason and a confirmation each surface refuses with what it would take
back (the final places and the results), exit status 2 / a 4xx / the page asking
for both; with them the tournament reopens and the history keeps the reason.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_service_support import migrated

from crosstable.cli import main
from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import open_store


def finished_by_the_organiser(service: Service) -> tuple[int, int]:
    """A four-player round robin the organiser finished (finish=confirm); its id and the
    number of the event after the first result."""
    regulations = Regulations(name="Club", details={"finish": "confirm"})
    tid = service.create_tournament(regulations).tournament_id
    for name in ("Anna", "Boris", "Clara", "Dmitri"):
        service.add_player(tid, PlayerInfo(name))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    first = 0
    for game in service.overview(tid).games:
        change = service.record_result(tid, game.round, game.board, "1-0")
        first = first or change.seq
    service.finish(tid)
    return tid, first


def test_the_command_line_asks_for_a_reason_and_yes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROSSTABLE_ACTOR", "arbiter")
    db = str(tmp_path / "club.db")
    service = Service(open_store(db))
    try:
        _, first = finished_by_the_organiser(service)
    finally:
        service.store.close()
    capsys.readouterr()
    assert main(["undo", "--to", str(first), "--db", db]) == 2
    err = capsys.readouterr().err
    assert (
        f"reverting to #{first} reopens the finished tournament: it takes back the final "
        "places and 5 results; give a reason and confirm (--reason TEXT --yes)"
    ) in " ".join(err.split())
    assert "Traceback" not in err
    assert main(["undo", "--to", str(first), "--reason", "wrong pairing", "--db", db]) == 2
    code = main(["undo", "--to", str(first), "--reason", "wrong pairing", "--yes", "--db", db])
    out = capsys.readouterr().out
    assert code == 0
    assert "reopens the finished tournament (reason: wrong pairing)" in " ".join(out.split())
    exported = json.loads(_export(db, capsys))
    assert exported["tournament"]["status"] == "running"


def _export(db: str, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["export", "--to", "json", "--db", db]) == 0
    return capsys.readouterr().out


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert match
    return match.group(1)


def test_the_history_page_and_the_api(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from crosstable.service.accounts import Accounts
    from crosstable.web.app import create_app
    from tests.asgi_client import TestClient

    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'web.db'}")))
    try:
        accounts = Accounts(service.store)
        admin = accounts.create_user("admin", "password-admin", is_admin=True)
        tid, first = finished_by_the_organiser(service)
        accounts.claim(tid, admin)
        app = create_app(service=service)
        # the JSON API: 422 naming what it takes back, then done with reason and confirm
        api = TestClient(app)
        bearer = {"Authorization": f"Bearer {accounts.create_token(admin.id)}"}
        refused = api.post(f"/api/v1/tournaments/{tid}/undo", headers=bearer)
        assert refused.status_code == 422
        assert "takes back the final places and no result" in refused.json()["detail"]
        refused = api.post(
            f"/api/v1/tournaments/{tid}/revert",
            json={"seq": first, "reason": "late correction"},
            headers=bearer,
        )
        assert refused.status_code == 422
        assert "the final places and 5 results" in refused.json()["detail"]
        assert service.overview(tid).status == "finished"
        done = api.post(
            f"/api/v1/tournaments/{tid}/undo",
            json={"reason": "late correction", "confirm": True},
            headers=bearer,
        )
        assert done.status_code == 200, done.text
        assert service.overview(tid).status == "running"
        service.finish(tid)
        # the history page: a refusal leads to the form asking for both
        page = TestClient(app)
        signin = _csrf(page.get("/signin").text)
        page.post(
            "/signin",
            data={"username": "admin", "password": "password-admin", "csrf_token": signin},
        )
        csrf = _csrf(page.get(f"/t/{tid}/history").text)
        asked = page.post(f"/t/{tid}/manage/undo", data={"csrf_token": csrf, "seq": str(first)})
        assert asked.status_code == 200
        assert f"reopen={first}" in str(asked.url)
        assert "the final places and 5 results" in asked.text
        assert 'name="reason"' in asked.text and 'name="confirm"' in asked.text
        assert service.overview(tid).status == "finished"
        # in Russian, the refusal is Russian
        page.get("/lang/ru?next=/")
        russian = page.post(f"/t/{tid}/manage/undo", data={"csrf_token": csrf})
        assert "снова открывает завершённый турнир" in russian.text
        done_page = page.post(
            f"/t/{tid}/manage/undo",
            data={"csrf_token": csrf, "seq": str(first), "reason": "typo", "confirm": "yes"},
        )
        assert done_page.status_code == 200
        assert service.overview(tid).status == "running"
        assert "reopens the finished tournament (reason: typo)" in service.history(tid)[-1].summary
    finally:
        service.store.close()
