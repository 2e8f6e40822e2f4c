"""The outbox's sender (issue 11 item 5, R-SE-5) against a real SMTP server on loopback
(aiosmtpd, started by the test): every due row mailed exactly once, also with two
senders at once on PostgreSQL; a refused delivery retried after its backoff (the
clock moved, no sleeping); given up after the last attempt; no address or an
unsubscribed kind: no mail; the unsubscribe token signed."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import random
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from email import message_from_bytes
from email.policy import default
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from test_service_support import db_url, migrated, store  # noqa: F401

from crosstable.service import FixedClock, Service
from crosstable.service.series import SeriesSettings
from crosstable.service.series.sender import (
    MailSettings,
    read_unsubscribe_token,
    send_due,
    set_address,
    unsubscribe,
    unsubscribe_token,
)
from crosstable.store import Store, open_store
from crosstable.store.series_models import SeriesOutboxRow

MORNING = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


class Recorder:
    """An SMTP handler keeping every accepted mail; refuses the first ``refuse`` tries
    for each address in ``refused``."""

    def __init__(self, refuse: int = 0, refused: tuple[str, ...] = ()) -> None:
        self.mails: list[Any] = []
        self.refuse = refuse
        self.refused = refused
        self.tries: Counter[str] = Counter()
        self.lock = threading.Lock()
        #: mails accepted on each connection (by the client's address and port)
        self.connections: Counter[Any] = Counter()
        #: mails a connection takes at most (then 421 to the next one); 0: no limit
        self.per_connection = 0

    async def handle_MAIL(self, server, session, envelope, address, options):  # noqa: N802
        with self.lock:
            if self.per_connection and self.connections[session.peer] >= self.per_connection:
                return "421 too many mails on one connection, closing"
        envelope.mail_from = address
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, options):  # noqa: N802
        with self.lock:
            self.tries[address] += 1
            if address in self.refused and self.tries[address] <= self.refuse:
                return "450 mailbox busy, try later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802
        with self.lock:
            self.mails.append(message_from_bytes(envelope.content, policy=default))
            self.connections[session.peer] += 1
        return "250 Message accepted"


@pytest.fixture
def smtp() -> Iterator[tuple[Recorder, Controller]]:
    recorder = Recorder()
    with socket.socket() as probe:  # a free loopback port (aiosmtpd needs it named)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(recorder, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield recorder, controller
    finally:
        controller.stop()


def settings_for(controller: Controller, **extra: Any) -> MailSettings:
    return MailSettings(
        host="127.0.0.1",
        port=controller.port,
        sender="series@example.org",
        base_url="https://chess.example.org",
        secret="s3cret",
        **extra,
    )


def season(store: Store, players: int) -> tuple[Service, FixedClock]:
    """A series with ``players`` registered (users 1…N, each with an address but the
    last): one ``registered`` outbox row each."""
    clock = FixedClock(MORNING)
    service = Service(store, clock=clock, random=random.Random(1))
    sid = service.create_series(
        SeriesSettings("Workday blitz", "workdays", "19:00", "Europe/Moscow", time_control="G/5")
    )
    edition = service.open_edition(sid)
    for n in range(1, players + 1):
        service.register_for_edition(edition, f"Player {n}", rating=1500 + n, user_id=n)
        if n < players:
            set_address(store, n, f"p{n}@example.org")
    return service, clock


def rows(store: Store) -> list[SeriesOutboxRow]:
    with store.reading() as session:
        return list(session.scalars(select(SeriesOutboxRow).order_by(SeriesOutboxRow.id)))


def test_every_due_row_mailed_once_and_no_address_skipped(store: Store, smtp) -> None:
    recorder, controller = smtp
    _, clock = season(store, 5)
    report = send_due(store, clock, settings_for(controller))
    assert (report.sent, report.skipped, report.failed) == (4, 1, 0)
    assert sorted(m["To"] for m in recorder.mails) == [f"p{n}@example.org" for n in range(1, 5)]
    mail = recorder.mails[0]
    assert mail["Subject"] == "Workday blitz: registration confirmed"
    link = mail["List-Unsubscribe"].strip("<>")
    assert link.startswith("https://chess.example.org/notifications/unsubscribe/")
    assert link.split("/")[-1] in mail.get_content()
    assert all(r.sent_at is not None for r in rows(store))
    assert [r.mail_skipped for r in rows(store)] == [False] * 4 + [True]
    # a second pass finds nothing due: nothing mailed twice
    again = send_due(store, clock, settings_for(controller))
    assert (again.sent, again.skipped) == (0, 0)
    assert len(recorder.mails) == 4


def test_a_pass_mails_over_one_connection(store: Store, smtp) -> None:
    recorder, controller = smtp
    _, clock = season(store, 7)
    report = send_due(store, clock, settings_for(controller))
    assert (report.sent, report.skipped, report.failed) == (6, 1, 0)
    assert list(recorder.connections.values()) == [6]


def test_a_server_that_closes_the_kept_connection_gets_the_mail_on_a_new_one(
    store: Store, smtp
) -> None:
    """A server that takes two mails a connection and then answers 421 (closing): every
    mail still goes in the same pass, none counted as failed, none twice."""
    recorder, controller = smtp
    recorder.per_connection = 2
    _, clock = season(store, 6)
    report = send_due(store, clock, settings_for(controller))
    assert (report.sent, report.skipped, report.failed) == (5, 1, 0)
    assert sorted(recorder.connections.values()) == [1, 2, 2]
    assert sorted(m["To"] for m in recorder.mails) == [f"p{n}@example.org" for n in range(1, 6)]


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    players=st.integers(2, 7),
    per_connection=st.integers(0, 3),
    refused=st.sets(st.integers(1, 6), max_size=3),
    refuse=st.integers(0, 1),
)
def test_one_kept_connection_gives_what_a_connection_a_mail_gave(
    smtp, tmp_path_factory: pytest.TempPathFactory, players, per_connection, refused, refuse
) -> None:
    """Whatever the server's limit of mails a connection and whichever addresses it
    refuses once (450), a pass over one kept connection ends as a connection a mail did:
    every other player with an address mailed once, each refused one a failed attempt,
    the player without an address skipped; and no connection carried more than the
    server's limit."""
    recorder, controller = smtp
    recorder.mails.clear()
    recorder.tries.clear()
    recorder.connections.clear()
    recorder.per_connection = per_connection
    recorder.refuse = refuse
    recorder.refused = tuple(f"p{n}@example.org" for n in refused)
    folder = tmp_path_factory.mktemp("kept")
    opened = open_store(migrated(f"sqlite:///{folder / 'mail.db'}"))
    try:
        _, clock = season(opened, players)
        report = send_due(opened, clock, settings_for(controller))
    finally:
        opened.close()
    addressed = set(range(1, players))  # (the last player has no address)
    turned_away = addressed & refused if refuse else set()
    assert (report.sent, report.skipped, report.failed) == (
        len(addressed - turned_away),
        1,
        len(turned_away),
    )
    assert sorted(m["To"] for m in recorder.mails) == sorted(
        f"p{n}@example.org" for n in addressed - turned_away
    )
    if per_connection:
        assert max(recorder.connections.values(), default=0) <= per_connection


def test_refused_delivery_is_retried_after_its_backoff(store: Store, smtp) -> None:
    recorder, controller = smtp
    recorder.refuse, recorder.refused = 1, ("p2@example.org",)
    _, clock = season(store, 3)
    settings = settings_for(controller, base_delay=dt.timedelta(minutes=2))
    first = send_due(store, clock, settings)
    assert (first.sent, first.failed) == (1, 1)
    failed = next(r for r in rows(store) if r.user_id == 2)
    assert failed.sent_at is None and failed.attempts == 1
    assert failed.next_try_at == "2026-12-01T09:02:00+00:00"
    assert "450" in failed.last_error
    # not yet due: nothing tried
    clock.advance(dt.timedelta(minutes=1))
    assert send_due(store, clock, settings).sent == 0
    assert recorder.tries["p2@example.org"] == 1
    clock.advance(dt.timedelta(minutes=1))
    assert send_due(store, clock, settings).sent == 1
    assert Counter(m["To"] for m in recorder.mails) == {"p1@example.org": 1, "p2@example.org": 1}


def test_given_up_after_the_last_attempt(store: Store, smtp) -> None:
    recorder, controller = smtp
    recorder.refuse, recorder.refused = 99, ("p1@example.org",)
    _, clock = season(store, 2)
    settings = settings_for(controller, max_attempts=3, base_delay=dt.timedelta(minutes=1))
    gave_up = 0
    for _ in range(5):
        gave_up += send_due(store, clock, settings).gave_up
        clock.advance(dt.timedelta(hours=1))
    row = next(r for r in rows(store) if r.user_id == 1)
    assert (row.attempts, row.sent_at, gave_up) == (3, None, 1)
    assert row.gave_up_at is not None
    assert recorder.tries["p1@example.org"] == 3


def test_unsubscribed_kind_is_not_mailed(store: Store, smtp) -> None:
    recorder, controller = smtp
    _, clock = season(store, 3)
    unsubscribe(store, 1, "registered")
    report = send_due(store, clock, settings_for(controller))
    assert (report.sent, report.skipped) == (1, 2)
    assert [m["To"] for m in recorder.mails] == ["p2@example.org"]


def test_unsubscribe_token_is_signed() -> None:
    token = unsubscribe_token("key", 7, "stage-starts")
    assert read_unsubscribe_token("key", token) == (7, "stage-starts")
    assert read_unsubscribe_token("other key", token) is None
    assert read_unsubscribe_token("key", token[:-2] + "xx") is None
    assert read_unsubscribe_token("key", "not a token") is None
    assert read_unsubscribe_token("key", unsubscribe_token("key", 7, "no-such-kind")) is None


def test_mail_settings_from_the_environment() -> None:
    assert MailSettings.from_env({}) is None
    settings = MailSettings.from_env(
        {
            "CROSSTABLE_SMTP_HOST": "mail",
            "CROSSTABLE_SMTP_PORT": "587",
            "CROSSTABLE_SMTP_STARTTLS": "1",
        }
    )
    assert settings is not None
    assert (settings.host, settings.port, settings.starttls) == ("mail", 587, True)


def test_two_senders_at_once_mail_each_row_once(db_url: str, smtp) -> None:
    recorder, controller = smtp
    first, second = open_store(db_url), open_store(db_url)
    try:
        season(first, 30)
        settings = settings_for(controller)
        barrier = threading.Barrier(2)
        reports = []

        def run(store: Store) -> None:
            barrier.wait()
            reports.append(send_due(store, FixedClock(MORNING), settings))

        threads = [threading.Thread(target=run, args=(s,)) for s in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sum(r.sent for r in reports) == 29
        assert sum(r.skipped for r in reports) == 1
        assert Counter(m["To"] for m in recorder.mails) == {
            f"p{n}@example.org": 1 for n in range(1, 30)
        }
        assert all(r.sent_at is not None for r in rows(first))
    finally:
        first.close()
        second.close()


def test_tick_send_mails_the_due_rows(tmp_path, smtp, capsys, monkeypatch) -> None:
    from crosstable.cli import main

    recorder, controller = smtp
    for name in list(os.environ):
        if name.startswith("CROSSTABLE_SMTP_"):
            monkeypatch.delenv(name)
    url = f"sqlite:///{tmp_path}/tick.db"
    with open_store(url) as opened:
        season(opened, 3)
    now = "2026-12-01T12:00:00+03:00"
    assert main(["tick", "--db", url, "--now", now, "--send"]) == 2
    assert capsys.readouterr().err == (
        "error: --send needs an SMTP server: --smtp-host or CROSSTABLE_SMTP_HOST\n"
    )
    args = ["tick", "--db", url, "--now", now, "--send", "--smtp-host", "127.0.0.1"]
    assert main([*args, "--smtp-port", str(controller.port)]) == 0
    out = capsys.readouterr().out
    assert out.endswith("notifications: 2 mailed, 1 without mail, 0 to retry, 0 given up\n")
    assert sorted(m["To"] for m in recorder.mails) == ["p1@example.org", "p2@example.org"]
    assert main([*args, "--smtp-port", str(controller.port)]) == 0
    assert capsys.readouterr().out.endswith(
        "notifications: 0 mailed, 0 without mail, 0 to retry, 0 given up\n"
    )
    assert len(recorder.mails) == 2


def test_the_in_site_list_unread_and_read(store: Store, smtp) -> None:
    from crosstable.service.series import inbox

    _, controller = smtp
    _, clock = season(store, 3)
    # every outbox row is an in-site notification, mailed or not (user 3 has no address)
    send_due(store, clock, settings_for(controller))
    listed = inbox.notifications(store, 3)
    assert [(n.kind, n.read, n.mailed) for n in listed] == [("registered", False, False)]
    assert listed[0].as_dict()["data"]["series"] == "Workday blitz"
    assert inbox.notifications(store, 1)[0].mailed
    assert (inbox.unread_count(store, 1), inbox.unread_count(store, 3)) == (1, 1)
    assert inbox.mark_read(store, 3, MORNING, [listed[0].id]) == 1
    assert inbox.mark_read(store, 3, MORNING) == 0  # nothing unread is left
    assert (inbox.unread_count(store, 1), inbox.unread_count(store, 3)) == (1, 0)
    assert inbox.notifications(store, 3)[0].read
    # another user's notification cannot be marked read
    assert inbox.mark_read(store, 3, MORNING, [inbox.notifications(store, 1)[0].id]) == 0
    assert inbox.unread_count(store, 1) == 1


def test_preferences_choose_what_is_mailed(store: Store, smtp) -> None:
    from crosstable.core.errors import RuleError
    from crosstable.service.series import inbox

    recorder, controller = smtp
    _, clock = season(store, 3)
    assert inbox.preferences(store, 3) == inbox.Preferences("", ())
    chosen = inbox.set_preferences(store, 3, " p3@example.org ", ["stage-starts", "news"])
    assert chosen.email == "p3@example.org"
    assert "registered" in chosen.muted and chosen.mailed == ("stage-starts", "news")
    assert inbox.set_preferences(store, 2, "p2@example.org", list(inbox.KINDS)).muted == ()
    report = send_due(store, clock, settings_for(controller))
    assert (report.sent, report.skipped) == (2, 1)  # user 3 muted "registered"
    assert sorted(m["To"] for m in recorder.mails) == ["p1@example.org", "p2@example.org"]
    for bad, message in (
        ("no address", "no address is not an e-mail address"),
        ("x" * 300 + "@" + "y" * 30, "an e-mail address is at most 320 characters long"),
    ):
        with pytest.raises(RuleError, match=message):
            inbox.set_preferences(store, 3, bad, [])
    with pytest.raises(RuleError, match="spam is not a kind of notification"):
        inbox.set_preferences(store, 3, "", ["spam"])
    assert inbox.preferences(store, 3).email == "p3@example.org"  # a refusal changes nothing


def test_the_notifications_api(tmp_path) -> None:
    from crosstable.service.accounts import Accounts
    from crosstable.web.app import create_app
    from tests.asgi_client import TestClient

    with open_store(f"sqlite:///{tmp_path}/web.db") as opened:
        accounts = Accounts(opened)
        player = accounts.create_user("player", "password-player")
        other = accounts.create_user("other", "password-other")
        service, _ = season(opened, 0)
        edition = 1  # the series' first edition, opened by season()
        service.register_for_edition(edition, "Player", user_id=player.id)
        service.register_for_edition(edition, "Other", user_id=other.id)
        client = TestClient(create_app(service=service))
        auth = {"Authorization": f"Bearer {accounts.create_token(player.id)}"}
        assert client.get("/api/v1/notifications").status_code == 401
        answer = client.get("/api/v1/notifications", headers=auth).json()
        assert answer["unread"] == 1
        assert [n["kind"] for n in answer["notifications"]] == ["registered"]
        assert answer["notifications"][0]["data"]["series"] == "Workday blitz"
        mine = answer["notifications"][0]["id"]
        read = client.post("/api/v1/notifications/read", json={"ids": [mine + 1]}, headers=auth)
        assert read.json() == {"marked": 0, "unread": 1}  # another user's: untouched
        read = client.post("/api/v1/notifications/read", json={}, headers=auth)
        assert read.json() == {"marked": 1, "unread": 0}
        body = {"email": "me@example.org", "mailed": ["stage-starts"]}
        saved = client.put("/api/v1/notifications/preferences", json=body, headers=auth)
        assert saved.status_code == 200 and saved.json()["mailed"] == ["stage-starts"]
        got = client.get("/api/v1/notifications/preferences", headers=auth).json()
        assert got["email"] == "me@example.org" and "registered" in got["muted"]
        bad = client.put("/api/v1/notifications/preferences", json={"email": "nope"}, headers=auth)
        assert 400 <= bad.status_code < 500 and "nope is not an e-mail address" in bad.text


def test_the_unsubscribe_link(tmp_path, smtp) -> None:
    from crosstable.web.app import create_app
    from crosstable.web.site import site_secret
    from tests.asgi_client import TestClient

    recorder, controller = smtp
    with open_store(f"sqlite:///{tmp_path}/web.db") as opened:
        service, clock = season(opened, 2)
        client = TestClient(create_app(service=service))
        secret = site_secret(service)
        settings = dataclasses.replace(settings_for(controller), secret=secret)
        send_due(opened, clock, settings)
        link = recorder.mails[0]["List-Unsubscribe"].strip("<>")
        path = link.removeprefix("https://chess.example.org")
        page = client.get(path)
        assert page.status_code == 200 and 'id="unsubscribe-form"' in page.text
        assert "registered" in page.text
        assert client.post(path, data={}).status_code == 403  # no CSRF token
        csrf = page.text.split('name="csrf_token" value="')[1].split('"')[0]
        done = client.post(path, data={"csrf_token": csrf})
        assert done.status_code == 200 and 'id="unsubscribed"' in done.text
        assert inbox_prefs(opened, 1) == ("registered",)
        forged = unsubscribe_token("another secret", 1, "stage-starts")
        answer = client.get(f"/notifications/unsubscribe/{forged}")
        assert answer.status_code == 404 and "not valid" in answer.text


def inbox_prefs(store: Store, user_id: int) -> tuple[str, ...]:
    from crosstable.service.series import inbox

    return inbox.preferences(store, user_id).muted


def test_migration_0009_keeps_the_outbox_and_goes_back_down(store: Store) -> None:
    """Rows queued at 0008 upgrade to due, unread, not skipped; 0009 also goes down."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect, text

    from crosstable.store.engine import upgrade
    from crosstable.store.migrations import HEAD

    season(store, 2)
    config = Config()
    config.set_main_option("script_location", "crosstable.store:migrations")
    with store._writer.connect() as connection, connection.begin():
        config.attributes["connection"] = connection
        command.downgrade(config, "0008")
    with store.engine.connect() as connection:
        columns = {c["name"] for c in inspect(connection).get_columns("series_outbox")}
        assert "next_try_at" not in columns and "dedupe_key" in columns
        assert "notification_prefs" not in inspect(connection).get_table_names()
    upgrade(store)
    assert [(r.sent_at, r.next_try_at, r.mail_skipped, r.read_at) for r in rows(store)] == [
        (None, None, False, None)
    ] * 2
    with store.engine.connect() as connection:
        version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
        assert version == HEAD  # back at the newest revision
