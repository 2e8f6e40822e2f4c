"""FIDE's warnings of the remaining FIDE-mode actions on the web page, in the JSON API
(HTTP 409 with ``{"warning": …}``, sent again with the token) and on the command line
(``--confirm TOKEN``): correcting a result of the previous round, a late entry."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from crosstable.cli import main
from crosstable.core.model import LotsMethod, System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.test_service_support import db_url, started, store  # noqa: F401
from tests.web_support import csrf_of


@pytest.fixture()
def site(tmp_path: Path) -> Iterator[tuple[TestClient, Service, int, dict[str, str]]]:
    """A signed-in organiser's client, the service and a round robin of four players
    whose round 1 is played and round 2 begun (board 1: 1-0); a Swiss of four whose
    round 1 is paired (``swisses[-1]``)."""
    service = Service(open_store(f"sqlite:///{tmp_path / 'web.db'}"))
    accounts = Accounts(service.store)
    user = accounts.create_user("organiser", "password-organiser", is_master=True)
    tid = service.create_tournament(Regulations(name="Club")).tournament_id
    accounts.claim(tid, user)
    accounts.set_access(tid, approval="approved")
    for name in ("Anna", "Boris", "Clara", "Dmitri"):
        service.add_player(tid, PlayerInfo(name, 1800))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    for board in (1, 2):
        service.record_result(tid, 1, board, "1-0")
    service.record_result(tid, 2, 1, "1-0")
    swiss = service.create_tournament(
        Regulations(name="Open", system=System.SWISS_DUTCH, rounds=3)
    ).tournament_id
    accounts.claim(swiss, user)
    accounts.set_access(swiss, approval="approved")
    for name in ("Anna", "Boris", "Clara", "Dmitri"):
        service.add_player(swiss, PlayerInfo(name, 1800))
    service.draw_lots(swiss, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(swiss)
    service.publish_round(swiss)
    swisses.append(swiss)
    token = accounts.create_token(user.id, "api")
    with TestClient(create_app(service=service)) as client:
        csrf = csrf_of(client.get("/signin").text)
        client.post(
            "/signin",
            data={"username": "organiser", "password": "password-organiser", "csrf_token": csrf},
        )
        yield client, service, tid, {"Authorization": f"Bearer {token}"}


#: the Swiss of the fixture (round 1 paired): its id
swisses: list[int] = []


def _page_token(page: str) -> str:
    found = re.search(r'name="confirm" value="([0-9a-f]+)"', page)
    assert found, page
    return found.group(1)


def _cli_token(said: str) -> str:
    found = re.search(r"--confirm ([0-9a-f]+)", said)
    assert found, said
    return found.group(1)


def _result_of(service: Service, tid: int, rnd: int, board: int) -> str | None:
    return next(g.result for g in service.overview(tid).games if (g.round, g.board) == (rnd, board))


def test_r_b_1_correcting_the_previous_round_on_the_page_asks_to_confirm(site: Any) -> None:
    client, service, tid, _ = site
    csrf = csrf_of(client.get(f"/t/{tid}/rounds/1").text)
    form = {"csrf_token": csrf, "action": "correct", "result": "0-1", "expected": "1-0"}
    asked = client.post(f"/t/{tid}/rounds/1/boards/1", data=form, follow_redirects=False)
    assert asked.status_code == 409
    assert "level 3" in asked.text and "1-0 to 0-1" in asked.text
    assert _result_of(service, tid, 1, 1) == "1-0"  # nothing yet
    done = client.post(
        f"/t/{tid}/rounds/1/boards/1",
        data=form | {"confirm": _page_token(asked.text)},
        follow_redirects=False,
    )
    assert done.status_code == 303
    assert _result_of(service, tid, 1, 1) == "0-1"
    assert "### Correction @ Round 1: board 1, 1 - 4 1-0 corrected to 0-1" in (
        service.export_trf(tid)
    )


def test_r_b_1_correcting_the_previous_round_in_the_api_is_a_structured_409(
    site: Any,
) -> None:
    client, service, tid, auth = site
    url = f"/api/v1/tournaments/{tid}/rounds/1/boards/2/correct"
    asked = client.post(url, json={"result": "½-½"}, headers=auth)
    assert asked.status_code == 409
    warning = asked.json()["warning"]
    assert (warning["level"], warning["code"]) == (3, "past-result-corrected")
    assert any("paired in advance" in c for c in warning["consequences"])
    done = client.post(url, json={"result": "½-½", "confirm": warning["confirm"]}, headers=auth)
    assert done.status_code == 200, done.text
    assert "confirmed warning, level 3" in done.json()["summary"]
    assert _result_of(service, tid, 1, 2) == "½-½"


def test_r_b_1_correcting_the_previous_round_on_the_command_line(
    db_url: str, store: object, capsys: pytest.CaptureFixture[str]
) -> None:
    service = Service(store)  # type: ignore[arg-type]
    tid = started(service, 4)
    for board in (1, 2):
        service.record_result(tid, 1, board, "1-0")
    service.record_result(tid, 2, 1, "1-0")
    where = ["--db", db_url, "--tournament", str(tid)]
    assert main(["result", "1", "1", "0-1", "--correct", *where]) == 2
    said = capsys.readouterr().err
    assert "warning (level 3)" in said and "1-0 to 0-1" in said and "nothing changed" in said
    assert _result_of(service, tid, 1, 1) == "1-0"
    assert (
        main(["result", "1", "1", "0-1", "--correct", *where, "--confirm", _cli_token(said)]) == 0
    )
    assert "confirmed warning, level 3" in capsys.readouterr().out
    assert _result_of(service, tid, 1, 1) == "0-1"
    service.record_result(tid, 3, 1, "1-0")  # round 1 is older than the previous round now
    assert main(["result", "1", "2", "0-1", "--correct", *where]) == 2
    assert "leave FIDE mode" in capsys.readouterr().err


def test_r_b_1_a_late_entry_on_the_page_asks_to_confirm_and_a_round_robin_refuses(
    site: Any,
) -> None:
    client, service, tid, _ = site
    swiss = swisses[-1]
    csrf = csrf_of(client.get(f"/t/{swiss}/manage").text)
    form = {"csrf_token": csrf, "name": "Zara", "rating": "1900"}
    asked = client.post(f"/t/{swiss}/manage/players", data=form, follow_redirects=False)
    assert asked.status_code == 409
    assert "level 3" in asked.text and "player 5 Zara joins from round 2" in asked.text
    assert len(service.overview(swiss).players) == 4  # nothing yet
    done = client.post(
        f"/t/{swiss}/manage/players",
        data=form | {"confirm": _page_token(asked.text)},
        follow_redirects=False,
    )
    assert done.status_code == 303
    assert [p.name for p in service.overview(swiss).players][-1] == "Zara"
    refused = client.post(f"/t/{tid}/manage/players", data=form, follow_redirects=True)
    assert "round robin&#39;s schedule is made" in refused.text or (
        "round robin's schedule is made" in refused.text
    )
    assert len(service.overview(tid).players) == 4


def test_r_b_1_a_late_entry_in_the_api_is_a_structured_409(site: Any) -> None:
    client, _, _, auth = site
    swiss = swisses[-1]
    url = f"/api/v1/tournaments/{swiss}/players"
    asked = client.post(url, json={"name": "Zara"}, headers=auth)
    assert asked.status_code == 409
    warning = asked.json()["warning"]
    assert (warning["level"], warning["code"]) == (3, "late-entry")
    assert any("round 1 counts as an absence" in c for c in warning["consequences"])
    done = client.post(url, json={"name": "Zara", "confirm": warning["confirm"]}, headers=auth)
    assert done.status_code == 201, done.text
    assert "registered late" in done.json()["summary"]


def test_r_b_1_a_late_entry_on_the_command_line(
    db_url: str, store: object, capsys: pytest.CaptureFixture[str]
) -> None:
    service = Service(store)  # type: ignore[arg-type]
    tid = started(service, 4, system=System.SWISS_DUTCH, rounds=3)
    service.publish_round(tid)
    where = ["--db", db_url, "--tournament", str(tid)]
    assert main(["player", "add", "Zara", "--rating", "1900", *where]) == 2
    said = capsys.readouterr().err
    assert "warning (level 3)" in said and "joins from round 2" in said
    assert len(service.overview(tid).players) == 4
    assert (
        main(["player", "add", "Zara", "--rating", "1900", *where, "--confirm", _cli_token(said)])
        == 0
    )
    assert "registered late" in capsys.readouterr().out
    assert "### Late entry @ Round 2: player 5 Zara joins from round 2; round 1 absent" in (
        service.export_trf(tid)
    )


def test_r_b_1_a_player_cannot_enter_late_by_themself(site: Any) -> None:
    client, service, _, _ = site
    swiss = swisses[-1]
    accounts = Accounts(service.store)
    accounts.set_access(swiss, self_registration=True)
    player = accounts.create_user("yana", "password-yana")
    own = {"Authorization": f"Bearer {accounts.create_token(player.id, 'api')}"}
    refused = client.post(f"/api/v1/tournaments/{swiss}/registration", headers=own)
    assert refused.status_code == 422, refused.text
    assert "only before round 1" in refused.json()["detail"]
    assert len(service.overview(swiss).players) == 4
