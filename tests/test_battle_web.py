"""Battle chess on the web pages and the JSON API (issue 12 item 1)."""

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
from tests.web_support import csrf_of

BATTLE = {"variant": "battle", "setup_minutes": "5", "battle_seed": "424242"}


@pytest.fixture()
def site(tmp_path: Path) -> Any:
    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'web.db'}")))
    accounts = Accounts(service.store)
    user = accounts.create_user("organiser", "password-organiser", is_master=True)
    tid = service.create_tournament(Regulations(name="Battle", details=BATTLE)).tournament_id
    accounts.claim(tid, user)
    accounts.set_access(tid, approval="approved")
    for name in ("Anna", "Boris", "Clara", "Dmitri"):
        service.add_player(tid, PlayerInfo(name, 1800))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    token = accounts.create_token(user.id, "game server")
    with TestClient(create_app(service=service)) as client:
        yield client, service, tid, {"Authorization": f"Bearer {token}"}


def sign_in(client: TestClient) -> None:
    token = csrf_of(client.get("/signin").text)
    client.post(
        "/signin",
        data={"username": "organiser", "password": "password-organiser", "csrf_token": token},
    )


def test_api_setup_timeout_and_refusal_before_the_draw(site: Any) -> None:
    client, _, tid, auth = site
    base = f"/api/v1/tournaments/{tid}"
    refused = client.post(f"{base}/rounds/2/boards/1/result", json={"result": "1-0"}, headers=auth)
    assert refused.status_code == 422 and "not drawn yet" in refused.json()["detail"]
    posted = client.post(
        f"{base}/rounds/1/boards/1/setup-timeout", json={"finished": "black"}, headers=auth
    )
    assert posted.status_code == 200, posted.text
    bad = client.post(
        f"{base}/rounds/1/boards/2/setup-timeout", json={"finished": "both"}, headers=auth
    )
    assert bad.status_code == 422 and "finished" in bad.text
    words = client.post(
        f"{base}/rounds/1/boards/2/result", json={"result": "setup-draw"}, headers=auth
    )
    assert words.status_code == 200, words.text
    rules = client.get(f"{base}/battle").json()
    assert rules == {"battle": True, "setup_minutes": 5, "colours_drawn": [1, 2], "seed": None}
    crossing = client.get(f"{base}/crosstable").json()["players"]
    shown = {r["result"] for p in crossing for games in p["results"].values() for r in games}
    assert {"1†", "0†", "½†"} <= shown
    drawn = client.post(f"{base}/rounds/3/colours", headers=auth)
    assert drawn.status_code == 200 and drawn.json()["kind"] == "colours"
    again = client.post(f"{base}/rounds/3/colours", headers=auth)
    assert again.status_code == 422 and "already drawn" in again.json()["detail"]


def test_round_page_draws_colours_and_has_setup_buttons(site: Any) -> None:
    client, _, tid, _ = site
    sign_in(client)
    page = client.get(f"/t/{tid}/rounds/1").text
    assert "the computer has drawn the colours of this round" in page
    assert 'data-result="setup-white"' in page and "Set-up time: 5 min." in page
    page = client.get(f"/t/{tid}/rounds/2").text
    assert 'data-drawn="no"' in page and 'id="draw-colours"' in page
    token = csrf_of(page)
    done = client.post(
        f"/t/{tid}/rounds/2/colours", data={"csrf_token": token}, follow_redirects=False
    )
    assert done.status_code == 303
    assert 'data-drawn="yes"' in client.get(f"/t/{tid}/rounds/2").text
    tapped = client.post(
        f"/t/{tid}/rounds/1/boards/1",
        data={"csrf_token": token, "action": "record", "result": "setup-white", "key": "k1"},
        headers={"HX-Request": "true"},
    )
    assert tapped.status_code == 200 and "1-0†" in tapped.text
    assert "1†" in client.get(f"/t/{tid}").text


def test_russian_round_page(site: Any) -> None:
    client, _, tid, _ = site
    sign_in(client)
    page = client.get(f"/t/{tid}/rounds/2", headers={"Accept-Language": "ru"}).text
    assert "Боевые шахматы" in page


def test_the_wizard_creates_a_battle_chess_tournament(site: Any) -> None:
    client, service, tid, _ = site
    sign_in(client)
    page = client.get("/new").text
    assert 'name="battle"' in page and 'name="setup_minutes"' in page
    form = {
        "csrf_token": csrf_of(page),
        "name": "Battle open",
        "format": "round-robin",
        "list": "Anna\nBoris\nClara\nDmitri",
        "battle": "on",
        "setup_minutes": "7",
        "tiebreaks": "rr",
    }
    created = client.post("/new", data=form, follow_redirects=False)
    assert created.status_code == 303, created.text[:500]
    new = max(t.id for t in service.tournaments())
    assert new != tid
    rules = service.battle_rules(new)
    assert rules is not None and rules.setup_minutes == 7
    page = client.get(f"/t/{new}/regulations").text
    assert "battle chess: the schedule decides who meets whom" in page
    assert "7 minutes: if neither player has finished setting up" in page
    assert "SHA-256" in page and str(rules.seed) not in page
    bad = client.post("/new", data=form | {"setup_minutes": "900"}, follow_redirects=False)
    assert bad.status_code == 422 and "1 to 120 minutes" in bad.text


def test_a_setup_timeout_is_corrected_from_the_round_page(site: Any) -> None:
    client, service, tid, _ = site
    sign_in(client)
    service.record_setup_timeout(tid, 1, 1, "white")
    page = client.get(f"/t/{tid}/rounds/1").text
    assert 'name="expected" value="WL"' in page
    tapped = client.post(
        f"/t/{tid}/rounds/1/boards/1",
        data={"csrf_token": csrf_of(page), "action": "correct", "result": "0-1", "expected": "WL"},
        headers={"HX-Request": "true"},
    )
    assert tapped.status_code == 200 and 'role="alert"' not in tapped.text
    assert service.tournament(tid).rounds[0].games[0].result.label() == "0-1"  # type: ignore[union-attr]


def test_the_pdf_crosstable_has_the_mark(site: Any, caplog: pytest.LogCaptureFixture) -> None:
    """The set-up mark is a glyph the PDF font has (a missing one would print blank)."""
    client, service, tid, _ = site
    service.record_setup_timeout(tid, 1, 1, "white")
    with caplog.at_level("WARNING"):
        answer = client.get(f"/t/{tid}/pdf/crosstable.pdf")
    assert answer.status_code == 200 and answer.content.startswith(b"%PDF")
    assert "missing the following glyphs" not in caplog.text


def test_the_manage_page_changes_the_set_up_time(site: Any) -> None:
    """The set-up time is a setting of the regulations: the management page's
    regulations form changes it (battle-chess tournaments only), checked as ever."""
    client, service, tid, _ = site
    sign_in(client)
    page = client.get(f"/t/{tid}/manage").text
    assert 'name="detail_setup_minutes"' in page and 'value="5"' in page
    token = csrf_of(page)
    saved = client.post(
        f"/t/{tid}/manage/regulations",
        data={"csrf_token": token, "detail_setup_minutes": "8"},
        follow_redirects=False,
    )
    assert saved.status_code == 303
    rules = service.battle_rules(tid)
    assert rules is not None and rules.setup_minutes == 8
    assert (
        "8 minutes: if neither player has finished setting up"
        in client.get(f"/t/{tid}/regulations").text
    )
    refused = client.post(
        f"/t/{tid}/manage/regulations",
        data={"csrf_token": token, "detail_setup_minutes": "900"},
        headers={"Referer": f"http://testserver/t/{tid}/manage"},
    )
    assert "1 to 120 minutes" in refused.text
    rules = service.battle_rules(tid)
    assert rules is not None and rules.setup_minutes == 8
    classical = service.create_tournament(Regulations(name="Classical")).tournament_id
    accounts = Accounts(service.store)
    organiser = accounts.find_user("organiser")
    assert organiser is not None
    accounts.claim(classical, organiser)
    assert 'name="detail_setup_minutes"' not in client.get(f"/t/{classical}/manage").text


def test_the_api_says_whether_a_rounds_colours_are_drawn(site: Any) -> None:
    client, service, tid, _auth = site
    assert client.get(f"/api/v1/tournaments/{tid}/rounds/1").json()["colours_drawn"] is True
    assert client.get(f"/api/v1/tournaments/{tid}/rounds/2").json()["colours_drawn"] is False
    classical = service.create_tournament(Regulations(name="Classical")).tournament_id
    for name in ("A", "B", "C"):
        service.add_player(classical, PlayerInfo(name))
    service.draw_lots(classical, LotsMethod.MANUAL, order=(1, 2, 3))
    service.start(classical)
    assert client.get(f"/api/v1/tournaments/{classical}/rounds/1").json()["colours_drawn"]
