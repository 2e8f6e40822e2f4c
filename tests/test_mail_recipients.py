"""Series mail goes to exactly the one stored, checked address (issue 25 item 7), on
SQLite and PostgreSQL, against a real SMTP server on loopback (aiosmtpd), looking at the
SMTP envelope (``RCPT TO``), not only at the headers:

* a display name (a registration's name) such as ``Eve <eve@evil.example>, `` adds no
  recipient, with or without a stored address: recipients are never read from text
  shown to people;
* an address stored before the check (``a@x,b@y``, ``Eve <eve@evil.example>``) is not
  mailed as several recipients: the notification is kept without mail, and the
  reason is kept on the row and reported;
* the e-mail setting (the JSON API and the settings page) takes one address, checked
  with ``email-validator`` (no DNS), and refuses a list or a display name with a clear
  message in the reader's language; what it stores the sender mails to as it is;
* fuzz: whatever text is offered to the setting, it is refused with a RuleError or
  stored as one address (ASCII: an internationalised domain in its xn-- form) that
  the sender reads back as exactly that one recipient.
"""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import html
import random
import socket
import threading
from collections.abc import Iterator
from email import message_from_bytes
from email.policy import default
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("email_validator")

from aiosmtpd.controller import Controller
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from test_service_support import db_url, make_service, migrated, store  # noqa: F401
from web_support import signed_in

from crosstable.core.errors import RuleError
from crosstable.service import FixedClock, Service
from crosstable.service.accounts import Accounts
from crosstable.service.series import SeriesSettings, inbox
from crosstable.service.series.sender import MailSettings, one_address, send_due, set_address
from crosstable.store import Store, open_store
from crosstable.store.series_models import NotificationPrefsRow, SeriesOutboxRow
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

EVE = "Eve <eve@evil.example>, "


class Envelopes:
    """An SMTP handler that keeps every accepted mail's envelope and message."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], Any]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802
        with self.lock:
            message = message_from_bytes(envelope.content, policy=default)
            self.mails.append((list(envelope.rcpt_tos), message))
        return "250 Message accepted"

    def recipients(self) -> list[str]:
        return sorted(r for rcpt, _message in self.mails for r in rcpt)


@pytest.fixture
def smtp() -> Iterator[tuple[Envelopes, MailSettings]]:
    handler = Envelopes()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, MailSettings(host="127.0.0.1", port=port, sender="series@example.org")
    finally:
        controller.stop()


def season(store: Store, names: list[str]) -> FixedClock:
    """A series with one registration per name (users 1…N): one ``registered`` row each."""
    import datetime as dt

    clock = FixedClock(dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC))
    service = Service(store, clock=clock, random=random.Random(1))
    sid = service.create_series(
        SeriesSettings("Workday blitz", "workdays", "19:00", "Europe/Moscow", time_control="G/5")
    )
    edition = service.open_edition(sid)
    for n, name in enumerate(names, start=1):
        service.register_for_edition(edition, name, rating=1500 + n, user_id=n)
    return clock


def store_raw(store: Store, user_id: int, email: str) -> None:
    """An address as an older version stored it, unchecked."""
    with store.transaction() as session:
        session.add(NotificationPrefsRow(user_id=user_id, email=email, muted=[]))


def outbox_rows(store: Store) -> list[SeriesOutboxRow]:
    with store.reading() as session:
        return list(session.scalars(select(SeriesOutboxRow).order_by(SeriesOutboxRow.id)))


def test_a_display_name_adds_no_recipient(store: Store, smtp) -> None:
    handler, mail = smtp
    clock = season(store, [EVE, f"Pia {EVE}", "Eve eve@evil.example"])
    set_address(store, 2, "pia@example.org")  # users 1 and 3 have no address
    report = send_due(store, clock, mail)
    assert (report.sent, report.skipped, report.failed) == (1, 2, 0)
    assert handler.recipients() == ["pia@example.org"]
    (envelope, message), *_ = handler.mails
    assert envelope == ["pia@example.org"]
    assert message["To"] == "pia@example.org" and "evil" not in str(message)
    assert [r.mail_skipped for r in outbox_rows(store)] == [True, False, True]


@pytest.mark.parametrize(
    "stored",
    [
        "p1@example.org,eve@evil.example",
        "p1@example.org, Eve <eve@evil.example>, ",
        "Eve <eve@evil.example>",
        "p1@example.org;eve@evil.example",
        "p1@example.org\r\nBcc: eve@evil.example",
    ],
)
def test_an_address_stored_before_the_check_is_not_mailed_as_several(
    store: Store, smtp, stored: str
) -> None:
    handler, mail = smtp
    clock = season(store, ["Player 1", "Player 2"])
    store_raw(store, 1, stored)
    set_address(store, 2, "p2@example.org")
    report = send_due(store, clock, mail)
    assert handler.recipients() == ["p2@example.org"]
    assert (report.sent, report.skipped) == (1, 1)
    skipped = outbox_rows(store)[0]
    assert skipped.mail_skipped and skipped.sent_at is not None
    assert skipped.last_error == "the stored e-mail address is not one address: mail skipped"
    assert report.errors == [
        f"notification {skipped.id}: the stored e-mail address is not one address: mail skipped"
    ]


def test_set_address_takes_one_address_only(store: Store) -> None:
    for bad in ("a@x.org,b@y.org", EVE, "no address", "a@"):
        with pytest.raises(RuleError, match="is not an e-mail address"):
            set_address(store, 1, bad)
    set_address(store, 1, " p1@example.org ")
    assert inbox.preferences(store, 1).email == "p1@example.org"


# -- the e-mail setting: the JSON API and the settings page --------------------------------


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, Store]]:
    monkeypatch.setenv("CROSSTABLE_SECRET", "mail-recipients")
    service = make_service(open_store(migrated(f"sqlite:///{tmp_path}/mail.db")))
    accounts = Accounts(service.store, clock=service.clock)
    accounts.create_user("pia", "password-pia")
    try:
        with TestClient(create_app(service=service)) as client:
            yield client, service.store
    finally:
        service.store.close()


REFUSED = {
    "a@x.org,b@y.org": "one e-mail address only, not several: a@x.org,b@y.org",
    "a@x.org; b@y.org": "one e-mail address only, not several: a@x.org; b@y.org",
    "Eve <eve@evil.example>": "Eve <eve@evil.example> is not an e-mail address",
    "eve@evil": "eve@evil is not an e-mail address",
    "not an address": "not an address is not an e-mail address",
}


def test_the_api_setting_takes_one_checked_address(site) -> None:
    client, store = site
    client.headers["X-CSRF-Token"] = signed_in(client, "pia")
    url = "/api/v1/notifications/preferences"
    for bad, why in REFUSED.items():
        answer = client.put(url, json={"email": bad, "mailed": ["news"]})
        assert answer.status_code == 422, (bad, answer.text)
        assert answer.json() == {"detail": why}
        assert inbox.preferences(store, 1).email == ""
    russian = client.put(url, json={"email": "a@x.org,b@y.org"}, headers={"Accept-Language": "ru"})
    assert (
        russian.json()["detail"]
        == "только один адрес электронной почты, не несколько: a@x.org,b@y.org"
    )
    good = client.put(url, json={"email": " Pia@Example.ORG ", "mailed": ["news"]})
    assert good.status_code == 200 and good.json()["email"] == "Pia@example.org"
    assert client.put(url, json={"email": ""}).json()["email"] == ""


def test_the_settings_page_takes_one_checked_address(site) -> None:
    client, store = site
    csrf = signed_in(client, "pia")
    for bad, why in REFUSED.items():
        answer = client.post(
            "/notifications/settings",
            data={"csrf_token": csrf, "email": bad},
            headers={"Referer": "http://testserver/notifications/settings"},
        )
        assert answer.status_code == 200 and why in html.unescape(answer.text), bad
        assert inbox.preferences(store, 1).email == ""
    client.post("/notifications/settings", data={"csrf_token": csrf, "email": "pia@example.org"})
    assert inbox.preferences(store, 1).email == "pia@example.org"


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(max_size=60)
    | st.from_regex(r"[a-zA-Z0-9._%+<>\", ;-]{1,20}@[a-zA-Z0-9.,<> -]{1,20}", fullmatch=True)
    | st.emails().map(lambda e: f"{e}, eve@evil.example")
    | st.emails()
)
def test_fuzz_the_setting_stores_one_address_or_refuses(text: str) -> None:
    try:
        address = inbox.checked_address(text)
    except RuleError as error:
        assert str(error)
        return
    if not address:
        assert not text.strip()
        return
    # what is stored is what the sender mails to: one address, as it is
    assert one_address(address) == address, (text, address)


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(email=st.text(max_size=40) | st.emails() | st.just(EVE))
def test_fuzz_the_api_setting_never_fails(site, email: str) -> None:
    client, store = site
    if "X-CSRF-Token" not in client.headers:  # signed in once for all the examples
        client.headers["X-CSRF-Token"] = signed_in(client, "pia")
    answer = client.put("/api/v1/notifications/preferences", json={"email": email})
    assert answer.status_code in (200, 422), answer.text
    if answer.status_code == 200:
        stored = inbox.preferences(store, 1).email
        assert stored == answer.json()["email"]
        assert not stored or one_address(stored) is not None
    else:
        assert isinstance(answer.json()["detail"], str | list)
