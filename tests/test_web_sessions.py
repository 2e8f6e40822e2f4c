"""Server-side sessions (issue 13 item 7): signing out, a password change and "sign out
everywhere" (the account page, the administrator's page and the API) end sessions on the
server, so a copied cookie replayed afterwards is a signed-out visitor. On SQLite and
PostgreSQL."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import base64
import datetime as dt
import json
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from test_service_support import db_url, migrated_url  # noqa: F401

from crosstable.service import FixedClock, Service
from crosstable.service.accounts import Accounts
from crosstable.service.sessions import SEEN_EVERY, SESSION_IDLE, Sessions
from crosstable.store import open_store
from crosstable.store.accounts_models import SessionRow
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.web_support import csrf_of

COOKIE = "crosstable_session"
PASSWORD = "correct horse battery"


@dataclass
class Site:
    service: Service
    accounts: Accounts
    app: object

    def client(self) -> TestClient:
        return TestClient(self.app)  # type: ignore[arg-type]


@pytest.fixture
def site(migrated_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    monkeypatch.setenv("CROSSTABLE_SECRET", "sessions-test-secret")
    service = Service(open_store(migrated_url))
    try:
        yield Site(service, Accounts(service.store), create_app(service=service))
    finally:
        service.store.close()


def sign_in(client: TestClient, username: str, password: str = PASSWORD) -> None:
    token = csrf_of(client.get("/signin").text)
    answer = client.post(
        "/signin",
        data={"username": username, "password": password, "csrf_token": token},
        follow_redirects=False,
    )
    assert answer.status_code == 303 and answer.headers["location"] == "/", answer.text


def who(client: TestClient) -> str | None:
    user = client.get("/api/v1/me").json()["user"]
    return None if user is None else str(user["username"])


def replay(site: Site, cookie: str) -> TestClient:
    """A fresh browser that sends only ``cookie`` (as an attacker with a copy would)."""
    client = site.client()
    client.cookies.set(COOKIE, cookie)
    return client


def test_sign_out_then_replaying_the_old_cookie_is_signed_out(site: Site) -> None:
    site.accounts.create_user("ann", PASSWORD)
    browser = site.client()
    sign_in(browser, "ann")
    old_csrf = csrf_of(browser.get("/account").text)
    copied = browser.cookies[COOKIE]  # the session id and the CSRF token
    assert who(replay(site, copied)) == "ann"  # the copy works while the session does
    signed_out = browser.post("/signout", data={"csrf_token": old_csrf}, follow_redirects=False)
    assert signed_out.status_code == 303
    attacker = replay(site, copied)
    assert who(attacker) is None
    page = attacker.get("/account", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"].startswith("/signin")
    # a change with the old cookie and its (once valid) CSRF token: not as ann
    attacker = replay(site, copied)
    made = attacker.post(
        "/account/tokens", data={"csrf_token": old_csrf, "label": "stolen"}, follow_redirects=False
    )
    assert made.status_code == 303 and made.headers["location"].startswith("/signin")
    ann = site.accounts.find_user("ann")
    assert ann is not None and site.accounts.tokens(ann.id) == []
    # the row says when it was revoked; the cookie itself never held the user's id
    with site.service.store.reading() as session:
        rows = session.query(SessionRow).all()
    assert len(rows) == 1 and rows[0].revoked_at is not None
    assert str(ann.id) not in _cookie_payload(copied).values()


def _cookie_payload(cookie: str) -> dict[str, str]:
    data = cookie.split(".")[0]
    decoded = json.loads(base64.b64decode(data + "=" * (-len(data) % 4)))
    assert "user" not in decoded and set(decoded) >= {"sid"}
    return {k: str(v) for k, v in decoded.items()}


def test_a_cookie_without_a_server_session_is_signed_out(site: Site) -> None:
    """A cookie signed with the site's secret that names a user (the old form) or an
    unknown session id grants nothing."""
    from itsdangerous import TimestampSigner

    user = site.accounts.create_user("ann", PASSWORD)
    signer = TimestampSigner("sessions-test-secret")
    for payload in ({"user": user.id}, {"sid": "not-a-session", "user": user.id}):
        data = base64.b64encode(json.dumps(payload).encode())
        forged = signer.sign(data).decode()
        assert who(replay(site, forged)) is None, payload


def test_a_password_change_signs_out_every_other_session(site: Site) -> None:
    site.accounts.create_user("ann", PASSWORD)
    here, there = site.client(), site.client()
    sign_in(here, "ann")
    sign_in(there, "ann")
    before = here.cookies[COOKIE]
    token = csrf_of(here.get("/account").text)
    wrong = here.post(
        "/account/password",
        data={
            "csrf_token": token,
            "current_password": "not the password",
            "new_password": "a new password",
            "repeat_password": "a new password",
        },
        headers={"Accept": "application/json"},
    )
    assert wrong.status_code == 422 and "current password" in wrong.json()["detail"]
    assert who(there) == "ann"  # a refused change ends nothing
    changed = here.post(
        "/account/password",
        data={
            "csrf_token": token,
            "current_password": PASSWORD,
            "new_password": "a new password",
            "repeat_password": "a new password",
        },
        follow_redirects=False,
    )
    assert changed.status_code == 303 and changed.headers["location"] == "/account"
    assert who(here) == "ann"  # this browser stays signed in, on a new session
    assert here.cookies[COOKIE] != before
    assert who(there) is None
    assert who(replay(site, before)) is None
    assert site.accounts.authenticate("ann", PASSWORD) is None
    assert site.accounts.authenticate("ann", "a new password") is not None


def test_the_password_form_checks_the_repetition_and_the_length(site: Site) -> None:
    site.accounts.create_user("ann", PASSWORD)
    client = site.client()
    sign_in(client, "ann")
    token = csrf_of(client.get("/account").text)
    for new, again, words in (
        ("a new password", "another one", "repetition"),
        ("short", "short", "8"),
    ):
        answer = client.post(
            "/account/password",
            data={
                "csrf_token": token,
                "current_password": PASSWORD,
                "new_password": new,
                "repeat_password": again,
            },
            headers={"Accept": "application/json"},
        )
        assert answer.status_code == 422 and words in answer.json()["detail"]
    assert site.accounts.authenticate("ann", PASSWORD) is not None


def test_sign_out_everywhere_from_the_account_page(site: Site) -> None:
    site.accounts.create_user("ann", PASSWORD)
    here, there = site.client(), site.client()
    sign_in(here, "ann")
    sign_in(there, "ann")
    token = csrf_of(here.get("/account").text)
    assert "/account/signout-everywhere" in here.get("/account").text
    done = here.post(
        "/account/signout-everywhere", data={"csrf_token": token}, follow_redirects=False
    )
    assert done.status_code == 303
    assert who(here) is None and who(there) is None


def test_an_administrator_signs_a_user_out_everywhere(site: Site) -> None:
    admin = site.accounts.create_user("boss", PASSWORD, is_admin=True)
    ann = site.accounts.create_user("ann", PASSWORD)
    browsers = [site.client() for _ in range(3)]
    for browser in browsers:
        sign_in(browser, "ann")
    office = site.client()
    sign_in(office, "boss")
    page = office.get("/admin").text
    assert f"/admin/users/{ann.id}/signout" in page
    done = office.post(
        f"/admin/users/{ann.id}/signout", data={"csrf_token": csrf_of(page)}, follow_redirects=False
    )
    assert done.status_code == 303 and done.headers["location"] == "/admin"
    assert "@ann" in office.get("/admin").text  # the flash names whom
    assert [who(b) for b in browsers] == [None, None, None]
    assert who(office) == "boss"
    # the API twin, with an administrator's token
    again = site.client()
    sign_in(again, "ann")
    token = site.accounts.create_token(admin.id)
    api = site.client()
    answer = api.post(
        f"/api/v1/users/{ann.id}/signout", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"user": ann.id, "sessions_ended": 1}
    assert who(again) is None
    unknown = api.post("/api/v1/users/999/signout", headers={"Authorization": f"Bearer {token}"})
    assert unknown.status_code == 404


def test_only_administrators_sign_others_out(site: Site) -> None:
    ann = site.accounts.create_user("ann", PASSWORD)
    site.accounts.create_user("eve", PASSWORD, is_master=True)
    victim = site.client()
    sign_in(victim, "ann")
    eve = site.client()
    sign_in(eve, "eve")
    token = csrf_of(eve.get("/account").text)
    page = eve.post(f"/admin/users/{ann.id}/signout", data={"csrf_token": token})
    assert page.status_code == 403
    eve_token = site.accounts.create_token(site.accounts.find_user("eve").id)  # type: ignore[union-attr]
    api = site.client()
    by_token = api.post(
        f"/api/v1/users/{ann.id}/signout", headers={"Authorization": f"Bearer {eve_token}"}
    )
    assert by_token.status_code == 403
    assert api.post(f"/api/v1/users/{ann.id}/signout").status_code == 401
    # with eve's session cookie but no CSRF header: refused before anything happens
    assert eve.post(f"/api/v1/users/{ann.id}/signout").status_code == 403
    assert who(victim) == "ann"


def test_sessions_end_when_idle_and_last_seen_is_kept(db_url: str) -> None:
    store = open_store(db_url)
    try:
        clock = FixedClock(dt.datetime(2026, 5, 1, 18, 0, tzinfo=dt.UTC))
        ann = Accounts(store, clock=clock).create_user("ann", PASSWORD)
        sessions = Sessions(store, clock=clock)
        kept, dropped = sessions.open(ann.id), sessions.open(ann.id)
        assert sessions.active(ann.id) == 2
        for _ in range(3):  # used every ten days: never idle for fourteen
            clock.advance(dt.timedelta(days=10))
            assert sessions.user(kept) is not None
        assert sessions.user(dropped) is None  # last seen 30 days ago
        clock.advance(SESSION_IDLE + SEEN_EVERY)
        assert sessions.user(kept) is None
        # opening a session deletes the idle ones: the table does not grow without end
        sessions.open(ann.id)
        with store.reading() as session:
            assert session.query(SessionRow).count() == 1
        assert sessions.user("") is None and sessions.user("x" * 5000) is None
    finally:
        store.close()
