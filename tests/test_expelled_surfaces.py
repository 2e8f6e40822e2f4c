"""FIDE checklist Q197-198 through the surfaces: ``crosstable player expel`` (and
``--list``, undo), the JSON API (``POST …/players/{start}/expel``, ``GET …/expulsions``)
and the manage page's Expel form, the Swiss table showing the player apart as expelled
in English, Russian and Armenian, and the TRF export's ``### Expelled`` line."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import re
from pathlib import Path

import pytest

from crosstable.cli import main
from crosstable.core.model import System
from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.test_service_support import db_url, started, store  # noqa: F401
from tests.web_support import csrf_of


def _after_round_1(service: Service) -> int:
    tid = started(service, 6, system=System.SWISS_DUTCH, rounds=4)
    service.publish_round(tid)
    for game in [g for g in service.overview(tid).games if g.round == 1]:
        service.record_result(tid, 1, game.board, "1-0")
    return tid


def test_q197_the_command_line_expels_lists_exports_and_undoes(
    db_url: str, store: object, capsys: pytest.CaptureFixture[str]
) -> None:
    service = Service(store)  # type: ignore[arg-type]
    tid = _after_round_1(service)
    where = ["--db", db_url, "--tournament", str(tid)]
    assert main(["player", "expel", "4", "--round", "2", *where]) == 2  # no reason
    assert "needs its reason" in capsys.readouterr().err
    assert main(["player", "expel", "4", "--round", "2", "--reason", "cheating", *where]) == 0
    assert "player 4 Dmitri expelled from round 2 (cheating)" in capsys.readouterr().out
    assert main(["player", "expel", "--list", *where]) == 0
    assert "player 4: expelled from round 2 (cheating)" in capsys.readouterr().out
    assert main(["export", "--to", "trf2026", *where]) == 0
    exported = capsys.readouterr().out
    assert "### Expelled @ Round 2: player 4 Dmitri expelled from round 2 (cheating)" in exported
    assert main(["undo", *where]) == 0
    capsys.readouterr()
    assert service.expulsions(tid) == ()


def test_q197_q198_the_api_and_the_pages_expel_and_show_the_player_apart(
    tmp_path: Path,
) -> None:
    service = Service(open_store(f"sqlite:///{tmp_path / 'web.db'}"))
    accounts = Accounts(service.store)
    user = accounts.create_user("organiser", "password-organiser", is_master=True)
    api_tid, page_tid = _after_round_1(service), _after_round_1(service)
    for tid in (api_tid, page_tid):
        accounts.claim(tid, user)
        accounts.set_access(tid, approval="approved")
    headers = {"Authorization": f"Bearer {accounts.create_token(user.id, 'api')}"}
    with TestClient(create_app(service=service)) as client:
        url = f"/api/v1/tournaments/{api_tid}"
        refused = client.post(f"{url}/players/2/expel", json={"reason": " "}, headers=headers)
        assert refused.status_code == 422 and "needs its reason" in refused.text
        done = client.post(
            f"{url}/players/2/expel",
            json={"from_round": 2, "reason": "insulted the arbiter"},
            headers=headers,
        )
        assert done.status_code == 200, done.text
        assert client.get(f"{url}/expulsions").json() == {
            "expelled": [{"start": 2, "from_round": 2, "reason": "insulted the arbiter"}]
        }
        standings = client.get(f"{url}/standings").json()
        assert [row["start"] for row in standings["rows"]][-1] == 2
        assert standings["rows"][-1]["rank"] is None
        csrf = csrf_of(client.get("/signin").text)
        client.post(
            "/signin",
            data={"username": "organiser", "password": "password-organiser", "csrf_token": csrf},
        )
        page = client.get(f"/t/{page_tid}/manage").text
        assert 'id="expel-form"' in page
        form = {"csrf_token": csrf_of(page), "start": "5", "from_round": "2", "reason": "cheating"}
        answer = client.post(f"/t/{page_tid}/manage/expel", data=form)
        assert "player 5 Eva expelled from round 2 (cheating)" in answer.text
        assert service.expulsions(page_tid)[0].start == 5
        shown = client.get(f"/t/{page_tid}").text
        row = re.search(r'<tr id="p5"[^>]*>(.*?)</tr>', shown, re.S)
        assert row is not None and 'class="expelled">expelled<' in row.group(1)
        assert shown.index('id="p5"') > max(shown.index(f'id="p{s}"') for s in (1, 2, 3, 4, 6))
        russian = client.get(f"/t/{page_tid}", headers={"Accept-Language": "ru"}).text
        assert 'class="expelled">исключён<' in russian
        armenian = client.get(f"/t/{page_tid}", headers={"Accept-Language": "hy"}).text
        assert 'class="expelled">հեռացված<' in armenian
