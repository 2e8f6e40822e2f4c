"""The series' pages (issue 11 item 7) on SQLite and PostgreSQL: moments written in the
series' zone for the browser's script (zones.js) to rewrite, the registration button's
states (open, extended, closed, started; registered or not; signed in or not), an
edition's groups with their standings and qualifiers marked (provisional while the stage
is played, the recorded qualifiers once it ended, a forfeit-only player not going on, the
winner of the last stage), the organiser's edit form and the JSON API's PATCH, English
and Russian."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import random
import re

import pytest

pytest.importorskip("fastapi")

from test_series_service import current_groups, play_all
from test_service_support import db_url, store  # noqa: F401
from test_web_series import Web, _csrf

from crosstable.store import Store
from tests.asgi_client import TestClient


@pytest.fixture
def web(store: Store) -> Web:
    return Web(store)


def _phase(html: str) -> str:
    found = re.search(r'id="registration" data-phase="(\w+)" data-mine="(\w+)"', html)
    assert found, html
    return f"{found.group(1)}/{found.group(2)}"


def _field(web: Web, sid: int, players: int, pia_rating: int | None = None) -> int:
    edition = web.service.series_info(sid)["editions"][0]["id"]
    if pia_rating is not None:
        web.service.register_for_edition(
            edition, "Pia Player", rating=pia_rating, user_id=web.player.id
        )
    for index in range(players):
        web.service.register_for_edition(edition, f"Player {index + 1:02d}", rating=2000 - index)
    return int(edition)


def test_times_are_stated_in_the_series_zone_for_the_reader_zone_script(web: Web) -> None:
    sid = web.create()["id"]
    html = TestClient(web.app).get(f"/series/{sid}").text
    assert "Times in the series' zone, Europe/Moscow." in html
    assert "data-reader-zone" in html and "/static/zones.js" in html
    # Monday 4 May 2026 18:00 in Moscow is 15:00 UTC
    assert re.search(
        r'<time datetime="2026-05-04T15:00:00\+00:00" data-local>'
        r"[^<]*18:00[^<]*\(Europe/Moscow\)</time>",
        html,
    )
    for page in ("news", "awards", "standings"):  # the series' other pages, linked
        assert f'href="/series/{sid}/{page}"' in html
        assert TestClient(web.app).get(f"/series/{sid}/{page}").status_code == 200
    listed = TestClient(web.app).get("/series").text
    assert '<time datetime="2026-05-04T15:00:00+00:00" data-local>' in listed


def test_the_registration_button_states(web: Web) -> None:
    sid = web.create()["id"]  # no pre-registration: the deadline may be extended
    pre = web.create(name="Pre", pre_registration=True)["id"]  # opened at the same moment
    guest = TestClient(web.app)
    assert _phase(guest.get(f"/series/{sid}").text) == "open/no"
    assert "Sign in to register" in guest.get(f"/series/{sid}").text
    pia = web.signed_in("pia")
    page = pia.get(f"/series/{sid}").text
    assert _phase(page) == "open/no" and 'id="register"' in page
    pia.post(f"/series/{sid}/editions/1/register", data={"csrf_token": _csrf(page)})
    page = pia.get(f"/series/{sid}").text
    assert _phase(page) == "open/yes" and 'id="withdraw"' in page and 'id="register"' not in page
    # past the deadline (17:00 Moscow on Monday) with 1 player: the last table is short
    web.service.clock.advance(dt.timedelta(days=2, hours=20, minutes=30))  # type: ignore[attr-defined]
    page = pia.get(f"/series/{sid}").text
    assert _phase(page) == "extended/yes" and "Registration extended" in page
    ann = web.signed_in("ann")
    other = ann.get(f"/series/{sid}/editions/1").text
    assert _phase(other) == "extended/no" and 'id="register"' in other
    # a series with pre-registration is never extended: closed after its deadline
    assert _phase(pia.get(f"/series/{pre}").text) == "closed/no"
    assert 'id="register"' not in pia.get(f"/series/{pre}").text
    assert "Sign in to register" not in guest.get(f"/series/{pre}").text


def test_registering_from_the_edition_page_comes_back_to_it(web: Web) -> None:
    sid = web.create()["id"]
    pia = web.signed_in("pia")
    url = f"/series/{sid}/editions/1"
    page = pia.get(url).text
    done = pia.post(
        f"{url}/register",
        data={"csrf_token": _csrf(page)},
        headers={"referer": f"http://testserver{url}"},
        follow_redirects=False,
    )
    assert done.headers["location"] == url


def test_the_groups_standings_and_qualifiers(web: Web) -> None:
    sid = web.create()["id"]
    edition = _field(web, sid, 15, pia_rating=2600)
    web.service.clock.advance(dt.timedelta(days=3))  # type: ignore[attr-defined]
    web.service.tick()
    pia = web.signed_in("pia")
    url = f"/series/{sid}/editions/1"
    html = pia.get(url).text
    info = TestClient(web.app).get(f"/api/v1/series/{sid}/editions/1").json()
    (stage,) = info["stages"]
    k = stage["qualifiers_per_group"]
    assert html.count('data-mark="qualifying"') == k * len(stage["groups"])
    assert "the marked places qualify if it ended now" in html
    assert 'id="my-group"' in html
    mine = r'<li class="[^"]*mine" data-mark="\w*"><span class="meta">[0-9–]+\.</span> Pia Player'
    assert re.search(mine, html)
    assert html.count('class="group-crosstable"') == len(stage["groups"])  # a small stage
    assert 'id="registration"' not in html  # the edition has started: no button
    _kind, tids = current_groups(web.service.store, edition)
    play_all(web.service, tids, random.Random(3), forfeiter="Player 02")
    web.service.tick()
    html = pia.get(url).text
    info = TestClient(web.app).get(f"/api/v1/series/{sid}/editions/1").json()
    assert len(info["stages"]) >= 2
    going = sum(g["players"] for g in info["stages"][1]["groups"])
    first = html.split('id="stage-2"')[0]
    assert first.count('data-mark="qualified"') == going
    assert "qualifying place" not in first
    # the forfeit-only player is marked and not qualified, whatever his points
    line = re.search(
        r'<li class="([^"]*)"[^>]*><span class="meta">[^<]*</span> Player 02 ·.*?</li>', first, re.S
    )
    assert line and "qualified" not in line.group(1)
    assert "no game played: does not go on" in line.group(0)
    ru = pia.get(url, headers={"Accept-Language": "ru"}).text
    assert "вышел" in ru and "Этап 1" in ru


def test_the_winner_of_the_last_stage(web: Web) -> None:
    sid = web.create(super_final_players=0, final_min=6)["id"]
    edition = _field(web, sid, 16)
    web.service.clock.advance(dt.timedelta(days=3))  # type: ignore[attr-defined]
    web.service.tick()
    rng = random.Random(5)
    for _ in range(5):
        info = web.service.edition_info(edition)
        if info["state"] == "finished":
            break
        _kind, tids = current_groups(web.service.store, edition)
        play_all(web.service, tids, rng)
        web.service.tick()
    assert web.service.edition_info(edition)["state"] == "finished"
    html = TestClient(web.app).get(f"/series/{sid}/editions/1").text
    assert "The edition is finished." in html
    last = html.rsplit('class="series-stage"', 1)[1]
    assert last.count('data-mark="winner"') == 1 and "🏆" in last


def test_the_edit_form_and_who_may_use_it(web: Web) -> None:
    sid = web.create()["id"]  # created by ann (an administrator) through the API
    guest = TestClient(web.app)
    assert guest.get(f"/series/{sid}/edit", follow_redirects=False).status_code == 303
    pia = web.signed_in("pia")
    assert pia.get(f"/series/{sid}/edit").status_code == 403
    assert 'id="edit-series"' not in pia.get(f"/series/{sid}").text
    ann = web.signed_in("ann")
    assert 'id="edit-series"' in ann.get(f"/series/{sid}").text
    form = ann.get(f"/series/{sid}/edit")
    assert form.status_code == 200 and 'value="Evening blitz"' in form.text
    csrf = _csrf(form.text)
    fields = {
        "csrf_token": csrf,
        "name": "Evening rapid",
        "max_group_size": "8",
        "qualifiers_per_group": "2",
        "final_min": "6",
        "group_cycles": "1",
        "final_cycles": "1",
        "super_final_players": "4",
        "super_final_cycles": "2",
        "tiebreaks": "SB, WIN",
        "time_control": "G/15 d5",
        "pre_registration": "1",
        "deadline_minutes": "30",
    }
    saved = ann.post(f"/series/{sid}/edit", data=fields)
    assert saved.status_code == 200 and "Saved." in saved.text
    info = web.service.series_info(sid)
    assert (info["name"], info["max_group_size"], info["tiebreaks"]) == (
        "Evening rapid",
        8,
        "SB,WIN",
    )
    assert info["pre_registration"] and info["deadline_minutes"] == 30
    assert info["kind"] == "workdays" and info["start_time"] == "18:00"  # the calendar stays
    history = web.service.series_history(sid)
    assert any("name: Evening blitz → Evening rapid" in line["summary"] for line in history)
    again = ann.post(f"/series/{sid}/edit", data=fields)
    assert "Nothing changed." in again.text
    bad = ann.post(f"/series/{sid}/edit", data=fields | {"max_group_size": "1"})
    assert "max_group_size" in bad.text or "group" in bad.text
    assert web.service.series_info(sid)["max_group_size"] == 8
    bad = ann.post(f"/series/{sid}/edit", data=fields | {"tiebreaks": "XYZ"})
    assert "XYZ" in bad.text and web.service.series_info(sid)["tiebreaks"] == "SB,WIN"
    # the JSON API: the organiser who created a series edits it, another master does not
    api = TestClient(web.app)
    patched = api.patch(
        f"/api/v1/series/{sid}", json={"time_control": "G/10"}, headers=web.auth("ann")
    )
    assert patched.status_code == 200 and patched.json()["changed"] == [
        "time_control: G/15 d5 → G/10"
    ]
    refused = api.patch(f"/api/v1/series/{sid}", json={"name": "x"}, headers=web.auth("pia"))
    assert refused.status_code == 403 and "organiser" in refused.json()["detail"]
    assert api.patch(f"/api/v1/series/{sid}", json={"name": "x"}).status_code == 401
    assert (
        api.patch("/api/v1/series/999", json={"name": "x"}, headers=web.auth("ann")).status_code
        == 404
    )
    wrong = api.patch(f"/api/v1/series/{sid}", json={"max_group_size": 1}, headers=web.auth("ann"))
    assert wrong.status_code == 422 and "max_group_size" in wrong.text


def test_a_master_edits_the_series_he_created_only(web: Web) -> None:
    from crosstable.service.series import SeriesSettings

    max_ = web.accounts.create_user("max", "password-max", is_master=True)
    token = web.accounts.create_token(max_.id)
    api = TestClient(web.app)
    headers = {"Authorization": f"Bearer {token}"}
    made = api.post(
        "/api/v1/series",
        json={"name": "Max's", "kind": "weekend", "start_time": "12:00", "zone": "UTC"},
        headers=headers,
    )
    assert made.status_code == 201, made.text
    mine = made.json()["id"]
    assert (
        api.patch(f"/api/v1/series/{mine}", json={"name": "Max's own"}, headers=headers).status_code
        == 200
    )
    theirs = web.service.create_series(SeriesSettings("Not his", "weekend", "12:00", "UTC"))
    refused = api.patch(f"/api/v1/series/{theirs}", json={"name": "Mine now"}, headers=headers)
    assert refused.status_code == 403
    assert web.service.series_info(theirs)["name"] == "Not his"
