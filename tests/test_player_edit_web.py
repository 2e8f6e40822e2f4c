"""Editing a player on the web (issue 15 item 5): the form on the manage page next to ✕
and after the start, its POST, and ``PATCH /api/v1/tournaments/{id}/players/{number}``,
on SQLite and PostgreSQL; refusals name the field and why, in the reader's language."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.core.model import LotsMethod, System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import Store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.web_support import signed_in

NAMES = ("Anna", "Boris", "Clara", "Dmitri")


@pytest.fixture
def site(store: Store) -> Iterator[tuple[TestClient, Service, dict[str, str]]]:
    service = make_service(store)
    accounts = Accounts(service.store)
    user = accounts.create_user("org", "password-org", is_admin=True)
    token = accounts.create_token(user.id)
    with TestClient(create_app(service=service)) as client:
        yield client, service, {"Authorization": f"Bearer {token}"}


def _tournament(service: Service, system: System = System.ROUND_ROBIN, **details: str) -> int:
    tid = service.create_tournament(
        Regulations(name="Club", system=system, details=details)
    ).tournament_id
    for index, name in enumerate(NAMES):
        service.add_player(tid, PlayerInfo(name, rating=2400 - 10 * index))
    return tid


def _names(service: Service, tid: int) -> list[tuple[str, int | None, str]]:
    return [(p.name, p.rating, p.title) for p in service.overview(tid).players]


def test_the_manage_page_edits_a_player_before_and_after_the_start(site: Any) -> None:
    client, service, _headers = site
    tid = _tournament(service)
    token = signed_in(client, "org")
    page = client.get(f"/t/{tid}/manage").text
    # the form sits next to the ✕ of every player, filled with what is stored
    assert page.count('class="edit-player"') == 4
    assert f'action="/t/{tid}/manage/players/2/edit"' in page
    assert 'name="name" value="Boris"' in page and 'name="rating" inputmode="numeric"' in page
    form = {
        "csrf_token": token,
        "name": "Boris Spassky",
        "rating": "2500",
        "title": "GM",
        "federation": "FRA",
        "fide_id": "4100026",
        "birth_date": "1937",
        "sex": "m",
    }
    saved = client.post(f"/t/{tid}/manage/players/2/edit", data=form, follow_redirects=False)
    assert saved.status_code == 303
    assert _names(service, tid)[1] == ("Boris Spassky", 2500, "GM")
    shown = client.get(f"/t/{tid}/manage").text
    assert "player 2 Boris Spassky edited: name Boris → Boris Spassky" in shown  # the flash
    assert 'name="fide_id" inputmode="numeric" value="4100026"' in shown
    assert '<option value="m" selected>' in shown
    # after the start the players' details panel keeps the form
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    running = client.get(f"/t/{tid}/manage").text
    assert 'id="player-details"' in running and running.count('class="edit-player"') == 4
    client.post(
        f"/t/{tid}/manage/players/3/edit",
        data={"csrf_token": token, "name": "Clara K.", "rating": ""},
        follow_redirects=False,
    )
    assert _names(service, tid)[2] == ("Clara K.", None, "")
    assert service.history(tid)[-1].kind == "player-edit"


def test_the_form_refusal_names_the_field_in_the_readers_language(site: Any) -> None:
    client, service, _headers = site
    tid = _tournament(service, System.KNOCKOUT, tie_rule="lower-rated")
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    token = signed_in(client, "org")
    client.cookies.set("lang", "ru")
    answer = client.post(
        f"/t/{tid}/manage/players/2/edit",
        data={"csrf_token": token, "name": "Boris", "rating": "2600"},
        headers={"referer": f"http://testserver/t/{tid}/manage"},
    )
    assert "рейтинг участника 2 Boris" in answer.text, answer.text
    assert _names(service, tid)[1] == ("Boris", 2390, "")
    bad = client.post(
        f"/t/{tid}/manage/players/2/edit",
        data={"csrf_token": token, "rating": "high"},
        headers={"referer": f"http://testserver/t/{tid}/manage"},
    )
    assert "rating" in bad.text or "рейтинг" in bad.text


def test_api_patch_changes_only_what_is_sent(site: Any) -> None:
    client, service, headers = site
    tid = _tournament(service)
    url = f"/api/v1/tournaments/{tid}/players/3"
    answer = client.patch(url, json={"title": "WFM", "rating": None}, headers=headers)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["kind"] == "player-edit"
    assert body["summary"] == "player 3 Clara edited: rating 2380 → (none); title (none) → WFM"
    assert _names(service, tid)[2] == ("Clara", None, "WFM")
    again = client.patch(url, json={"title": "WFM"}, headers=headers)
    assert again.status_code == 200 and again.json()["replayed"] is True
    # refusals: 422 naming the field, 404 for nobody
    for sent, said in (
        ({"sex": "x"}, "sex is 'm', 'w' or empty"),
        ({"name": None}, "a player needs a name"),
        ({}, "nothing to change"),
        ({"rating": -3}, "rating"),
    ):
        refused = client.patch(url, json=sent, headers=headers)
        assert refused.status_code == 422, (sent, refused.text)
        assert said in str(refused.json()["detail"]), (sent, refused.text)
    missing = client.patch(
        f"/api/v1/tournaments/{tid}/players/9", json={"title": "GM"}, headers=headers
    )
    assert missing.status_code == 404 and "no player number 9" in missing.json()["detail"]
    # the history keeps it and undo takes it back
    assert client.post(f"/api/v1/tournaments/{tid}/undo", headers=headers).status_code == 200
    assert _names(service, tid)[2] == ("Clara", 2380, "")


def test_api_patch_after_the_start_of_a_knockout(site: Any) -> None:
    client, service, headers = site
    tid = _tournament(service, System.KNOCKOUT)
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    url = f"/api/v1/tournaments/{tid}/players/1"
    assert client.patch(url, json={"name": "Anna A."}, headers=headers).status_code == 200
    refused = client.patch(url, json={"rating": 1000}, headers=headers)
    assert refused.status_code == 422
    assert refused.json()["detail"].startswith("rating of player 1 Anna A.: cannot change after")


def test_registering_says_player_or_players(site: Any) -> None:
    client, service, _headers = site
    tid = service.create_tournament(Regulations(name="Club")).tournament_id
    token = signed_in(client, "org")
    url = f"/t/{tid}/manage/players"
    one = client.post(url, data={"csrf_token": token, "name": "Anna"})
    assert "1 player registered" in one.text  # (the page the redirect leads to)
    two = client.post(url, data={"csrf_token": token, "list": "Boris, 2000\nClara, 1900"})
    assert "2 players registered" in two.text and "(s)" not in two.text
    client.cookies.set("lang", "ru")
    five = client.post(url, data={"csrf_token": token, "list": "Dmitri\nEva\nFyodor\nGleb\nHanna"})
    assert "зарегистрировано 5 участников" in five.text
