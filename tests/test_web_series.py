"""A portal's series on the web, through HTTP, on SQLite and PostgreSQL (issue 11 item 7;
R-SE-1, R-SE-2): the list and series pages, the iCalendar feed, the creation form and the
JSON API (create, read, register and withdraw the caller), who may do what, English and
Russian."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import Store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

SERIES = {
    "name": "Evening blitz",
    "kind": "workdays",
    "start_time": "18:00",
    "zone": "Europe/Moscow",
}


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert match
    return match.group(1)


class Web:
    def __init__(self, store: Store) -> None:
        self.service: Service = make_service(store)
        self.accounts = Accounts(store)
        self.app = create_app(service=self.service)
        self.admin = self.accounts.create_user("ann", "password-ann", is_admin=True)
        self.player = self.accounts.create_user("pia", "password-pia")
        self.tokens = {
            name: self.accounts.create_token(user.id)
            for name, user in (("ann", self.admin), ("pia", self.player))
        }

    def signed_in(self, name: str) -> TestClient:
        client = TestClient(self.app)
        token = _csrf(client.get("/signin").text)
        answer = client.post(
            "/signin",
            data={"username": name, "password": f"password-{name}", "csrf_token": token},
            follow_redirects=False,
        )
        assert answer.status_code == 303
        return client

    def auth(self, name: str, language: str = "en") -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[name]}", "Accept-Language": language}

    def create(self, **values: Any) -> dict[str, Any]:
        client = TestClient(self.app)
        answer = client.post("/api/v1/series", json=SERIES | values, headers=self.auth("ann"))
        assert answer.status_code == 201, answer.text
        return dict(answer.json())


@pytest.fixture
def web(store: Store) -> Web:
    return Web(store)


def test_api_create_read_register_withdraw(web: Web) -> None:
    created = web.create()
    sid = created["id"]
    assert created["name"] == "Evening blitz"
    assert [e["number"] for e in created["editions"]] == [1]
    client = TestClient(web.app)
    listed = client.get("/api/v1/series").json()["series"]
    assert [s["id"] for s in listed] == [sid]
    assert listed[0]["next"]["number"] == 1
    # the clock starts on Friday 1 May 2026, 18:00 UTC (21:00 in Moscow): the next workday
    # slots are Monday 4 May, Tuesday 5 May … at 18:00 +03:00
    one = client.get(f"/api/v1/series/{sid}").json()
    assert one["upcoming_slots"][:2] == ["2026-05-04T18:00:00+03:00", "2026-05-05T18:00:00+03:00"]
    url = f"/api/v1/series/{sid}/editions/1/registrations"
    answer = client.post(url, headers=web.auth("pia"))
    assert answer.status_code == 201, answer.text
    assert answer.json()["registered"] == 1
    again = client.post(url, headers=web.auth("pia"))
    assert again.status_code == 422 and "already" in again.json()["detail"]
    edition = client.get(f"/api/v1/series/{sid}/editions/1").json()
    assert edition["registered"] == 1 and edition["stages"] == []
    gone = client.delete(url, headers=web.auth("pia"))
    assert gone.status_code == 200 and gone.json()["registered"] == 0
    twice = client.delete(url, headers=web.auth("pia"))
    assert twice.status_code in (404, 422)
    assert client.get(f"/api/v1/series/{sid}/editions/9").status_code == 404
    assert client.get("/api/v1/series/999").status_code == 404


def test_api_who_may(web: Web) -> None:
    client = TestClient(web.app)
    assert client.post("/api/v1/series", json=SERIES).status_code == 401
    refused = client.post("/api/v1/series", json=SERIES, headers=web.auth("pia"))
    assert refused.status_code == 403 and "masters" in refused.json()["detail"]
    sid = web.create()["id"]
    url = f"/api/v1/series/{sid}/editions/1/registrations"
    assert client.post(url).status_code == 401
    assert client.delete(url).status_code == 401


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("kind", "yearly", "calendar kind"),
        ("zone", "Mars/Olympus", "time zone"),
        ("start_time", "25:99", "start time"),
        ("name", "   ", "name"),
        ("max_group_size", 1, "max_group_size"),
    ],
)
def test_api_create_names_the_field(web: Web, field: str, value: Any, words: str) -> None:
    client = TestClient(web.app)
    answer = client.post("/api/v1/series", json=SERIES | {field: value}, headers=web.auth("ann"))
    assert 400 <= answer.status_code < 500
    assert words in answer.text
    assert client.get("/api/v1/series").json()["series"] == []


def test_pages_register_and_withdraw(web: Web) -> None:
    sid = web.create()["id"]
    guest = TestClient(web.app)
    listed = guest.get("/series")
    assert listed.status_code == 200
    assert "Evening blitz" in listed.text and "Monday to Friday at 18:00" in listed.text
    assert "Europe/Moscow" in listed.text
    page = guest.get(f"/series/{sid}")
    assert "Sign in to register" in page.text and "0 players registered" in page.text
    pia = web.signed_in("pia")
    page = pia.get(f"/series/{sid}")
    csrf = _csrf(page.text)
    assert f'action="/series/{sid}/editions/1/register"' in page.text
    done = pia.post(
        f"/series/{sid}/editions/1/register", data={"csrf_token": csrf}, follow_redirects=False
    )
    assert done.status_code == 303
    page = pia.get(f"/series/{sid}")
    assert "1 player registered" in page.text and "You are registered." in page.text
    assert f'action="/series/{sid}/editions/1/withdraw"' in page.text
    forged = pia.post(f"/series/{sid}/editions/1/withdraw", data={"csrf_token": "x"})
    assert forged.status_code == 403
    assert web.service.edition_info(1)["registered"] == 1
    pia.post(f"/series/{sid}/editions/1/withdraw", data={"csrf_token": csrf})
    assert web.service.edition_info(1)["registered"] == 0
    edition = guest.get(f"/series/{sid}/editions/1")
    assert edition.status_code == 200 and "No stage has started yet." in edition.text


def test_pages_in_russian(web: Web) -> None:
    sid = web.create()["id"]
    client = TestClient(web.app)
    ru = {"Accept-Language": "ru"}
    assert "С понедельника по пятницу в 18:00" in client.get("/series", headers=ru).text
    page = client.get(f"/series/{sid}", headers=ru).text
    assert "Войдите, чтобы зарегистрироваться" in page


def test_ical_feed(web: Web) -> None:
    sid = web.create()["id"]
    answer = TestClient(web.app).get(f"/series/{sid}.ics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/calendar")
    body = answer.text
    assert body.count("BEGIN:VEVENT") == 30
    assert "DTSTART;TZID=Europe/Moscow:20260504T180000" in body
    assert "Evening blitz" in body


def test_creation_form(web: Web) -> None:
    pia = web.signed_in("pia")
    assert pia.get("/series/new").status_code == 403
    ann = web.signed_in("ann")
    form = ann.get("/series/new")
    assert form.status_code == 200
    csrf = _csrf(form.text)
    bad = ann.post(
        "/series/new",
        data={
            "csrf_token": csrf,
            "name": "Weekly",
            "kind": "weekly",
            "start_time": "19:00",
            "zone": "Europe/Berlin",
            "weekday": "someday",
        },
    )
    # a form's error comes back as the site's forms do: on the form, the field named
    assert bad.status_code == 200 and "weekday &#39;someday&#39;: one of mon" in bad.text
    assert TestClient(web.app).get("/api/v1/series").json()["series"] == []
    made = ann.post(
        "/series/new",
        data={
            "csrf_token": csrf,
            "name": "Weekly",
            "kind": "weekly",
            "start_time": "19:00",
            "zone": "Europe/Berlin",
            "weekday": "wed",
        },
        follow_redirects=False,
    )
    assert made.status_code == 303
    sid = int(made.headers["location"].rsplit("/", 1)[1])
    assert web.service.series_info(sid)["weekday"] == 2
    assert "Every week on Wednesday at 19:00" in ann.get(f"/series/{sid}").text


def test_edition_page_shows_the_groups_of_a_started_stage(web: Web) -> None:
    sid = web.create()["id"]
    edition = web.service.series_info(sid)["editions"][0]["id"]
    for index in range(16):
        web.service.register_for_edition(edition, f"Player {index + 1:02d}", rating=2000 - index)
    # Monday 4 May 18:00 Moscow is 15:00 UTC; the clock stands at Friday 1 May 18:00 UTC
    web.service.clock.advance(dt.timedelta(days=3))  # type: ignore[attr-defined]
    done = web.service.tick()
    assert any("started" in step for step in done), done
    client = TestClient(web.app)
    info = client.get(f"/api/v1/series/{sid}/editions/1").json()
    (stage,) = info["stages"]
    assert stage["kind"] == "groups" and [g["letter"] for g in stage["groups"]] == ["A", "B"]
    assert sum(g["players"] for g in stage["groups"]) == 16
    page = client.get(f"/series/{sid}/editions/1").text
    for group in stage["groups"]:
        assert f'<a href="/t/{group["tournament"]}">Group {group["letter"]}</a>' in page
    assert "Stage 1" in page
    assert f"{stage['qualifiers_per_group']} qualifiers per group" in page
    ru = client.get(f"/series/{sid}/editions/1", headers={"Accept-Language": "ru"}).text
    assert "Группа A" in ru and "Этап 1" in ru
    series_page = client.get(f"/series/{sid}").text
    assert "Editions under way" in series_page and "Past editions" not in series_page
    # the edition is under way: registration through the API is refused with the reason
    late = client.post(f"/api/v1/series/{sid}/editions/1/registrations", headers=web.auth("pia"))
    assert late.status_code == 422 and "closed" in late.json()["detail"]
