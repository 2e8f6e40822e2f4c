"""The wizard's live preview (``POST /new/preview``) needs the role that creating a
tournament needs (issue 25 item 11): an administrator or a master. A visitor who is
not signed in is sent to sign in (401 for a JSON client), a signed-in player without
the right is refused with 403, and neither gets the preview's work done."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from test_service_support import make_service, migrated
from web_support import csrf_of, signed_in

from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

FORM = {"format": "round-robin", "count": "8", "name": "Club"}
REFUSAL = "only administrators and masters"


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setenv("CROSSTABLE_SECRET", "wizard-preview-role")
    service = make_service(open_store(migrated(f"sqlite:///{tmp_path}/wizard.db")))
    accounts = Accounts(service.store, clock=service.clock)
    accounts.create_user("admin", "password-admin", is_admin=True)
    accounts.create_user("player", "password-player")
    try:
        yield create_app(service=service)
    finally:
        service.store.close()


def _preview(client: TestClient, csrf: str, **headers: str) -> Any:
    return client.post(
        "/new/preview", data=FORM | {"csrf_token": csrf}, headers=headers, follow_redirects=False
    )


def test_a_visitor_not_signed_in_gets_no_preview(app: Any) -> None:
    with TestClient(app) as client:
        csrf = csrf_of(client.get("/").text)  # a visitor's session has a CSRF token too
        answer = _preview(client, csrf, accept="application/json")
        assert answer.status_code == 401, answer.text
        assert answer.json() == {"detail": "sign in first"}
        page = _preview(client, csrf)  # a page's request: to the sign-in page
        assert page.status_code == 303
        assert page.headers["location"] == "/signin?next=/new/preview"
        assert 'id="pv-players"' not in page.text


def test_a_player_who_may_not_organise_is_refused(app: Any) -> None:
    with TestClient(app) as client:
        csrf = signed_in(client, "player")
        assert client.get("/new", follow_redirects=False).status_code == 403
        answer = _preview(client, csrf)
        assert answer.status_code == 403, answer.text[:300]
        assert REFUSAL in answer.text and 'id="pv-players"' not in answer.text
        as_json = _preview(client, csrf, accept="application/json")
        assert as_json.status_code == 403 and REFUSAL in as_json.json()["detail"]
        # htmx (the wizard's own requests) gets the refusal as the page's flash message
        htmx = _preview(client, csrf, **{"hx-request": "true"})
        assert REFUSAL in htmx.text and 'id="pv-players"' not in htmx.text
        assert htmx.headers["hx-retarget"] == "#flash"


def test_an_organiser_gets_the_preview(app: Any) -> None:
    with TestClient(app) as client:
        csrf = signed_in(client, "admin")
        answer = _preview(client, csrf, **{"hx-request": "true"})
        assert answer.status_code == 200
        assert 'id="pv-players">8' in answer.text
