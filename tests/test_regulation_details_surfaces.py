"""The ties (R-RR-10) and forfeits-in-tie-breaks (R-RR-14) settings from the JSON API's
creation and the manage page's regulations form, and the service's ``detail_changes``
that sets some details and keeps the others (the venue, a battle seed) — on SQLite and
PostgreSQL."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_service_support import db_url, service, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.service import Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.web.app import create_app
from tests.asgi_client import TestClient


def _csrf(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


@pytest.fixture()
def site(service: Service) -> Any:  # noqa: F811
    accounts = Accounts(service.store)
    user = accounts.create_user("admin", "password-admin", is_admin=True)
    token = accounts.create_token(user.id, "script")
    with TestClient(create_app(service=service)) as client:
        yield client, service, {"Authorization": f"Bearer {token}"}


def test_the_api_creates_with_ties_by_lots_and_forfeits_unplayed(site: Any) -> None:
    client, svc, auth = site
    body = {"name": "Club", "players": [{"name": n} for n in ("Anna", "Boris", "Clara")]}
    made = client.post(
        "/api/v1/tournaments",
        json=body | {"ties": "lots", "forfeits_in_tiebreaks": False},
        headers=auth,
    )
    assert made.status_code == 201, made.text
    regulations = svc.overview(made.json()["id"]).settings["regulations"]
    assert regulations["ties"] == "lots" and regulations["forfeits_in_tiebreaks"] == "no"
    plain = client.post("/api/v1/tournaments", json=body, headers=auth)
    regulations = svc.overview(plain.json()["id"]).settings["regulations"]
    assert "ties" not in regulations and "forfeits_in_tiebreaks" not in regulations
    refused = client.post("/api/v1/tournaments", json=body | {"ties": "coin"}, headers=auth)
    assert refused.status_code == 422 and "ties" in refused.text


def test_detail_changes_keep_the_other_details(service: Service) -> None:  # noqa: F811
    tid = service.create_tournament(
        Regulations(name="Club", details={"venue": "Yerevan", "arbiter": "Ashot"})
    ).tournament_id
    service.edit_regulations(tid, detail_changes={"ties": "lots"})
    assert service.overview(tid).settings["regulations"] == {
        "venue": "Yerevan",
        "arbiter": "Ashot",
        "ties": "lots",
    }
    with pytest.raises(RuleError, match="shared or lots"):
        service.edit_regulations(tid, detail_changes={"ties": "coin"})
    assert service.overview(tid).settings["regulations"]["ties"] == "lots"
    service.undo(tid)
    assert "ties" not in service.overview(tid).settings["regulations"]


def test_the_manage_form_sets_ties_and_forfeits_and_keeps_the_venue(site: Any) -> None:
    client, svc, _auth = site
    tid = svc.create_tournament(
        Regulations(name="Club", details={"venue": "Yerevan"})
    ).tournament_id
    signin = _csrf(client.get("/signin").text)
    client.post(
        "/signin",
        data={"username": "admin", "password": "password-admin", "csrf_token": signin},
    )
    page = client.get(f"/t/{tid}/manage").text
    assert 'name="detail_ties"' in page and 'name="detail_forfeits_in_tiebreaks"' in page
    form = {
        "csrf_token": _csrf(page),
        "time_control": "",
        "tiebreaks": "",
        "detail_ties": "lots",
        "detail_forfeits_in_tiebreaks": "no",
    }
    saved = client.post(f"/t/{tid}/manage/regulations", data=form, follow_redirects=False)
    assert saved.status_code in (200, 303), saved.text
    regulations = svc.overview(tid).settings["regulations"]
    assert regulations == {"venue": "Yerevan", "ties": "lots", "forfeits_in_tiebreaks": "no"}
    page = client.get(f"/t/{tid}/manage").text
    assert '<option value="lots" selected>' in page and '<option value="no" selected>' in page
    # the same settings sent again change nothing: nothing is recorded
    events = len(svc.history(tid))
    again = {
        "csrf_token": _csrf(page),
        "detail_ties": "lots",
        "detail_forfeits_in_tiebreaks": "no",
    }
    client.post(f"/t/{tid}/manage/regulations", data=again, follow_redirects=False)
    assert svc.overview(tid).settings["regulations"] == regulations
    assert len(svc.history(tid)) == events


def test_detail_changes_go_through_the_battle_chess_checks(service: Service) -> None:  # noqa: F811
    tid = service.create_tournament(
        Regulations(name="Battle", details={"variant": "battle", "setup_minutes": "5"})
    ).tournament_id
    seed = service.overview(tid).settings["regulations"]["battle_seed"]
    with pytest.raises(RuleError, match="set-up time is 1 to"):
        service.edit_regulations(tid, detail_changes={"setup_minutes": "999"})
    service.edit_regulations(tid, detail_changes={"ties": "lots"})
    regulations = service.overview(tid).settings["regulations"]
    assert regulations["ties"] == "lots" and regulations["setup_minutes"] == "5"
    assert regulations["battle_seed"] == seed
