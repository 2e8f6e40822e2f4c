"""The in-site notifications (issue 11 item 5, R-SE-5) on the web, SQLite and PostgreSQL:
the list page (read/unread, marking read, the links and moments), the unread badge in
every page's header, and the settings form (per kind: e-mail, in the site, Telegram),
English and Russian."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import re

import pytest

pytest.importorskip("fastapi")

from test_service_support import db_url, store  # noqa: F401
from test_web_series import Web, _csrf

from crosstable.service.series import inbox
from crosstable.store import Store
from tests.asgi_client import TestClient


@pytest.fixture
def web(store: Store) -> Web:
    return Web(store)


def _badge(html: str) -> int:
    found = re.search(r'<span class="badge" id="unread-badge">(\d+)</span>', html)
    return int(found.group(1)) if found else 0


def _register_pia(web: Web) -> tuple[TestClient, int]:
    sid = web.create()["id"]
    pia = web.signed_in("pia")
    csrf = _csrf(pia.get(f"/series/{sid}").text)
    done = pia.post(f"/series/{sid}/editions/1/register", data={"csrf_token": csrf})
    assert done.status_code == 200
    return pia, sid


def test_the_list_the_badge_and_marking_read(web: Web) -> None:
    guest = TestClient(web.app)
    answer = guest.get("/notifications", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"].startswith("/signin")
    assert 'id="bell"' not in guest.get("/series").text
    pia, sid = _register_pia(web)
    page = pia.get("/series").text
    assert _badge(page) == 1
    listed = pia.get("/notifications")
    assert listed.status_code == 200
    html = listed.text
    assert "Registration confirmed" in html and "Evening blitz" in html
    assert f'href="/series/{sid}/editions/1"' in html
    # the start, stated in the series' zone for the browser's script to rewrite
    assert re.search(
        r'<time datetime="2026-05-04T15:00:00\+00:00" data-local>[^<]*\(Europe/Moscow\)', html
    )
    assert 'class="notification unread"' in html
    # the admin has none: only the caller's own rows
    ann = web.signed_in("ann")
    assert "No notifications yet." in ann.get("/notifications").text
    assert _badge(ann.get("/series").text) == 0
    (row,) = inbox.notifications(web.service.store, web.player.id)
    csrf = _csrf(html)
    # another user cannot mark pia's notification read
    ann.post(
        "/notifications/read",
        data={"csrf_token": _csrf(ann.get("/notifications").text), "id": str(row.id)},
    )
    assert inbox.unread_count(web.service.store, web.player.id) == 1
    forged = pia.post("/notifications/read", data={"csrf_token": "x", "id": str(row.id)})
    assert forged.status_code == 403
    done = pia.post("/notifications/read", data={"csrf_token": csrf, "id": str(row.id)})
    assert done.status_code == 200
    assert 'class="notification read"' in done.text and _badge(done.text) == 0
    bad = pia.post("/notifications/read", data={"csrf_token": csrf, "id": "abc"})
    assert "is not a whole number" in bad.text


def test_mark_all_read(web: Web) -> None:
    pia, sid = _register_pia(web)
    edition = web.service.series_info(sid)["editions"][0]["id"]
    csrf = _csrf(pia.get(f"/series/{sid}").text)
    pia.post(f"/series/{sid}/editions/1/withdraw", data={"csrf_token": csrf})
    web.service.register_for_edition(edition, "Pia again", user_id=web.player.id)
    assert _badge(pia.get("/notifications").text) == 2
    page = pia.post("/notifications/read", data={"csrf_token": csrf})
    assert _badge(page.text) == 0 and 'id="read-all"' not in page.text


def test_the_settings_form_per_kind_and_channel(web: Web) -> None:
    pia, _sid = _register_pia(web)
    form = pia.get("/notifications/settings")
    assert form.status_code == 200
    html = form.text
    for kind in inbox.KINDS:
        for channel in inbox.CHANNELS:
            assert f'name="{channel}:{kind}" value="1"' in html
    assert html.count(" checked>") == len(inbox.KINDS) * len(inbox.CHANNELS)  # all on at first
    csrf = _csrf(html)
    chosen = {
        "csrf_token": csrf,
        "email": "pia@example.org",
        "email:stage-starts": "1",
        "site:stage-starts": "1",
        "site:news": "1",
        "telegram:qualified": "1",
    }
    saved = pia.post("/notifications/settings", data=chosen)
    assert saved.status_code == 200 and "Your choices are saved." in saved.text
    prefs = inbox.preferences(web.service.store, web.player.id)
    assert prefs.email == "pia@example.org" and prefs.mailed == ("stage-starts",)
    assert [k for k in inbox.KINDS if prefs.receives("site", k)] == ["stage-starts", "news"]
    assert [k for k in inbox.KINDS if prefs.receives("telegram", k)] == ["qualified"]
    assert saved.text.count(" checked>") == 4
    # "registered" is not shown in the site any more: neither listed nor counted
    assert "No notifications yet." in pia.get("/notifications").text
    assert inbox.unread_count(web.service.store, web.player.id) == 0
    # the JSON API's preferences keep the site's and Telegram's choices
    api = TestClient(web.app).put(
        "/api/v1/notifications/preferences",
        json={"email": "pia@example.org", "mailed": ["news"]},
        headers=web.auth("pia"),
    )
    assert api.status_code == 200 and api.json()["mailed"] == ["news"]
    prefs = inbox.preferences(web.service.store, web.player.id)
    assert [k for k in inbox.KINDS if prefs.receives("site", k)] == ["stage-starts", "news"]
    bad = pia.post("/notifications/settings", data={"csrf_token": csrf, "email": "not an address"})
    assert "is not an e-mail address" in bad.text
    assert inbox.preferences(web.service.store, web.player.id).email == "pia@example.org"


def test_an_unknown_channel_is_refused(web: Web) -> None:
    from crosstable.core.errors import RuleError

    with pytest.raises(RuleError, match="pigeon is not a channel"):
        inbox.set_preferences(web.service.store, 1, "", [], channels={"pigeon": []})


def test_in_russian(web: Web) -> None:
    pia, _sid = _register_pia(web)
    ru = {"Accept-Language": "ru"}
    pia.cookies.set("lang", "ru")
    html = pia.get("/notifications", headers=ru).text
    assert "Уведомления" in html and "Регистрация подтверждена" in html
    assert "Что я получаю" in pia.get("/notifications/settings", headers=ru).text


def test_stage_start_in_the_list(web: Web) -> None:
    sid = web.create()["id"]
    edition = web.service.series_info(sid)["editions"][0]["id"]
    web.service.register_for_edition(edition, "Pia", rating=1500, user_id=web.player.id)
    for index in range(15):
        web.service.register_for_edition(edition, f"Player {index + 1:02d}", rating=2000 - index)
    web.service.clock.advance(dt.timedelta(days=3))  # type: ignore[attr-defined]
    done = web.service.tick()
    assert any("started" in step for step in done), done
    pia = web.signed_in("pia")
    html = pia.get("/notifications").text
    assert _badge(html) == 2
    assert "Stage 1 starts." in html
    group = re.search(r'<a href="/t/(\d+)" class="n-group">Your group: ([AB])</a>', html)
    assert group, html
