"""Owner, staff, access and account links in the tournament's history (SQLite and PostgreSQL).

They are informational events: recorded with who and when, never taken back by undo
or revert (docs/web.md, "Staff and access in the history").
"""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_service_support import db_url, migrated, service, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod
from crosstable.service import NotFoundError, PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts, UserInfo


def people(service: Service) -> tuple[Accounts, dict[str, UserInfo]]:
    accounts = Accounts(service.store, clock=service.clock)
    users = {
        "admin": accounts.create_user("admin", "password-admin", is_admin=True),
        "master": accounts.create_user(
            "master", "password-master", display_name="Magnus", is_master=True
        ),
        "bob": accounts.create_user("bob", "password-bob"),
        "clara": accounts.create_user("clara", "password-clara"),
    }
    return accounts, users


def last(service: Service, tid: int):  # type: ignore[no-untyped-def]
    return service.history(tid)[-1]


def test_every_staff_and_access_change_is_in_the_history(service: Service) -> None:
    accounts, users = people(service)
    tid = service.create_tournament(Regulations(name="Open"), actor="master").tournament_id

    accounts.claim(tid, users["master"])
    claim = last(service, tid)
    assert (claim.seq, claim.kind, claim.actor) == (2, "claim", "master")
    assert claim.summary == (
        "master (Magnus) organises the tournament; "
        "regulations waiting for an administrator's approval"
    )

    accounts.set_access(tid, approval="approved", actor="admin")
    approval = last(service, tid)
    assert (approval.kind, approval.actor) == ("approval", "admin")
    assert approval.summary == "regulations approved by an administrator"

    accounts.set_access(
        tid,
        self_registration=True,
        closes_at="2026-05-03T10:00",
        eligibility={"min_rated_games": 20},
        actor="master",
    )
    access = last(service, tid)
    assert access.kind == "access"
    assert access.summary == (
        "access: self-registration opened, registration closes 2026-05-03T10:00, "
        "eligibility: at least 20 rated games"
    )

    accounts.set_staff(tid, users["bob"].id, "helper", actor="master")
    assert last(service, tid).summary == "staff: bob is now a helper"
    accounts.set_master(users["bob"].id, True, actor="admin")  # organisers: R-OR-1
    accounts.set_staff(tid, users["bob"].id, "organiser", actor="master")
    assert last(service, tid).summary == "staff: bob is now an organiser (was a helper)"
    accounts.set_staff(tid, users["bob"].id, None, actor="master")
    assert last(service, tid).summary == "staff: bob is no longer an organiser"

    number = int(service.add_player(tid, PlayerInfo("Clara Schumann")).data["number"])
    accounts.link_entry(tid, number, users["clara"].id, actor="clara")
    link = last(service, tid)
    assert (link.kind, link.actor) == ("account-link", "clara")
    assert link.summary == "player 1 Clara Schumann linked to the account clara"
    accounts.unlink_entry(tid, number, actor="master")
    assert last(service, tid).summary == (
        "player 1 Clara Schumann no longer linked to the account clara"
    )

    history = service.history(tid)
    assert [h.seq for h in history] == list(range(1, len(history) + 1))
    assert service.overview(tid).revision == history[-1].seq
    assert not any(h.undone for h in history)
    assert service.verify(tid) == []
    # the event keeps the values before and after
    exported = service.export_json(tid)["history"]
    staff_events = [e for e in exported if e["kind"] == "staff"]
    assert staff_events[1]["data"]["role"] == {"before": "helper", "after": "organiser"}
    assert all(e["changes"] == [] for e in staff_events)


def test_a_change_that_changes_nothing_records_nothing(service: Service) -> None:
    accounts, users = people(service)
    tid = service.create_tournament(Regulations(name="Open")).tournament_id
    accounts.claim(tid, users["admin"])
    accounts.set_staff(tid, users["bob"].id, "helper")
    revision = service.overview(tid).revision
    accounts.set_staff(tid, users["bob"].id, "helper")
    accounts.set_staff(tid, users["clara"].id, None)
    accounts.set_access(tid, approval="approved", self_registration=False)
    accounts.unlink_entry(tid, 7)
    assert service.overview(tid).revision == revision


def test_undo_and_revert_pass_over_permissions(service: Service) -> None:
    accounts, users = people(service)
    tid = service.create_tournament(Regulations(name="Open")).tournament_id
    accounts.claim(tid, users["master"])
    service.add_player(tid, PlayerInfo("Anna"))
    accounts.set_staff(tid, users["bob"].id, "helper")
    accounts.set_access(tid, approval="approved")

    undone = service.undo(tid)  # the last change of the tournament itself: the player
    assert "player 1 Anna" in undone.summary
    assert service.overview(tid).players == ()
    assert accounts.staff(tid) == {users["master"].id: "organiser", users["bob"].id: "helper"}
    assert accounts.access(tid).approval == "approved"
    marks = {h.kind: h.undone for h in service.history(tid)}
    assert marks["player-add"] is True
    assert marks["staff"] is marks["approval"] is marks["claim"] is False
    with pytest.raises(RuleError, match="nothing to undo"):
        service.undo(tid)  # the claim is not undone: the owner stays

    # an administrator rejects after all; the organiser's revert to a point before it
    # brings the players back but not the approval
    service.add_player(tid, PlayerInfo("Boris"))
    accounts.set_access(tid, approval="rejected", actor="admin")
    service.add_player(tid, PlayerInfo("Clara"))
    reverted = service.revert_to(tid, 2)
    assert "taken back" in reverted.summary
    assert service.overview(tid).players == ()
    assert accounts.access(tid).approval == "rejected"
    assert accounts.access(tid).owner_id == users["master"].id
    assert service.verify(tid) == []


def test_results_after_a_permission_change_keep_the_standings_right(service: Service) -> None:
    accounts, users = people(service)
    tid = service.create_tournament(Regulations(name="Club")).tournament_id
    accounts.claim(tid, users["admin"])
    for name in ("Anna", "Boris", "Clara", "Dmitri"):
        service.add_player(tid, PlayerInfo(name))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    service.record_result(tid, 1, 1, "1-0")
    accounts.set_staff(tid, users["bob"].id, "helper", actor="admin")
    change = service.record_result(tid, 1, 2, "½-½", actor="bob")
    assert change.seq == service.overview(tid).revision
    table = service.live_standings(tid)
    assert table is not None
    points = {row["start"]: row["points"] for row in table["rows"]}
    assert sum(points.values()) == 2
    from crosstable.service.live import live_standings

    assert {k: v for k, v in table.items() if k != "revision"} == live_standings(
        service.tournament(tid)
    )


def test_the_history_survives_export_and_import(service: Service) -> None:
    accounts, users = people(service)
    tid = service.create_tournament(Regulations(name="Open")).tournament_id
    accounts.claim(tid, users["admin"])
    service.add_player(tid, PlayerInfo("Anna"))
    accounts.set_staff(tid, users["bob"].id, "helper")
    copy = service.import_json(service.export_json(tid))
    assert [(h.kind, h.summary) for h in service.history(copy)] == [
        (h.kind, h.summary) for h in service.history(tid)
    ]
    assert service.verify(copy) == []
    assert "player 1 Anna" in service.undo(copy).summary


def test_an_unknown_tournament_or_user_is_refused(service: Service) -> None:
    accounts, users = people(service)
    with pytest.raises(NotFoundError, match="no tournament 99"):
        accounts.claim(99, users["admin"])
    with pytest.raises(NotFoundError, match="no tournament 99"):
        accounts.set_staff(99, users["bob"].id, "helper")
    tid = service.create_tournament(Regulations(name="Open")).tournament_id
    with pytest.raises(NotFoundError, match="no user 999"):
        accounts.set_staff(tid, 999, "helper")
    with pytest.raises(NotFoundError, match="no user 999"):
        accounts.link_entry(tid, 1, 999)
    assert service.overview(tid).revision == 1


def test_the_history_page_shows_who_changed_the_staff(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from crosstable.service.accounts import Accounts
    from crosstable.store import open_store
    from crosstable.web.app import create_app
    from tests.asgi_client import TestClient

    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'web.db'}")))
    accounts = Accounts(service.store)
    accounts.create_user("arbiter", "password-arbiter", is_admin=True)
    accounts.create_user("bob", "password-bob")
    with TestClient(create_app(service=service)) as client:

        def csrf(html: str) -> str:
            match = re.search(r'name="csrf-token" content="([^"]+)"', html)
            assert match
            return match.group(1)

        token = csrf(client.get("/signin").text)
        client.post(
            "/signin",
            data={"username": "arbiter", "password": "password-arbiter", "csrf_token": token},
        )
        api_token = accounts.create_token(accounts.find_user("arbiter").id)  # type: ignore[union-attr]
        created = client.post(
            "/api/v1/tournaments",
            json={"name": "Club", "players": [{"name": "Anna"}, {"name": "Boris"}]},
            headers={"Authorization": f"Bearer {api_token}"},
        )
        assert created.status_code == 201, created.text
        tid = created.json()["id"]
        token = csrf(client.get(f"/t/{tid}/manage").text)
        answer = client.post(
            f"/t/{tid}/manage/staff",
            data={"csrf_token": token, "username": "bob", "role": "helper"},
            follow_redirects=False,
        )
        assert answer.status_code == 303
        page = client.get(f"/t/{tid}/history").text
    assert "staff: bob is now a helper" in page
    assert "arbiter organises the tournament" in page
    assert page.count('<span class="actor">arbiter</span>') >= 2
