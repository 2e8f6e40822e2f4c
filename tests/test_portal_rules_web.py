"""The portal's rules on the web and the JSON API (issue 12 items 2–4): the administrator
flags an account with a reason and a decision per running tournament, adjusts the
eligibility counts, grants and revokes the master status; the account page shows the
counts with the adjustment apart; organisers are added through the API and a sole
organiser's registration is refused with the reason, in English and in Russian."""

from __future__ import annotations

from collections.abc import Iterator
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


class Portal:
    def __init__(self, tmp: Path) -> None:
        self.service = Service(open_store(migrated(f"sqlite:///{tmp / 'portal.db'}")))
        self.accounts = Accounts(self.service.store)
        self.app = create_app(service=self.service)
        a = self.accounts
        self.admin = a.create_user("admin", "password-admin", is_admin=True)
        self.owner = a.create_user("owner", "password-owner", is_master=True)
        self.anna = a.create_user("anna", "password-anna")
        self.tokens = {
            u.username: a.create_token(u.id) for u in (self.admin, self.owner, self.anna)
        }

    def api(self, name: str, **extra: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[name]}"} | extra

    def client(self, name: str) -> TestClient:
        client = TestClient(self.app)
        token = csrf_of(client.get("/signin").text)
        answer = client.post(
            "/signin",
            data={"username": name, "password": f"password-{name}", "csrf_token": token},
            follow_redirects=False,
        )
        assert answer.status_code == 303
        return client

    def running(self, name: str) -> int:
        """A running round robin of the owner's in which anna plays."""
        tid = self.service.create_tournament(Regulations(name=name)).tournament_id
        self.accounts.claim(tid, self.owner)
        self.accounts.set_access(tid, approval="approved")
        number = int(self.service.add_player(tid, PlayerInfo("Anna")).data["number"])
        self.accounts.link_entry(tid, number, self.anna.id)
        for other in ("Boris", "Clara"):
            self.service.add_player(tid, PlayerInfo(other))
        self.service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3))
        self.service.start(tid)
        return tid


@pytest.fixture
def portal(tmp_path: Path) -> Iterator[Portal]:
    yield Portal(tmp_path)


def test_the_api_flags_with_a_decision_per_running_tournament(portal: Portal) -> None:
    client = TestClient(portal.app)
    first, second = portal.running("Spring"), portal.running("Summer")
    user = portal.anna.id
    body: dict[str, Any] = {"reason": "engine moves", "decisions": {str(first): "withdraw"}}
    asked = client.post(f"/api/v1/users/{user}/flag", json=body, headers=portal.api("admin"))
    assert asked.status_code == 422
    assert asked.json()["detail"] == (
        "fair play: anna plays in running tournaments; decide for each whether they "
        f"withdraw or stay until the end: Summer (tournament {second})"
    )
    russian = client.post(
        f"/api/v1/users/{user}/flag",
        json=body,
        headers=portal.api("admin", **{"Accept-Language": "ru"}),
    )
    assert russian.json()["detail"].startswith("честная игра: anna играет в идущих турнирах")
    body["decisions"][str(second)] = "stay"
    done = client.post(f"/api/v1/users/{user}/flag", json=body, headers=portal.api("admin"))
    assert done.status_code == 200, done.text
    assert done.json() == {"user": user, "flagged": True, "withdrawn_from": [first]}
    history = client.get(f"/api/v1/users/{user}/history", headers=portal.api("admin")).json()
    flag = history["events"][-1]
    assert (flag["kind"], flag["actor"], flag["data"]["reason"]) == (
        "flag",
        "admin",
        "engine moves",
    )
    # administrators only: not the account itself, not an organiser
    for name in ("anna", "owner"):
        seen = client.get(f"/api/v1/users/{user}/history", headers=portal.api(name))
        assert seen.status_code == 403
    bad = client.post(
        f"/api/v1/users/{user}/unflag", json={"reason": "x" * 501}, headers=portal.api("admin")
    )
    assert bad.status_code == 422
    cleared = client.post(
        f"/api/v1/users/{user}/unflag", json={"reason": "appeal"}, headers=portal.api("admin")
    )
    assert cleared.json() == {"user": user, "flagged": False}


def test_the_admin_page_flags_with_the_choice_per_tournament(portal: Portal) -> None:
    tid = portal.running("Spring")
    admin = portal.client("admin")
    page = admin.get("/admin").text
    assert f'name="decision_{tid}"' in page
    assert "Running tournament Spring" in page
    token = csrf_of(page)
    missing = admin.post(
        f"/admin/users/{portal.anna.id}/flag",
        data={"csrf_token": token, "reason": "engine"},
        follow_redirects=True,
    )
    assert "decide for each whether they withdraw or stay until the end" in missing.text
    assert not portal.accounts.user(portal.anna.id).flagged
    flagged = admin.post(
        f"/admin/users/{portal.anna.id}/flag",
        data={"csrf_token": token, "reason": "engine in round 2", f"decision_{tid}": "stay"},
        follow_redirects=True,
    )
    assert flagged.status_code == 200
    assert portal.accounts.user(portal.anna.id).flagged
    assert (
        "flagged for computer help: engine in round 2 — Spring: stays until the end" in flagged.text
    )
    # the player's own page does not show who flagged or why
    mine = portal.client("anna").get("/account").text
    assert "engine in round 2" not in mine


def test_the_account_page_shows_the_counts_with_the_adjustment_apart(portal: Portal) -> None:
    client = TestClient(portal.app)
    user = portal.anna.id
    adjusted = client.post(
        f"/api/v1/users/{user}/adjust",
        json={"games": 5, "online_tournaments": 1, "reason": "games on the old site"},
        headers=portal.api("admin"),
    )
    assert adjusted.status_code == 200, adjusted.text
    assert adjusted.json()["games"] == {"total": 5, "on_site": 0, "adjusted": 5}
    assert adjusted.json()["games_text"] == "5 = 0 on the site + 5 adjusted"
    refused = client.post(
        f"/api/v1/users/{user}/adjust",
        json={"games": 5, "reason": ""},
        headers=portal.api("admin"),
    )
    assert refused.status_code == 422
    assert "give the reason" in refused.json()["detail"]
    own = client.get(f"/api/v1/users/{user}/record", headers=portal.api("anna"))
    assert own.json()["online_tournaments"]["adjusted"] == 1
    other = client.get(f"/api/v1/users/{user}/record", headers=portal.api("owner"))
    assert other.status_code == 403
    page = portal.client("anna").get("/account").text
    assert "5 = 0 on the site + 5 adjusted" in page
    anna_ru = portal.client("anna")
    anna_ru.cookies.set("lang", "ru")
    assert "5 = 0 на сайте + 5 (поправка)" in anna_ru.get("/account").text
    admin_page = portal.client("admin").get("/admin").text
    assert "5 = 0 on the site + 5 adjusted" in admin_page
    assert "games on the old site" in admin_page  # the record, for administrators


def test_master_granted_and_revoked_through_the_api(portal: Portal) -> None:
    client = TestClient(portal.app)
    user = portal.anna.id
    granted = client.post(
        f"/api/v1/users/{user}/master", json={"grant": True}, headers=portal.api("admin")
    )
    assert granted.json()["master"]["text"] == "master: granted by admin"
    assert portal.accounts.user(user).may_organise
    revoked = client.post(
        f"/api/v1/users/{user}/master",
        json={"grant": False, "reason": "left the club"},
        headers=portal.api("admin"),
    )
    assert revoked.json()["master"] == {
        "is_master": False,
        "won": [],
        "granted_by": None,
        "revoked_by": "admin",
        "text": "not a master (revoked by admin)",
    }
    page = portal.client("anna").get("/account").text
    assert "Master status revoked by admin" in page


def test_organisers_through_the_api_and_a_sole_organiser_may_not_play(portal: Portal) -> None:
    client = TestClient(portal.app)
    tid = portal.service.create_tournament(Regulations(name="Open")).tournament_id
    portal.accounts.claim(tid, portal.owner)
    portal.accounts.set_access(tid, approval="approved", self_registration=True)
    refused = client.post(f"/api/v1/tournaments/{tid}/registration", headers=portal.api("owner"))
    assert refused.status_code == 422
    assert refused.json()["detail"] == (
        "you cannot register: organisers: a sole organiser may not play in their own "
        "tournament (add another organiser who does not play first)"
    )
    russian = client.post(
        f"/api/v1/tournaments/{tid}/registration",
        headers=portal.api("owner", **{"Accept-Language": "ru"}),
    )
    assert "единственный организатор не может играть" in russian.json()["detail"]
    added = client.post(
        f"/api/v1/tournaments/{tid}/organisers",
        json={"username": "admin", "role": "organiser"},
        headers=portal.api("owner"),
    )
    assert added.status_code == 200, added.text
    assert {s["username"]: s["role"] for s in added.json()["staff"]} == {
        "owner": "organiser",
        "admin": "organiser",
    }
    accepted = client.post(f"/api/v1/tournaments/{tid}/registration", headers=portal.api("owner"))
    assert accepted.status_code == 201, accepted.text
    listed = client.get(f"/api/v1/tournaments/{tid}/organisers").json()["staff"]
    assert {s["username"]: s["plays"] for s in listed} == {"owner": True, "admin": False}
    # the admin may not leave now: the owner, who plays, would organise alone
    left = client.post(
        f"/api/v1/tournaments/{tid}/organisers",
        json={"username": "admin", "role": None},
        headers=portal.api("owner"),
    )
    assert left.status_code == 422
    assert left.json()["detail"] == (
        "organisers: a sole organiser may not play in their own tournament (owner would "
        "organise alone and plays)"
    )
    nobody = client.post(
        f"/api/v1/tournaments/{tid}/organisers",
        json={"username": "nobody", "role": "organiser"},
        headers=portal.api("owner"),
    )
    assert nobody.status_code == 404


def test_an_organiser_cannot_add_a_flagged_account_and_nothing_is_added(portal: Portal) -> None:
    tid = portal.service.create_tournament(Regulations(name="Open")).tournament_id
    portal.accounts.claim(tid, portal.owner)
    portal.accounts.set_access(tid, approval="approved")
    portal.accounts.flag(portal.anna.id, "engine")
    owner = portal.client("owner")
    token = csrf_of(owner.get(f"/t/{tid}/manage").text)
    answer = owner.post(
        f"/t/{tid}/manage/players",
        data={"csrf_token": token, "name": "Anna", "account": "anna"},
        follow_redirects=True,
    )
    assert "anna cannot play in this tournament: fair play" in answer.text
    assert not portal.service.overview(tid).players  # refused before the entry exists
    added = owner.post(
        f"/t/{tid}/manage/players",
        data={"csrf_token": token, "name": "Guest"},
        follow_redirects=False,
    )
    assert added.status_code == 303
    assert [p.name for p in portal.service.overview(tid).players] == ["Guest"]


def test_the_regulations_page_says_online_or_over_the_board(portal: Portal) -> None:
    details = {"venue_kind": "otb"}
    tid = portal.service.create_tournament(Regulations(name="Club", details=details)).tournament_id
    client = TestClient(portal.app)
    page = client.get(f"/t/{tid}/regulations").text
    assert "Kind of event" in page
    assert "over the board (the players meet at the venue)" in page
    client.cookies.set("lang", "ru")
    page = client.get(f"/t/{tid}/regulations").text
    assert "Вид турнира" in page
    assert "очный (игроки встречаются на месте проведения)" in page
