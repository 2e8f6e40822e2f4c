"""Importing a TRF on the web: the page /import and POST /api/v1/tournaments/import re-check
every round; a round off its system's rules asks for a level-3 confirmation (the page, or
409 with ``{"warning": …}``), nothing stored before; a contradictory file is refused with
its line (FIDE checklist Q47–56)."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from test_service_support import migrated

from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.test_trf_import_recheck import SWISS, swapped
from tests.web_support import csrf_of

OFF_RULES = swapped(SWISS, 1, 3, 5)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("import") / "web.db"
    service = Service(open_store(migrated(f"sqlite:///{path}")))
    accounts = Accounts(service.store)
    admin = accounts.create_user("admin", "password-admin", is_admin=True)
    accounts.create_user("visitor", "password-visitor")
    token = accounts.create_token(admin.id, "script")
    with TestClient(create_app(service=service)) as client:
        csrf = csrf_of(client.get("/signin").text)
        client.post(
            "/signin", data={"username": "admin", "password": "password-admin", "csrf_token": csrf}
        )
        yield client, service, {"Authorization": f"Bearer {token}"}


def test_r_or_5_the_api_imports_asks_for_a_round_off_the_rules_and_refuses_a_bad_file(
    site: Any,
) -> None:
    client, service, auth = site
    before = len(service.tournaments())
    asked = client.post("/api/v1/tournaments/import", json={"trf": OFF_RULES}, headers=auth)
    assert asked.status_code == 409, asked.text
    warning = asked.json()["warning"]
    assert warning["level"] == 3 and warning["codes"] == ["import-round"]
    assert "imported round 5 does not follow the FIDE Dutch system" in warning["warnings"][0]
    assert len(service.tournaments()) == before
    body = {"trf": OFF_RULES, "confirm": warning["confirm"]}
    made = client.post("/api/v1/tournaments/import", json=body, headers=auth)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    assert "### Import @ Round 5:" in service.export_trf(tid)
    clean = client.post("/api/v1/tournaments/import", json={"trf": SWISS}, headers=auth)
    assert clean.status_code == 201 and clean.json()["notes"] == [
        "the file declares no tie-break order (202 or 212): its places are not re-checked"
    ]
    broken = SWISS.replace("    4.0    2     4 b 1", "    4.0    2     4 b 0", 1)
    refused = client.post("/api/v1/tournaments/import", json={"trf": broken}, headers=auth)
    assert refused.status_code == 422
    assert "upload:2:99: round 1: results contradict each other" in refused.text
    big = {"trf": SWISS + "###" + "x" * 3_000_000 + "\n"}  # over 64 KiB: read, no 413
    too_long = client.post("/api/v1/tournaments/import", json=big, headers=auth)
    assert too_long.status_code == 422 and "a TRF line has at most" in too_long.text
    # a signed-in session without the CSRF header is refused, as every unsafe API call
    assert client.post("/api/v1/tournaments/import", json={"trf": SWISS}).status_code == 403


def test_r_or_5_the_import_page_asks_to_confirm_then_opens_the_tournament(site: Any) -> None:
    client, service, _ = site
    page = client.get("/import")
    assert page.status_code == 200 and 'name="file"' in page.text
    csrf = csrf_of(page.text)
    files = {"file": ("swapped.trf", OFF_RULES.encode(), "text/plain")}
    asked = client.post("/import", data={"csrf_token": csrf}, files=files)
    assert asked.status_code == 409
    assert "Confirmation needed (level 3)" in asked.text
    assert "imported round 5 does not follow the FIDE Dutch system" in asked.text
    token = re.search(r'name="confirm" value="([0-9a-f]+)"', asked.text)
    carried = re.search(r'name="trf" value="([^"]*)"', asked.text)
    assert token is not None and carried is not None
    before = len(service.tournaments())
    assert html.unescape(carried.group(1)) == OFF_RULES  # the file travels with the form
    data = {"csrf_token": csrf, "trf": html.unescape(carried.group(1)), "confirm": token.group(1)}
    done = client.post("/import", data=data, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"].endswith("/manage")
    assert len(service.tournaments()) == before + 1
    refused = client.post("/import", data={"csrf_token": csrf, "trf": "012 nothing\n"})
    assert refused.status_code == 422 and "no player lines" in refused.text


def test_the_import_page_is_for_organisers_only(tmp_path: Path) -> None:
    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'v.db'}")))
    Accounts(service.store).create_user("visitor", "password-visitor")
    with TestClient(create_app(service=service)) as client:
        assert client.get("/import", follow_redirects=False).status_code in (303, 401)
        csrf = csrf_of(client.get("/signin").text)
        form = {"username": "visitor", "password": "password-visitor", "csrf_token": csrf}
        client.post("/signin", data=form)
        assert client.get("/import").status_code == 403
