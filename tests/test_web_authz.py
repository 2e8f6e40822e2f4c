"""Authorisation matrix: every protected route × every role answers as it should (R-OR-1).

Roles: anonymous, player (registered with an account), helper, organiser, another
organiser (of another tournament), a master before and after the administrator
approved the regulations, and the administrator. "Allowed" means the request is
not refused for who is asking (it may still break a rule: 422); "refused" means
401/403 (or, for a page, the sign-in redirect of an anonymous visitor).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_service_support import migrated

from crosstable.core.model import LotsMethod, System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

ROLES = ("anonymous", "player", "helper", "organiser", "other", "master", "admin")


class World:
    def __init__(self, tmp: Path) -> None:
        self.service = Service(open_store(migrated(f"sqlite:///{tmp / 'authz.db'}")))
        self.accounts = Accounts(self.service.store)
        self.app = create_app(service=self.service)
        a = self.accounts
        self.users = {
            "admin": a.create_user("admin", "password-admin", is_admin=True),
            "organiser": a.create_user("organiser", "password-organiser", is_master=True),
            "other": a.create_user("other", "password-other", is_master=True),
            "master": a.create_user("master", "password-master", is_master=True),
            "helper": a.create_user("helper", "password-helper"),
            "player": a.create_user("player", "password-player"),
        }
        self.tokens = {name: a.create_token(u.id) for name, u in self.users.items()}
        self.t1 = self._tournament("Club", "organiser", approve=True, start=True)
        self.t2 = self._tournament("Master's open", "master", approve=False, start=False)
        self.t3 = self._tournament("Other club", "other", approve=True, start=False)
        a.set_staff(self.t1, self.users["helper"].id, "helper")
        self.t4 = self._paired("Club Swiss", System.SWISS_DUTCH)
        self.t5 = self._paired("Club cup", System.KNOCKOUT)
        self.t6 = self._group_stage()
        self.t7 = self._battle()
        self.s1 = self._series()

    def _battle(self) -> int:
        """A running battle-chess round robin of the organiser's (issue 12.1): its export
        carries the seed of the colours, so only its organisers download it before the end."""
        details = {"variant": "battle", "setup_minutes": "5"}
        tid = self.service.create_tournament(Regulations(name="Battle", details=details))
        self.accounts.claim(tid.tournament_id, self.users["organiser"])
        self.accounts.set_access(tid.tournament_id, approval="approved")
        self.accounts.set_staff(tid.tournament_id, self.users["helper"].id, "helper")
        for index in range(4):
            self.service.add_player(tid.tournament_id, PlayerInfo(f"Player {index + 1}"))
        self.service.draw_lots(tid.tournament_id, LotsMethod.MANUAL, order=(1, 2, 3, 4))
        self.service.start(tid.tournament_id)
        return tid.tournament_id

    def _series(self) -> int:
        """A workdays series with its first edition open for registration (issue 11.7)."""
        from crosstable.service.series import SeriesSettings

        settings = SeriesSettings("Evening", "workdays", "18:00", "Europe/Moscow")
        series_id = self.service.create_series(settings)
        self.service.open_edition(series_id)
        return series_id

    def _group_stage(self) -> int:
        """Two groups of the organiser's, linked as the wizard links them, not finished
        (creating the knockout stage is then refused by the rules: 422); group A's id."""
        from crosstable.service.stage_view import group_details

        ids = []
        for letter in "AB":
            details = group_details("authz", "Club groups", letter, 2, 1)
            regulations = Regulations(name=f"Club groups — group {letter}", details=details)
            tid = self.service.create_tournament(regulations).tournament_id
            self.accounts.claim(tid, self.users["organiser"])
            self.accounts.set_access(tid, approval="approved")
            for index in range(3):
                self.service.add_player(tid, PlayerInfo(f"{letter} {index + 1}", 1900 - index))
            ids.append(tid)
        return ids[0]

    def _paired(self, name: str, system: System) -> int:
        """A started Swiss (round 1 published) or knockout of the organiser's; the
        player's account is linked to starting number 1."""
        service, accounts = self.service, self.accounts
        rounds = 3 if system is System.SWISS_DUTCH else None
        tid = service.create_tournament(
            Regulations(name=name, system=system, rounds=rounds)
        ).tournament_id
        accounts.claim(tid, self.users["organiser"])
        accounts.set_access(tid, approval="approved")
        for index in range(4):
            change = service.add_player(tid, PlayerInfo(f"Player {index + 1}", 2000 - index))
            if index == 0:
                accounts.link_entry(tid, int(change.data["number"]), self.users["player"].id)
        service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
        service.start(tid)
        if system is System.SWISS_DUTCH:
            service.publish_round(tid)
        return tid

    def _tournament(self, name: str, owner: str, *, approve: bool, start: bool) -> int:
        service, accounts = self.service, self.accounts
        tid = service.create_tournament(Regulations(name=name)).tournament_id
        accounts.claim(tid, self.users[owner])
        if approve:
            accounts.set_access(tid, approval="approved")
        for index in range(4):
            change = service.add_player(tid, PlayerInfo(f"Player {index + 1}"))
            if owner == "organiser" and index == 0:
                accounts.link_entry(tid, int(change.data["number"]), self.users["player"].id)
        service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
        if start:
            service.start(tid)
        return tid

    def client(self, role: str) -> TestClient:
        client = TestClient(self.app)
        if role != "anonymous":
            token = _csrf(client.get("/signin").text)
            answer = client.post(
                "/signin",
                data={"username": role, "password": f"password-{role}", "csrf_token": token},
                follow_redirects=False,
            )
            assert answer.status_code == 303
        return client

    def headers(self, role: str) -> dict[str, str]:
        return {} if role == "anonymous" else {"Authorization": f"Bearer {self.tokens[role]}"}


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert match
    return match.group(1)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield World(tmp_path_factory.mktemp("authz"))


EVERYONE = set(ROLES)
ENTRY = {"admin", "organiser", "helper"}
MANAGE = {"admin", "organiser"}
ORGANISERS = {"admin", "organiser", "other", "master"}
SIGNED_IN = EVERYONE - {"anonymous"}
SERIES_BAD_KIND = {"name": "S", "kind": "yearly", "start_time": "18:00", "zone": "UTC"}


def api_routes(w: World) -> list[tuple[str, str, Any, set[str]]]:
    t = w.t1
    return [
        ("GET", f"/api/v1/tournaments/{t}", None, EVERYONE),
        ("GET", f"/api/v1/tournaments/{t}/standings", None, EVERYONE),
        ("GET", f"/api/v1/tournaments/{t}/export/json", None, EVERYONE),
        ("POST", f"/api/v1/tournaments/{t}/rounds/1/boards/2/result", {"result": "1-0"}, ENTRY),
        (
            "POST",
            f"/api/v1/tournaments/{t}/rounds/1/boards/1/report",
            {"result": "1-0"},
            {"player"},
        ),
        ("POST", f"/api/v1/tournaments/{t}/rounds/1/boards/1/confirm", {}, ENTRY),
        ("POST", f"/api/v1/tournaments/{t}/rounds/1/boards/2/correct", {"result": "0-1"}, ENTRY),
        ("POST", f"/api/v1/tournaments/{t}/rounds/1/boards/1/reject", None, ENTRY),
        # battle chess (issue 12.1): a classical tournament answers 422 to those allowed
        ("POST", f"/api/v1/tournaments/{t}/rounds/2/colours", None, MANAGE),
        (
            "POST",
            f"/api/v1/tournaments/{t}/rounds/1/boards/2/setup-timeout",
            {"finished": "white"},
            ENTRY,
        ),
        ("GET", f"/api/v1/tournaments/{t}/battle", None, EVERYONE),
        ("GET", f"/api/v1/tournaments/{w.t7}/battle", None, EVERYONE),
        ("GET", f"/api/v1/tournaments/{w.t7}/export/json", None, MANAGE),  # the seed inside
        ("GET", f"/api/v1/tournaments/{w.t7}/export/trf16", None, MANAGE),
        ("POST", f"/api/v1/tournaments/{w.t7}/rounds/3/colours", None, MANAGE),
        (
            "POST",
            f"/api/v1/tournaments/{w.t7}/rounds/1/boards/2/setup-timeout",
            {"finished": "none"},
            ENTRY,
        ),
        # the portal's rules (issue 12 items 2-4): administrators; the record: self too
        ("POST", f"/api/v1/users/{w.users['player'].id}/flag", {"reason": ""}, {"admin"}),
        ("POST", f"/api/v1/users/{w.users['player'].id}/unflag", {"reason": ""}, {"admin"}),
        ("POST", f"/api/v1/users/{w.users['player'].id}/adjust", {"reason": ""}, {"admin"}),
        ("POST", f"/api/v1/users/{w.users['admin'].id}/master", {"grant": True}, {"admin"}),
        # a user's own notifications (issue 11.5): any signed-in caller, never another's
        ("GET", "/api/v1/notifications", None, SIGNED_IN),
        ("POST", "/api/v1/notifications/read", {"ids": None}, SIGNED_IN),
        ("GET", "/api/v1/notifications/preferences", None, SIGNED_IN),
        ("PUT", "/api/v1/notifications/preferences", {"email": ""}, SIGNED_IN),
        ("GET", f"/api/v1/users/{w.users['player'].id}/record", None, {"admin", "player"}),
        ("GET", f"/api/v1/users/{w.users['player'].id}/history", None, {"admin"}),
        ("GET", f"/api/v1/tournaments/{t}/organisers", None, EVERYONE),
        ("POST", f"/api/v1/tournaments/{t}/organisers", {"username": "nobody"}, MANAGE),
        ("POST", f"/api/v1/tournaments/{t}/players", {"name": "Late"}, MANAGE),
        ("PATCH", f"/api/v1/tournaments/{t}/players/2", {"title": "FM"}, MANAGE),
        ("POST", f"/api/v1/tournaments/{t}/lots", {"method": "rating"}, MANAGE),
        ("POST", f"/api/v1/tournaments/{t}/withdrawals", {"start": 4}, MANAGE),
        ("POST", f"/api/v1/tournaments/{t}/finish", None, MANAGE),
        ("POST", f"/api/v1/tournaments/{t}/undo", None, MANAGE),
        ("POST", f"/api/v1/tournaments/{t}/revert", {"seq": 1}, MANAGE),
        ("POST", "/api/v1/tournaments", {"name": "New", "players": []}, ORGANISERS),
        ("POST", f"/api/v1/tournaments/{w.t3}/start", None, {"admin", "other"}),
        ("GET", f"/api/v1/tournaments/{w.t4}/pairing", None, MANAGE),
        ("POST", f"/api/v1/tournaments/{w.t4}/pairing/review", {"boards": [[1, 2]]}, MANAGE),
        ("POST", f"/api/v1/tournaments/{w.t4}/pairing", {"round": 9}, MANAGE),
        ("GET", f"/api/v1/tournaments/{w.t4}/byes", None, EVERYONE),
        ("POST", f"/api/v1/tournaments/{w.t4}/byes", {"round": 3}, MANAGE | {"player"}),
        ("DELETE", f"/api/v1/tournaments/{w.t4}/byes/3/1", None, MANAGE | {"player"}),
        ("GET", f"/api/v1/tournaments/{w.t5}/bracket", None, EVERYONE),
        ("POST", f"/api/v1/tournaments/{w.t5}/knockout/next", None, MANAGE),
        ("GET", f"/api/v1/tournaments/{w.t6}/stage", None, EVERYONE),
        ("POST", f"/api/v1/tournaments/{w.t6}/knockout-stage", {}, MANAGE),
        # a portal's series (issue 11.7): anyone reads; administrators and masters create
        # (an unknown calendar kind: 422 for them); a signed-in user registers himself
        ("GET", "/api/v1/series", None, EVERYONE),
        ("GET", f"/api/v1/series/{w.s1}", None, EVERYONE),
        ("GET", f"/api/v1/series/{w.s1}/editions/1", None, EVERYONE),
        ("POST", "/api/v1/series", SERIES_BAD_KIND, ORGANISERS),
        ("POST", f"/api/v1/series/{w.s1}/editions/1/registrations", None, SIGNED_IN),
        ("DELETE", f"/api/v1/series/{w.s1}/editions/1/registrations", None, SIGNED_IN),
    ]


def page_routes(w: World) -> list[tuple[str, str, set[str]]]:
    t = w.t1
    return [
        ("GET", f"/t/{t}", EVERYONE),
        ("GET", f"/t/{t}/rounds/1", EVERYONE),
        ("GET", f"/t/{t}/history", EVERYONE),
        ("GET", f"/t/{t}/print/crosstable", EVERYONE),
        ("GET", f"/t/{t}/manage", MANAGE),
        ("GET", f"/t/{w.t3}/manage", {"admin", "other"}),
        ("GET", "/new", ORGANISERS),
        ("GET", "/admin", {"admin"}),
        ("GET", "/account", EVERYONE - {"anonymous"}),
        ("POST", f"/t/{t}/manage/undo", MANAGE),
        ("POST", f"/t/{t}/rounds/2/colours", MANAGE),  # battle chess (issue 12.1)
        ("POST", f"/t/{w.t7}/rounds/3/colours", MANAGE),
        ("GET", f"/t/{w.t7}/rounds/1", EVERYONE),
        ("GET", f"/t/{w.t7}/regulations", EVERYONE),
        ("GET", f"/t/{w.t7}/export/trf2026", MANAGE),  # the seed inside until the end
        ("POST", f"/t/{t}/manage/staff", MANAGE),
        ("POST", f"/t/{t}/manage/players/2/edit", MANAGE),
        ("POST", f"/t/{w.t3}/manage/finish", {"admin", "other"}),
        ("POST", f"/t/{w.t2}/approve", {"admin"}),
        ("POST", f"/admin/users/{w.users['player'].id}", {"admin"}),
        ("POST", f"/admin/users/{w.users['player'].id}/flag", {"admin"}),
        ("POST", f"/admin/users/{w.users['player'].id}/unflag", {"admin"}),
        ("POST", f"/admin/users/{w.users['player'].id}/adjust", {"admin"}),
        ("POST", f"/admin/users/{w.users['admin'].id}/master", {"admin"}),
        ("GET", f"/t/{w.t4}", EVERYONE),
        ("GET", f"/t/{w.t4}/rounds/1", EVERYONE),
        ("GET", f"/t/{w.t4}/byes", EVERYONE),
        ("GET", f"/t/{w.t4}/pairing", MANAGE),
        ("POST", f"/t/{w.t4}/pairing/review", MANAGE),
        ("POST", f"/t/{w.t4}/pairing/publish", MANAGE),
        ("POST", f"/t/{w.t4}/byes", MANAGE | {"player"}),
        ("GET", f"/t/{w.t5}", EVERYONE),
        ("GET", f"/t/{w.t5}/bracket", EVERYONE),
        ("POST", f"/t/{w.t5}/knockout/next", MANAGE),
        ("GET", f"/t/{w.t6}", EVERYONE),
        ("POST", f"/t/{w.t6}/knockout-stage", MANAGE),
        ("GET", "/series", EVERYONE),
        ("GET", f"/series/{w.s1}", EVERYONE),
        ("GET", f"/series/{w.s1}.ics", EVERYONE),
        ("GET", f"/series/{w.s1}/editions/1", EVERYONE),
        ("GET", "/series/new", ORGANISERS),
        ("POST", "/series/new", ORGANISERS),
        ("POST", f"/series/{w.s1}/editions/1/register", SIGNED_IN),
        ("POST", f"/series/{w.s1}/editions/1/withdraw", SIGNED_IN),
    ]


def _refused(status: int, location: str = "") -> bool:
    return status in (401, 403) or (status == 303 and location.startswith("/signin"))


@pytest.mark.parametrize("role", ROLES)
def test_api_matrix(world: World, role: str) -> None:
    client = TestClient(world.app)
    for method, path, body, allowed in api_routes(world):
        answer = client.request(method, path, json=body, headers=world.headers(role))
        refused = _refused(answer.status_code)
        assert answer.status_code < 500, (method, path, role, answer.text)
        assert refused == (role not in allowed), (method, path, role, answer.status_code)


@pytest.mark.parametrize("role", ROLES)
def test_page_matrix(world: World, role: str) -> None:
    client = world.client(role)
    token = _csrf(client.get("/").text)
    for method, path, allowed in page_routes(world):
        data = {
            "csrf_token": token,
            "username": "helper",
            "role": "helper",
            "decision": "approve",
            "round": "3",
            "kind": "H",
        }
        if path.startswith("/admin/users"):
            data = {"csrf_token": token, "is_master": "on"}
        if method == "GET":
            answer = client.get(path, follow_redirects=False)
        else:
            answer = client.post(path, data=data, follow_redirects=False)
        location = answer.headers.get("location", "")
        assert answer.status_code < 500, (method, path, role, answer.text)
        refused = _refused(answer.status_code, location)
        assert refused == (role not in allowed), (method, path, role, answer.status_code)


def test_page_forms_need_the_csrf_token(world: World) -> None:
    client = world.client("organiser")
    for path in (
        f"/t/{world.t1}/manage/undo",
        f"/t/{world.t1}/manage/staff",
        f"/t/{world.t1}/manage/players/2/edit",
        f"/t/{world.t6}/knockout-stage",
        f"/series/{world.s1}/editions/1/register",
        "/series/new",
        "/signout",
    ):
        assert client.post(path, data={}).status_code == 403, path
        assert client.post(path, data={"csrf_token": "forged"}).status_code == 403, path


def test_master_needs_approval_before_registration_and_start(world: World) -> None:
    t2 = world.t2
    world.accounts.set_access(t2, approval="pending")
    master = world.headers("master")
    client = TestClient(world.app)
    pending = client.post(f"/api/v1/tournaments/{t2}/start", headers=master)
    assert pending.status_code == 422 and "approval" in pending.json()["detail"]
    page = world.client("master")
    token = _csrf(page.get("/").text)
    opened = page.post(
        f"/t/{t2}/manage/access", data={"csrf_token": token, "self_registration": "on"}
    )
    assert "approval" in opened.text
    assert world.accounts.access(t2).self_registration is False
    admin = world.client("admin")
    admin_token = _csrf(admin.get("/").text)
    approved = admin.post(
        f"/t/{t2}/approve",
        data={"csrf_token": admin_token, "decision": "approve"},
        follow_redirects=False,
    )
    assert approved.status_code == 303
    started = client.post(f"/api/v1/tournaments/{t2}/start", headers=master)
    assert started.status_code == 200, started.text


def test_eligibility_refuses_with_a_clear_message(world: World) -> None:
    t3 = world.service.create_tournament(Regulations(name="Rated only")).tournament_id
    world.accounts.claim(t3, world.users["organiser"])
    world.accounts.set_access(
        t3,
        approval="approved",
        self_registration=True,
        eligibility={"min_rated_games": 20, "refuse_flagged": True},
    )
    flagged = world.accounts.create_user("cheater", "password-cheater")
    world.accounts.set_user(flagged.id, flagged=True, rated_games=50)
    token = world.accounts.create_token(flagged.id)
    client = TestClient(world.app)
    refused = client.post(
        f"/api/v1/tournaments/{t3}/registration", headers={"Authorization": f"Bearer {token}"}
    )
    assert refused.status_code == 422
    assert "flagged for computer help" in refused.json()["detail"]  # always on (R-SE-8)
    newcomer = world.accounts.create_user("newcomer", "password-newcomer")
    token = world.accounts.create_token(newcomer.id)
    refused = client.post(
        f"/api/v1/tournaments/{t3}/registration", headers={"Authorization": f"Bearer {token}"}
    )
    assert "at least 20 games played are required" in refused.json()["detail"]
    world.accounts.set_user(newcomer.id, rated_games=25)
    accepted = client.post(
        f"/api/v1/tournaments/{t3}/registration", headers={"Authorization": f"Bearer {token}"}
    )
    assert accepted.status_code == 201, accepted.text
    assert world.accounts.role(world.accounts.user(newcomer.id), t3) == "player"
    gone = client.delete(
        f"/api/v1/tournaments/{t3}/registration", headers={"Authorization": f"Bearer {token}"}
    )
    assert gone.status_code == 200 and world.accounts.entry_of(t3, newcomer.id) is None
