"""FIDE checklist Q105 on the web: a round robin in FIDE mode's tie-break picker does not
offer Buchholz, Fore Buchholz or AOB — the JSON API's list of the tie-breaks offered, the
manage page's list, the wizard's presets (hidden in Chromium, not greyed out) — and a
list naming one is refused with the reason (API 422, the form's message); a Swiss
offers them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from crosstable.core.model import System
from crosstable.service import Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.browser import chromium, needs_chromium, sign_up, web_server
from tests.web_support import csrf_of


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    db = tmp_path_factory.mktemp("q105") / "web.db"
    service = Service(open_store(f"sqlite:///{db}"))
    accounts = Accounts(service.store)
    user = accounts.create_user("organiser", "password-organiser", is_master=True)
    club = service.create_tournament(Regulations(name="Club", tiebreaks=("DE", "SB")))
    swiss = service.create_tournament(Regulations(name="Open", system=System.SWISS_DUTCH, rounds=5))
    ids = (club.tournament_id, swiss.tournament_id)
    for tid in ids:
        accounts.claim(tid, user)
        accounts.set_access(tid, approval="approved")
    token = accounts.create_token(user.id, "api")
    with TestClient(create_app(service=service)) as client:
        csrf = csrf_of(client.get("/signin").text)
        client.post(
            "/signin",
            data={"username": "organiser", "password": "password-organiser", "csrf_token": csrf},
        )
        yield client, service, ids, {"Authorization": f"Bearer {token}"}


def test_q105_the_api_lists_what_the_picker_offers_and_refuses_the_rest(site: Any) -> None:
    client, service, (club, swiss), headers = site
    offered = client.get(f"/api/v1/tournaments/{club}/tiebreaks").json()
    assert offered["system"] == "round-robin" and offered["fide_mode"] is True
    assert not {"BH", "FB", "AOB"} & set(offered["offered"])
    assert {"DE", "SB", "KS", "WIN"} <= set(offered["offered"])
    assert offered["hidden"] == ["BH", "FB", "AOB"] and offered["tiebreaks"] == ["DE", "SB"]
    assert "swiss" not in offered["presets"] and offered["presets"]["rr"] == [
        "DE", "WIN", "SB", "KS"
    ]  # fmt: skip
    refused = client.put(
        f"/api/v1/tournaments/{club}/tiebreaks", json={"tiebreaks": ["SB", "AOB"]}, headers=headers
    )
    assert refused.status_code == 422 and "level 5" in refused.json()["detail"]
    assert "warning" not in refused.json()  # nothing to confirm
    assert service.tournament(club).settings.tiebreaks == ("DE", "SB")
    russian = client.put(
        f"/api/v1/tournaments/{club}/tiebreaks",
        json={"tiebreaks": ["BH"]},
        headers=headers | {"Accept-Language": "ru"},
    )
    assert "нельзя выбрать для кругового турнира в режиме FIDE" in russian.json()["detail"]
    opened = client.get(f"/api/v1/tournaments/{swiss}/tiebreaks").json()
    assert {"BH", "FB", "AOB"} <= set(opened["offered"]) and opened["hidden"] == []
    assert opened["presets"]["swiss"] == ["BH/C1", "BH", "SB", "DE", "WIN"]
    put = client.put(
        f"/api/v1/tournaments/{swiss}/tiebreaks", json={"tiebreaks": ["AOB", "BH"]}, headers=headers
    )
    assert put.status_code == 200, put.text
    created = client.post(
        "/api/v1/tournaments",
        json={"name": "Another", "format": "round-robin", "tiebreaks": "FB,SB"},
        headers=headers,
    )
    assert created.status_code == 422 and "FB cannot be chosen" in created.text


def test_q105_the_manage_page_lists_no_buchholz_and_refuses_one(site: Any) -> None:
    client, service, (club, swiss), _headers = site
    page = client.get(f"/t/{club}/manage").text
    listed = re.search(r'id="tiebreaks-offered">(.*?)</p>', page, re.S)
    assert listed is not None
    codes = listed.group(1).split(":")[1].split("(")[0]
    assert "SB" in codes and "BH" not in codes and "AOB" not in codes and "FB" not in codes
    assert "Buchholz, Fore Buchholz and AOB are not offered" in listed.group(1)
    answer = client.post(
        f"/t/{club}/manage/regulations",
        data={"csrf_token": csrf_of(page), "tiebreaks": "BH/C1,SB"},
    )
    assert "BH/C1 cannot be chosen for a round robin in FIDE mode" in answer.text
    assert "Confirmation needed" not in answer.text  # refused, not asked
    assert service.tournament(club).settings.tiebreaks == ("DE", "SB")
    russian = client.get(f"/t/{club}/manage", headers={"Accept-Language": "ru"}).text
    assert "Доступные дополнительные показатели" in russian
    armenian = client.get(f"/t/{club}/manage", headers={"Accept-Language": "hy"}).text
    assert "Առաջարկվող լրացուցիչ ցուցանիշներ" in armenian
    swiss_page = client.get(f"/t/{swiss}/manage").text
    listed = re.search(r'id="tiebreaks-offered">(.*?)</p>', swiss_page, re.S)
    assert listed is not None and "BH" in listed.group(1) and "AOB" in listed.group(1)
    assert "are not offered" not in listed.group(1)


def test_q105_the_wizard_refuses_a_buchholz_for_a_round_robin(site: Any) -> None:
    client, service, _ids, _headers = site
    page = client.get("/new").text
    assert re.search(r'<option value="swiss" class="tb-swiss-only"', page)
    before = len(service.tournaments())
    form = {"csrf_token": csrf_of(page), "name": "Wizard club", "format": "round-robin"}
    answer = client.post("/new", data=form | {"tiebreaks": "custom", "tiebreak_list": "SB,BH"})
    assert "BH cannot be chosen for a round robin in FIDE mode" in answer.text
    answer = client.post("/new", data=form | {"tiebreaks": "swiss"})  # the preset sent anyway
    assert "BH/C1, BH cannot be chosen" in answer.text
    assert len(service.tournaments()) == before
    made = client.post("/new", data=form | {"format": "swiss", "tiebreaks": "swiss"})
    assert made.status_code in (200, 303) and len(service.tournaments()) == before + 1


@needs_chromium
def test_q105_the_wizard_hides_the_buchholz_preset_of_a_round_robin_in_chromium(
    tmp_path: Path,
) -> None:
    with web_server(tmp_path / "wizard.db") as url, chromium() as browser:
        page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
        sign_up(page, url, "arbiter", "Chief Arbiter")
        page.goto(url + "/new")
        preset = "select[name=tiebreaks] option[value=swiss]"
        shown = "el => getComputedStyle(el).display"
        for format_ in ("round-robin", "double-round-robin", "quads", "rating-groups"):
            page.select_option("#format", format_)
            assert page.eval_on_selector(preset, shown) == "none", format_
        assert page.eval_on_selector("select[name=tiebreaks] option[value=rr]", shown) != "none"
        page.select_option("#format", "swiss")
        assert page.eval_on_selector(preset, shown) != "none"
