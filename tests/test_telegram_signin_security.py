"""Signing in with Telegram, attacked (issue 25 items 1–4): a login link opened by a
signed-in victim links nothing (the sign-in must have been started on this site's
Telegram page in this browser: a one-time state kept in the session), a login link
works once and for minutes, a name chosen at sign-up cannot take a Telegram user's
place, and every malformed field is a clear 4xx — never a 500."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import html
import re
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from sqlalchemy import func, inspect, select
from test_series_telegram import TOKEN, login, signed
from test_service_support import db_url, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.service.series import telegram
from crosstable.store import Store
from crosstable.store.telegram_models import UsedSignatureRow
from tests.asgi_client import TestClient


@pytest.fixture
def web(store: Store, monkeypatch: pytest.MonkeyPatch) -> Any:
    from test_web_series import Web

    monkeypatch.setenv("CROSSTABLE_TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("CROSSTABLE_TELEGRAM_BOT_NAME", "crosstable_bot")
    monkeypatch.delenv("CROSSTABLE_TELEGRAM_LOGIN_MAX_AGE", raising=False)
    return Web(store)


def auth_url(client: TestClient) -> str:
    """The widget's data-auth-url on the Telegram page this browser was shown (its path)."""
    page = client.get("/telegram")
    assert page.status_code == 200
    found = re.search(r'data-auth-url="([^"]+)"', page.text)
    assert found, page.text
    return urlsplit(found.group(1).replace("&amp;", "&")).path


def callback(client: TestClient, data: dict[str, str], path: str = "/telegram/login") -> Any:
    return client.get(path + "?" + urlencode(data), follow_redirects=False)


def signed_in_as(client: TestClient) -> str | None:
    """The name in the page's header of a signed-in browser (None: a guest)."""
    found = re.search(r'<a href="/account" title="Account">([^<]*)</a>', client.get("/").text)
    return None if found is None else html.unescape(found.group(1))


def now_of(web: Any) -> dt.datetime:
    return web.service.clock.now()  # type: ignore[no-any-return]


# -- item 1: linking needs a request the account's owner started ------------------------------


def test_a_victim_opening_the_attackers_login_link_gets_nothing_linked(web: Any) -> None:
    """The attack: Mallory signs in with Telegram on her own, keeps the signed link and
    sends it to Pia, who is signed in. Today Pia's account gets Mallory's Telegram."""
    pia = web.signed_in("pia")
    link = login(666, at=now_of(web), username="mallory")
    answer = callback(pia, link)
    assert answer.status_code == 403, answer.text
    assert "not started" in answer.text
    assert telegram.account_of(web.service.store, 666) is None
    assert telegram.link_of(web.service.store, web.player.id) is None
    # nor with a state Mallory made up, nor with one of her own browser's
    assert callback(pia, link, "/telegram/login/" + "A" * 32).status_code == 403
    mallory = TestClient(web.app)
    assert callback(pia, link, auth_url(mallory)).status_code == 403
    for odd in ("é", "%00", "x" * 500, "%2F"):  # a state that cannot be one
        answer = pia.get(f"/telegram/login/{odd}?{urlencode(link)}")  # redirects followed
        assert answer.status_code in (403, 404), (odd, answer.status_code)
    assert telegram.account_of(web.service.store, 666) is None
    # Pia still is Pia (no sign-in happened either)
    assert signed_in_as(pia) == "pia"


def test_a_guest_opening_a_login_link_is_not_signed_in(web: Any) -> None:
    """Login CSRF: a page elsewhere sends a visitor to a signed link; nothing changes."""
    guest = TestClient(web.app)
    answer = callback(guest, login(667, at=now_of(web)))
    assert answer.status_code == 403 and "not started" in answer.text
    assert telegram.account_of(web.service.store, 667) is None
    assert signed_in_as(guest) is None
    # the same from a cross-site navigation into a page's state: still refused
    other = TestClient(web.app)
    stolen = auth_url(other)
    assert callback(guest, login(667, at=now_of(web)), stolen).status_code == 403
    assert telegram.account_of(web.service.store, 667) is None


def test_the_owner_links_from_the_telegram_page_once(web: Any) -> None:
    pia = web.signed_in("pia")
    path = auth_url(pia)
    assert path.startswith("/telegram/login/")
    done = callback(pia, login(555, at=now_of(web)), path)
    assert done.status_code == 303 and done.headers["location"] == "/notifications/settings"
    assert telegram.account_of(web.service.store, 555) == web.player.id
    assert "Telegram account linked: @pia_plays" in pia.get("/notifications/settings").text
    # the state was used: the same address with a new login does nothing more
    telegram.unlink(web.service.store, web.player.id)
    again = callback(pia, login(556, at=now_of(web)), path)
    assert again.status_code == 403 and telegram.account_of(web.service.store, 556) is None


def test_a_state_is_bound_to_its_browser_and_account(web: Any) -> None:
    ann = web.signed_in("ann")
    anns = auth_url(ann)
    pia = web.signed_in("pia")
    auth_url(pia)  # Pia has a state of her own, but not Ann's
    assert callback(pia, login(601, at=now_of(web)), anns).status_code == 403
    assert telegram.account_of(web.service.store, 601) is None
    # a state made while signed out is worthless once signed in (sign-in clears it)
    browser = TestClient(web.app)
    guest_state = auth_url(browser)
    token = re.search(r'name="csrf-token" content="([^"]+)"', browser.get("/signin").text)
    assert token
    browser.post(
        "/signin",
        data={"username": "pia", "password": "password-pia", "csrf_token": token.group(1)},
    )
    assert callback(browser, login(602, at=now_of(web)), guest_state).status_code == 403
    assert telegram.account_of(web.service.store, 602) is None


def test_the_state_expires(web: Any) -> None:
    pia = web.signed_in("pia")
    path = auth_url(pia)
    web.service.clock.advance(telegram.STATE_AGE + dt.timedelta(seconds=1))
    answer = callback(pia, login(603, at=now_of(web)), path)
    assert answer.status_code == 403 and telegram.account_of(web.service.store, 603) is None


def test_a_login_goes_stale_as_the_service_clock_moves(web: Any) -> None:
    guest = TestClient(web.app)
    data = login(605, at=now_of(web))
    web.service.clock.advance(dt.timedelta(seconds=301))
    answer = callback(guest, data, auth_url(guest))
    assert answer.status_code == 403 and "more than 300 seconds old" in answer.text
    assert telegram.account_of(web.service.store, 605) is None


def test_two_pages_of_one_browser_share_the_state(web: Any) -> None:
    pia = web.signed_in("pia")
    first, second = auth_url(pia), auth_url(pia)
    assert first == second
    assert callback(pia, login(604, at=now_of(web)), first).status_code == 303


def test_a_guest_signs_in_and_never_links_silently(web: Any) -> None:
    guest = TestClient(web.app)
    answer = callback(guest, login(777, at=now_of(web)), auth_url(guest))
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    made = telegram.account_of(web.service.store, 777)
    assert made is not None and made not in (web.admin.id, web.player.id)
    assert signed_in_as(guest) == "Пия Игрокова"
    # again, from another browser: the same account
    other = TestClient(web.app)
    assert callback(other, login(777, at=now_of(web)), auth_url(other)).status_code == 303
    assert telegram.account_of(web.service.store, 777) == made
    assert len(web.accounts.users()) == 3
    # the existing accounts were never touched
    assert telegram.link_of(web.service.store, web.player.id) is None
    assert telegram.link_of(web.service.store, web.admin.id) is None


# -- item 2: a short window, and once --------------------------------------------------------


def test_a_login_link_works_once(web: Any) -> None:
    data = login(778, at=now_of(web))
    first = TestClient(web.app)
    assert callback(first, data, auth_url(first)).status_code == 303
    thief = TestClient(web.app)  # the link from a browser's history or a log, replayed
    replay = callback(thief, data, auth_url(thief))
    assert replay.status_code == 403 and "already used" in replay.text
    assert signed_in_as(thief) is None


def test_a_login_is_accepted_for_minutes_not_a_day(
    web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = now_of(web)
    guest = TestClient(web.app)
    stale = callback(guest, login(779, at=now - dt.timedelta(minutes=6)), auth_url(guest))
    assert stale.status_code == 403 and "more than 300 seconds old" in stale.text
    monkeypatch.setenv("CROSSTABLE_TELEGRAM_LOGIN_MAX_AGE", "60")
    older = callback(guest, login(779, at=now_of(web) - dt.timedelta(seconds=90)), auth_url(guest))
    assert older.status_code == 403 and "more than 60 seconds old" in older.text
    ahead = callback(guest, login(779, at=now_of(web) + dt.timedelta(minutes=2)), auth_url(guest))
    assert ahead.status_code == 403 and "in the future" in ahead.text
    assert telegram.account_of(web.service.store, 779) is None


def test_login_max_age_setting() -> None:
    assert telegram.login_max_age({}) == dt.timedelta(seconds=300)
    assert telegram.login_max_age({"CROSSTABLE_TELEGRAM_LOGIN_MAX_AGE": "90"}).seconds == 90
    for bad in ("", "x", "-5", "0", "١٢"):
        assert telegram.login_max_age({"CROSSTABLE_TELEGRAM_LOGIN_MAX_AGE": bad}).seconds == 300
    assert telegram.login_max_age({"CROSSTABLE_TELEGRAM_LOGIN_MAX_AGE": "999999"}).days == 1


NOW = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def test_used_signatures_are_kept_until_stale_then_pruned(store: Store) -> None:
    env = {"CROSSTABLE_TELEGRAM_LOGIN_MAX_AGE": "300"}
    first = login(1, at=NOW)
    telegram.use_once(store, first, NOW, env)
    with pytest.raises(RuleError, match="already used"):
        telegram.use_once(store, first, NOW + dt.timedelta(seconds=30), env)
    # hex in capitals is the same signature
    with pytest.raises(RuleError, match="already used"):
        telegram.use_once(store, first | {"hash": first["hash"].upper()}, NOW, env)
    later = NOW + dt.timedelta(minutes=10)
    telegram.use_once(store, login(2, at=later), later, env)
    with store.reading() as session:
        rows = session.scalars(select(UsedSignatureRow)).all()
        assert [row.kind for row in rows] == ["telegram-login"]  # the first one pruned
        assert all(len(row.digest) == 64 and first["hash"] not in row.digest for row in rows)


def test_two_processes_accept_a_payload_once(db_url: str) -> None:
    from crosstable.store import open_store

    one, two = open_store(db_url), open_store(db_url)
    try:
        data = login(3, at=NOW)
        telegram.use_once(one, data, NOW, {})
        with pytest.raises(RuleError, match="already used"):
            telegram.use_once(two, data, NOW, {})
        with two.reading() as session:
            assert session.scalar(select(func.count()).select_from(UsedSignatureRow)) == 1
    finally:
        one.engine.dispose()
        two.engine.dispose()


def test_the_table_matches_the_migration(store: Store) -> None:
    columns = {c["name"]: c for c in inspect(store.engine).get_columns("used_signatures")}
    assert set(columns) == {"digest", "kind", "used_at"}
    indexes = inspect(store.engine).get_indexes("used_signatures")
    assert [i["column_names"] for i in indexes] == [["used_at"]]
    assert UsedSignatureRow.__table__.c.used_at.index  # type: ignore[attr-defined]


# -- item 3: a chosen name cannot take a Telegram user's place ------------------------------


def test_a_squatted_name_does_not_block_the_telegram_user(web: Any) -> None:
    squatter = web.accounts.create_user("tg888", "password-squat")  # as anyone could
    guest = TestClient(web.app)
    answer = callback(guest, login(888, at=now_of(web)), auth_url(guest))
    assert answer.status_code == 303, answer.text
    made = telegram.account_of(web.service.store, 888)
    assert made is not None and made != squatter.id
    assert web.accounts.user(made).username == "tg:888"
    assert telegram.link_of(web.service.store, squatter.id) is None


def test_long_telegram_names_fit_the_account(web: Any) -> None:
    """Names of 512 characters each (the field's bound) make an account whose shown
    name is cut to the column's 200, on PostgreSQL too (not a 500)."""
    guest = TestClient(web.app)
    data = login(889, at=now_of(web), first_name="Ж" * 512, last_name="Щ" * 512)
    answer = callback(guest, data, auth_url(guest))
    assert answer.status_code == 303, answer.text[:300]
    made = telegram.account_of(web.service.store, 889)
    assert made is not None and web.accounts.user(made).display_name == "Ж" * 200


def test_derived_names_cannot_be_chosen(web: Any) -> None:
    for name in ("tg:5", "TG:5", "tg:777"):
        with pytest.raises(RuleError, match="letters, digits"):
            web.accounts.create_user(name, "password-long")
    assert telegram.telegram_username(5) == "tg:5"
    client = TestClient(web.app)
    token = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/signup").text)
    assert token
    form = {"username": "tg:5", "password": "password-long", "csrf_token": token.group(1)}
    client.post("/signup", data=form)
    assert web.accounts.find_user("tg:5") is None


def test_an_account_made_the_old_way_keeps_signing_in(web: Any) -> None:
    old = web.accounts.create_user("tg999", "password-old", display_name="Old")
    who = telegram.TelegramUser(999, "Old", "", "old", NOW)
    telegram.link(web.service.store, old.id, who, NOW)
    guest = TestClient(web.app)
    assert callback(guest, login(999, at=now_of(web)), auth_url(guest)).status_code == 303
    assert signed_in_as(guest) == "Old"
    assert web.accounts.find_user("tg:999") is None


# -- item 4: every malformed field is a clear 4xx ---------------------------------------------


def _raw(fields: list[tuple[str, str]]) -> str:
    return urlencode(fields)


def _good(web: Any) -> dict[str, str]:
    return login(700, at=now_of(web))


MALFORMED: list[tuple[str, Any, str]] = [
    ("non-ASCII hash", lambda d: d | {"hash": "é" * 64}, "hash is not 64 hexadecimal digits"),
    ("short hash", lambda d: d | {"hash": "abc"}, "hash is not 64 hexadecimal digits"),
    ("non-numeric id", lambda d: d | {"id": "abc"}, "id is not a whole number"),
    ("Unicode digits", lambda d: d | {"id": "١٢"}, "id is not a whole number"),
    ("signed id", lambda d: d | {"id": "-5"}, "id is not a whole number"),
    ("huge id", lambda d: d | {"id": "9" * 30}, "id is not a whole number"),
    ("float auth_date", lambda d: d | {"auth_date": "1e9"}, "auth_date is not a whole number"),
    ("huge auth_date", lambda d: d | {"auth_date": "9" * 19}, "auth_date is not"),
    ("overlong name", lambda d: d | {"first_name": "x" * 600}, "longer than 512"),
    ("control in name", lambda d: d | {"last_name": "a\x00b"}, "control characters"),
    ("missing id", lambda d: {k: v for k, v in d.items() if k != "id"}, "id is missing"),
    ("missing hash", lambda d: {k: v for k, v in d.items() if k != "hash"}, "hash is missing"),
    ("empty auth_date", lambda d: d | {"auth_date": ""}, "auth_date is missing"),
    ("unknown field", lambda d: d | {"admin": "1"}, "unexpected field 'admin'"),
]


@pytest.mark.parametrize(("what", "change", "words"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_field_is_a_clear_400(web: Any, what: str, change: Any, words: str) -> None:
    guest = TestClient(web.app)
    path = auth_url(guest)
    answer = guest.get(path + "?" + _raw(list(change(_good(web)).items())))
    assert answer.status_code == 400, (what, answer.status_code, answer.text[:300])
    assert words in html.unescape(answer.text)
    as_json = guest.get(
        path + "?" + _raw(list(change(_good(web)).items())), headers={"Accept": "application/json"}
    )
    assert as_json.status_code == 400 and words in as_json.json()["detail"]


def test_a_field_given_twice_is_refused(web: Any) -> None:
    guest = TestClient(web.app)
    data = _good(web)
    fields = [*data.items(), ("id", "1")]
    answer = guest.get(auth_url(guest) + "?" + _raw(fields))
    assert answer.status_code == 400 and "the field id is given twice" in answer.text
    assert telegram.account_of(web.service.store, 700) is None


def test_the_refusal_is_in_russian(web: Any) -> None:
    guest = TestClient(web.app)
    data = _good(web) | {"hash": "é" * 64}
    answer = guest.get(
        auth_url(guest) + "?" + _raw(list(data.items())), headers={"Accept-Language": "ru"}
    )
    assert answer.status_code == 400 and "шестнадцатеричных" in answer.text
    stale = login(701, at=now_of(web) - dt.timedelta(hours=1))
    again = guest.get(
        auth_url(guest) + "?" + _raw(list(stale.items())), headers={"Accept-Language": "ru"}
    )
    assert again.status_code == 403 and "секунд" in again.text
    state = guest.get(
        "/telegram/login?" + _raw(list(login(702, at=now_of(web)).items())),
        headers={"Accept-Language": "ru"},
    )
    assert state.status_code == 403 and "Telegram" in state.text and "не начат" in state.text


def test_the_service_refuses_malformed_data_without_a_type_error() -> None:
    for data in (
        {"id": "1", "auth_date": "1", "hash": "é" * 64},
        {"id": "1", "auth_date": "1", "hash": "\udc80" * 64},
        {"id": " 1", "auth_date": "1", "hash": "0" * 64},
        {"id": "1_0", "auth_date": "1", "hash": "0" * 64},
    ):
        with pytest.raises(RuleError):
            telegram.verify_login(data, TOKEN, NOW)
    fine = signed({"id": "5", "auth_date": str(int(NOW.timestamp()))})
    assert telegram.verify_login(fine, TOKEN, NOW).id == 5
