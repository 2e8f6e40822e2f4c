"""Linking a tournament entry to a player's account on the web, with the player's word:
the organiser names the account (page or JSON API), the account's owner confirms or
refuses on their account page (or the API); only a confirmation links the entry, and the
history says who confirmed. Before, only the command line could link an entry."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.web_support import csrf_of, signed_in


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Any]:
    service = Service(open_store(str(tmp_path / "links.db")))
    app = create_app(service=service, listen=False)
    clients = {name: TestClient(app) for name in ("admin", "anna", "boris", "nobody")}
    accounts = app.state.site.accounts
    users = {
        "admin": accounts.create_user("admin", "password-admin", is_admin=True),
        "anna": accounts.create_user("anna", "password-anna"),
        "boris": accounts.create_user("boris", "password-boris"),
    }
    tid = service.create_tournament(
        Regulations(name="Club evening"),
        players=[PlayerInfo("Anna Petrova"), PlayerInfo("Boris Ivanov"), PlayerInfo("Clara")],
    ).tournament_id
    accounts.claim(tid, users["admin"])
    tokens = {name: csrf_of(clients[name].get("/").text) for name in ("nobody",)}
    for name in ("admin", "anna", "boris"):
        tokens[name] = signed_in(clients[name], name)
    return {
        "service": service,
        "accounts": accounts,
        "clients": clients,
        "tokens": tokens,
        "users": users,
        "tid": tid,
    }


def post(world: dict[str, Any], who: str, path: str, **data: str) -> Any:
    client = world["clients"][who]
    return client.post(
        path, data={"csrf_token": world["tokens"][who], **data}, follow_redirects=False
    )


def test_an_entry_is_linked_only_when_its_player_confirms(world: dict[str, Any]) -> None:
    tid, accounts = world["tid"], world["accounts"]
    page = world["clients"]["admin"].get(f"/t/{tid}/manage/accounts")
    assert page.status_code == 200 and "Anna Petrova" in page.text
    asked = post(world, "admin", f"/t/{tid}/manage/accounts/1", action="ask", username="Anna")
    assert asked.status_code == 303
    assert accounts.entry_accounts(tid) == {}  # asked, not linked
    assert "@anna" in world["clients"]["admin"].get(f"/t/{tid}/manage/accounts").text

    mine = world["clients"]["anna"].get("/account/entries")
    assert "Club evening" in mine.text and "Anna Petrova" in mine.text
    assert "Entries to confirm" in world["clients"]["anna"].get("/account").text
    # somebody else cannot answer anna's request
    post(world, "boris", f"/account/entries/{tid}/1", action="confirm")
    assert accounts.entry_accounts(tid) == {}
    assert "there is no request" in world["clients"]["boris"].get("/account/entries").text
    assert post(world, "anna", f"/account/entries/{tid}/1", action="confirm").status_code == 303
    assert accounts.entry_accounts(tid) == {1: world["users"]["anna"].id}
    assert "Nothing to confirm" in world["clients"]["anna"].get("/account/entries").text
    history = world["service"].history(tid)
    link = [e for e in history if e.kind == "account-link"][-1]
    assert link.actor == "anna"

    # a refusal links nothing and ends the request
    post(world, "admin", f"/t/{tid}/manage/accounts/2", action="ask", username="anna")
    assert post(world, "anna", f"/account/entries/{tid}/2", action="refuse").status_code == 303
    assert accounts.entry_accounts(tid) == {1: world["users"]["anna"].id}
    assert "Boris Ivanov" not in world["clients"]["anna"].get("/account/entries").text

    # the organiser withdraws a request, and unlinks
    post(world, "admin", f"/t/{tid}/manage/accounts/3", action="ask", username="boris")
    post(world, "admin", f"/t/{tid}/manage/accounts/3", action="withdraw")
    assert "Clara" not in world["clients"]["boris"].get("/account/entries").text
    post(world, "admin", f"/t/{tid}/manage/accounts/1", action="unlink")
    assert accounts.entry_accounts(tid) == {}


def test_only_the_organiser_asks(world: dict[str, Any]) -> None:
    tid = world["tid"]
    assert world["clients"]["anna"].get(f"/t/{tid}/manage/accounts").status_code == 403
    refused = post(world, "anna", f"/t/{tid}/manage/accounts/1", action="ask", username="anna")
    assert refused.status_code == 403
    anonymous = world["clients"]["nobody"].get(f"/t/{tid}/manage/accounts", follow_redirects=False)
    assert anonymous.status_code in (303, 401)
    assert world["clients"]["nobody"].get(
        "/account/entries", follow_redirects=False
    ).status_code in (
        303,
        401,
    )


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"action": "ask", "username": "nobody-here"}, "nobody-here"),
        ({"action": "ask", "username": "   "}, "account"),
        ({"action": "dance"}, "dance"),
    ],
)
def test_bad_requests_are_refused_with_a_reason(
    world: dict[str, Any], data: dict[str, str], said: str
) -> None:
    tid = world["tid"]
    answer = post(world, "admin", f"/t/{tid}/manage/accounts/1", **data)
    assert answer.status_code in (303, 400, 404, 409, 422)
    shown = world["clients"]["admin"].get(f"/t/{tid}/manage/accounts").text + answer.text
    assert said in shown
    assert world["accounts"].entry_accounts(tid) == {}


def test_the_json_api_asks_and_answers(world: dict[str, Any]) -> None:
    tid, accounts = world["tid"], world["accounts"]
    admin = {"Authorization": f"Bearer {accounts.create_token(world['users']['admin'].id)}"}
    anna = {"Authorization": f"Bearer {accounts.create_token(world['users']['anna'].id)}"}
    client = world["clients"]["nobody"]
    made = client.post(
        f"/api/v1/tournaments/{tid}/players/2/account", json={"username": "anna"}, headers=admin
    )
    assert made.status_code == 201 and made.json()["username"] == "anna"
    refused = client.post(
        f"/api/v1/tournaments/{tid}/players/2/account", json={"username": "anna"}, headers=anna
    )
    assert refused.status_code == 403
    waiting = client.get("/api/v1/account/entry-requests", headers=anna).json()["requests"]
    assert [(r["tournament"], r["number"], r["name"]) for r in waiting] == [
        (tid, 2, "Boris Ivanov")
    ]
    done = client.post(
        f"/api/v1/account/entry-requests/{tid}/2", json={"confirm": True}, headers=anna
    )
    assert done.status_code == 200 and done.json()["linked"] is True
    assert accounts.entry_accounts(tid) == {2: world["users"]["anna"].id}
    again = client.post(
        f"/api/v1/account/entry-requests/{tid}/2", json={"confirm": True}, headers=anna
    )
    assert again.status_code == 404
    unknown = client.post(
        f"/api/v1/tournaments/{tid}/players/9/account", json={"username": "anna"}, headers=admin
    )
    assert unknown.status_code == 404
