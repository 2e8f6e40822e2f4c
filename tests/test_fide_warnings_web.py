"""FIDE mode and the warning levels on the web: the organiser's confirmation pages (two
steps for level 4, in English, Russian and Armenian), the marker on every organiser page
once FIDE mode is left, and the JSON API's structured warning (HTTP 409, redone with the
token)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from crosstable.core.model import LotsMethod, System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.web_support import csrf_of


@pytest.fixture()
def site(tmp_path: Path) -> Any:
    service = Service(open_store(f"sqlite:///{tmp_path / 'web.db'}"))
    accounts = Accounts(service.store)
    user = accounts.create_user("organiser", "password-organiser", is_master=True)
    tid = service.create_tournament(Regulations(name="Club", tiebreaks=("DE", "SB"))).tournament_id
    accounts.claim(tid, user)
    accounts.set_access(tid, approval="approved")
    for name in ("Anna", "Boris", "Clara", "Dmitri"):
        service.add_player(tid, PlayerInfo(name, 1800))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    service.record_result(tid, 1, 1, "1-0")
    swiss = service.create_tournament(
        Regulations(name="Open", system=System.SWISS_DUTCH, rounds=4)
    ).tournament_id
    accounts.claim(swiss, user)
    accounts.set_access(swiss, approval="approved")
    for name in ("Anna", "Boris", "Clara", "Dmitri", "Eva", "Fyodor"):
        service.add_player(swiss, PlayerInfo(name, 1800))
    service.draw_lots(swiss, LotsMethod.MANUAL, order=(1, 2, 3, 4, 5, 6))
    service.start(swiss)
    service.request_bye(swiss, 3, 2, "H")
    client_swiss.append(swiss)
    token = accounts.create_token(user.id, "api")
    with TestClient(create_app(service=service)) as client:
        csrf = csrf_of(client.get("/signin").text)
        client.post(
            "/signin",
            data={"username": "organiser", "password": "password-organiser", "csrf_token": csrf},
        )
        yield client, service, tid, {"Authorization": f"Bearer {token}"}


#: the Swiss of the fixture (its id)
client_swiss: list[int] = []


def _confirm_token(page: str) -> str:
    found = re.search(r'name="confirm" value="([0-9a-f]+)"', page)
    assert found, page
    return found.group(1)


def test_r_rr_10_the_tiebreak_form_after_the_start_asks_twice_and_says_for_whom(
    site: Any,
) -> None:
    client, service, tid, _ = site
    csrf = csrf_of(client.get(f"/t/{tid}/manage").text)
    form = {"csrf_token": csrf, "tiebreaks": "SB,KS"}
    first = client.post(f"/t/{tid}/manage/regulations", data=form, follow_redirects=False)
    assert first.status_code == 409
    assert "Confirmation 1 of 2 (level 4)" in first.text
    assert "from DE,SB to SB,KS" in first.text and "equal points" in first.text
    assert service.tournament(tid).settings.tiebreaks == ("DE", "SB")  # nothing yet
    second = client.post(
        f"/t/{tid}/manage/regulations",
        data=form | {"csrf_token": csrf_of(first.text), "confirm": _confirm_token(first.text)},
        follow_redirects=False,
    )
    assert second.status_code == 409 and "Confirmation 2 of 2" in second.text
    done = client.post(
        f"/t/{tid}/manage/regulations",
        data=form | {"csrf_token": csrf_of(second.text), "confirm": _confirm_token(second.text)},
        follow_redirects=False,
    )
    assert done.status_code == 303
    assert service.tournament(tid).settings.tiebreaks == ("SB", "KS")
    assert "old list DE,SB" in service.export_trf(tid)


def test_leaving_fide_mode_on_the_page_marks_every_organiser_page(site: Any) -> None:
    client, service, tid, _ = site
    manage = client.get(f"/t/{tid}/manage").text
    assert 'id="leave-fide-mode"' in manage and 'id="fide-off"' not in manage
    csrf = csrf_of(manage)
    first = client.post(f"/t/{tid}/manage/fide-mode/leave", data={"csrf_token": csrf})
    assert first.status_code == 409 and "permanent" in first.text
    second = client.post(
        f"/t/{tid}/manage/fide-mode/leave",
        data={"csrf_token": csrf_of(first.text), "confirm": _confirm_token(first.text)},
    )
    client.post(
        f"/t/{tid}/manage/fide-mode/leave",
        data={"csrf_token": csrf_of(second.text), "confirm": _confirm_token(second.text)},
    )
    assert not service.fide_mode(tid).on
    for page in ("manage", "history", "rounds/1", "regulations"):
        shown = client.get(f"/t/{tid}/{page}")
        assert shown.status_code == 200, page
        assert "Not in FIDE mode: left in round 1, for good" in shown.text, page
    # a spectator is not told (the marker is the organiser's)
    client.cookies.clear()
    assert 'id="fide-off"' not in client.get(f"/t/{tid}/regulations").text


@pytest.mark.parametrize(
    ("language", "words"),
    [("ru", "Подтверждение 1 из 2"), ("hy", "Հաստատում 1 / 2")],
)
def test_the_confirmation_page_in_russian_and_armenian(
    site: Any, language: str, words: str
) -> None:
    client, _, tid, _ = site
    csrf = csrf_of(client.get(f"/t/{tid}/manage").text)
    page = client.post(
        f"/t/{tid}/manage/fide-mode/leave",
        data={"csrf_token": csrf},
        headers={"Accept-Language": language},
        cookies={"lang": language},
    )
    assert page.status_code == 409
    assert words in page.text
    assert "leaving FIDE mode is permanent" not in page.text  # the warning translated too


def test_the_api_answers_a_structured_warning_and_goes_on_with_the_token(site: Any) -> None:
    client, service, tid, auth = site
    base = f"/api/v1/tournaments/{tid}"
    assert client.get(f"{base}/fide-mode").json() == {"fide_mode": True, "left_in_round": None}
    asked = client.put(f"{base}/tiebreaks", json={"tiebreaks": ["SB"]}, headers=auth)
    assert asked.status_code == 409
    warning = asked.json()["warning"]
    assert (warning["level"], warning["code"], warning["step"]) == (4, "tiebreaks-after-start", 1)
    assert warning["consequences"] and "from DE,SB to SB" in warning["message"]
    step2 = client.put(
        f"{base}/tiebreaks", json={"tiebreaks": ["SB"], "confirm": warning["confirm"]}, headers=auth
    )
    assert step2.status_code == 409 and step2.json()["warning"]["step"] == 2
    done = client.put(
        f"{base}/tiebreaks",
        json={"tiebreaks": ["SB"], "confirm": step2.json()["warning"]["confirm"]},
        headers=auth,
    )
    assert done.status_code == 200, done.text
    assert service.tournament(tid).settings.tiebreaks == ("SB",)
    # leaving FIDE mode through the API, a stale token refused with a fresh warning
    left = client.post(f"{base}/fide-mode/leave", json={}, headers=auth).json()["warning"]
    service.record_result(tid, 1, 2, "1-0")
    stale = client.post(f"{base}/fide-mode/leave", json={"confirm": left["confirm"]}, headers=auth)
    assert stale.status_code == 409 and stale.json()["warning"]["stale"] is True
    token = stale.json()["warning"]["confirm"]
    token = client.post(f"{base}/fide-mode/leave", json={"confirm": token}, headers=auth).json()[
        "warning"
    ]["confirm"]
    assert (
        client.post(f"{base}/fide-mode/leave", json={"confirm": token}, headers=auth).status_code
        == 200
    )
    assert client.get(f"{base}/fide-mode").json() == {"fide_mode": False, "left_in_round": 2}


def test_byes_full_point_and_second_half_point_on_the_page_and_in_the_api(site: Any) -> None:
    client, service, _, auth = site
    swiss = client_swiss[-1]
    csrf = csrf_of(client.get(f"/t/{swiss}/byes").text)
    form = {"csrf_token": csrf, "start": "3", "round": "3", "kind": "H"}
    asked = client.post(f"/t/{swiss}/byes", data=form, follow_redirects=False)
    assert asked.status_code == 409 and "Confirmation needed (level 3)" in asked.text
    assert "already has a half-point bye (rounds 2)" in asked.text
    done = client.post(
        f"/t/{swiss}/byes",
        data=form | {"csrf_token": csrf_of(asked.text), "confirm": _confirm_token(asked.text)},
        follow_redirects=False,
    )
    assert done.status_code == 303
    assert any(b.start == 3 and b.round == 3 for b in service.byes(swiss))
    base = f"/api/v1/tournaments/{swiss}/byes"
    full = client.post(base, json={"round": 2, "kind": "F", "start": 4}, headers=auth)
    assert full.status_code == 409
    warning = full.json()["warning"]
    assert (warning["level"], warning["code"]) == (2, "full-point-bye")
    again = client.post(
        base,
        json={"round": 2, "kind": "F", "start": 4, "confirm": warning["confirm"]},
        headers=auth,
    )
    assert again.status_code == 201, again.text
    assert "### Bye @ Round 2: full-point bye for player 4" in service.export_trf(swiss)
