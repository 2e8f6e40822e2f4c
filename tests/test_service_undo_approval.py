"""A change of approved regulations withdraws the administrator's approval (issue 13 item 3).

A master's tournament starts only with an administrator's approval. Once given,
any change of the regulations (tie-breaks, time control, anything they say)
withdraws it until it is given again, recorded in the history; undoing the change
does not give it back, and start refuses as it does for a pending approval.
"""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_service_support import db_url, migrated, service, store  # noqa: F401

from crosstable.core.model import LotsMethod, System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts, UserInfo


def master_tournament(
    service: Service, system: System = System.ROUND_ROBIN
) -> tuple[Accounts, dict[str, UserInfo], int]:
    accounts = Accounts(service.store, clock=service.clock)
    users = {
        "admin": accounts.create_user("admin", "password-admin", is_admin=True),
        "master": accounts.create_user("master", "password-master", is_master=True),
    }
    rounds = 3 if system is System.SWISS_DUTCH else None
    regulations = Regulations(name="Open", system=system, rounds=rounds, tiebreaks=("SB",))
    tid = service.create_tournament(regulations, actor="master").tournament_id
    accounts.claim(tid, users["master"])
    for index in range(4):
        service.add_player(tid, PlayerInfo(f"Player {index + 1}", rating=2000 - index))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    accounts.set_access(tid, approval="approved", actor="admin")
    return accounts, users, tid


@pytest.mark.parametrize(
    "change",
    [
        {"tiebreaks": ("DE", "SB")},
        {"time_control": "90+30"},
        {"details": {"venue": "Club house"}},
        {"name": "Open 2026"},
    ],
)
def test_any_change_of_approved_regulations_withdraws_the_approval(
    service: Service, change: dict[str, object]
) -> None:
    accounts, _, tid = master_tournament(service)
    edited = service.edit_regulations(tid, actor="master", **change)
    assert accounts.access(tid).approval == "pending"
    assert tid in accounts.pending()
    assert edited.summary.endswith(
        "; the administrator's approval is withdrawn until it is given again"
    )
    assert edited.data["approval"] == {"before": "approved", "after": "pending"}
    assert service.history(tid)[-1].seq == edited.seq  # the same change, one event
    # undoing the change does not approve anything
    service.undo(tid)
    assert accounts.access(tid).approval == "pending"
    accounts.set_access(tid, approval="approved", actor="admin")
    assert accounts.access(tid).approval == "approved"
    assert service.verify(tid) == []


def test_an_administrators_own_tournament_keeps_its_approval(service: Service) -> None:
    accounts, users, _ = master_tournament(service)
    tid = service.create_tournament(Regulations(name="Admin's")).tournament_id
    accounts.claim(tid, users["admin"])
    change = service.edit_regulations(tid, time_control="G/25")
    assert "approval" not in change.data
    assert accounts.access(tid).approval == "approved"


def test_a_revert_to_other_regulations_withdraws_it(service: Service) -> None:
    accounts, _, tid = master_tournament(service)
    before = service.history(tid)[-1].seq
    accounts.set_access(tid, approval="pending", actor="admin")
    service.edit_regulations(tid, time_control="G/60")  # (nothing approved to withdraw)
    accounts.set_access(tid, approval="approved", actor="admin")
    assert accounts.access(tid).approval == "approved"
    change = service.revert_to(tid, before)  # back to the time control before: not approved
    assert change.data["approval"] == {"before": "approved", "after": "pending"}
    assert accounts.access(tid).approval == "pending"


def test_undoing_a_swiss_start_keeps_the_approval(service: Service) -> None:
    """The start of a Swiss writes its rounds and colours into the regulations; undoing
    it gives back the regulations that were approved."""
    accounts, _, tid = master_tournament(service, System.SWISS_DUTCH)
    service.start(tid)
    service.undo(tid)
    assert accounts.access(tid).approval == "approved"


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert match
    return match.group(1)


def test_through_the_web_and_the_api(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from crosstable.store import open_store
    from crosstable.web.app import create_app
    from tests.asgi_client import TestClient

    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'approval.db'}")))
    try:
        accounts, users, tid = master_tournament(service)
        app = create_app(service=service)
        token = accounts.create_token(users["master"].id)
        api = TestClient(app)
        page = TestClient(app)
        signin = _csrf(page.get("/signin").text)
        page.post(
            "/signin",
            data={"username": "master", "password": "password-master", "csrf_token": signin},
        )
        csrf = _csrf(page.get("/").text)
        saved = page.post(
            f"/t/{tid}/manage/regulations",
            data={"csrf_token": csrf, "time_control": "90+30", "tiebreaks": "DE,SB"},
        )
        assert saved.status_code == 200
        assert accounts.access(tid).approval == "pending"
        history = api.get(f"/api/v1/tournaments/{tid}/history").json()
        assert "approval is withdrawn" in history[-1]["summary"]
        refused = api.post(
            f"/api/v1/tournaments/{tid}/start", headers={"Authorization": f"Bearer {token}"}
        )
        assert refused.status_code == 422
        assert "approval" in refused.json()["detail"]
        accounts.set_access(tid, approval="approved", actor="admin")
        started = api.post(
            f"/api/v1/tournaments/{tid}/start", headers={"Authorization": f"Bearer {token}"}
        )
        assert started.status_code == 200, started.text
    finally:
        service.store.close()
