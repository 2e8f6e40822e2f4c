"""A series' news, awards, certificates and season standings on the web (issue 11 items
4 and 7, R-SE-5): the pages in English and Russian, the Atom feed parsed back, the JSON
API, unknown ids 404 and a bad season refused with the field named — on SQLite and
PostgreSQL."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("fastapi")

from test_series_news import PLAYERS, _series, _service, run_edition
from test_service_support import db_url, store  # noqa: F401

from crosstable.store import Store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

ATOM = "{http://www.w3.org/2005/Atom}"


def test_news_awards_and_standings_pages_feed_and_api(store: Store) -> None:
    service, clock = _service(store)
    sid = _series(service)
    run_edition(service, clock, sid, [("Forfeiter", 2500, None), *PLAYERS], "Forfeiter")
    client = TestClient(create_app(service=service))

    news = client.get(f"/api/v1/series/{sid}/news").json()["news"]
    assert [n["kind"] for n in news] == ["super-final", "final", "groups"]
    assert client.get(f"/api/v1/series/{sid}/news/{news[0]['id']}").json() == news[0]

    page = client.get(f"/series/{sid}/news")
    assert page.status_code == 200
    assert "Workday blitz" in page.text and "won by Player 01" in page.text
    assert "no game played: no award, does not go on" in page.text  # the forfeiter's group
    assert f'href="/t/{news[2]["groups"][0]["tournament"]}/standings"' in page.text
    russian = client.get(f"/series/{sid}/news", headers={"Accept-Language": "ru"})
    assert "Новости" in russian.text and "победитель — Player 01" in russian.text

    feed = client.get(f"/series/{sid}/news.atom")
    assert feed.headers["content-type"].startswith("application/atom+xml")
    root = ET.fromstring(feed.content)
    entries = root.findall(f"{ATOM}entry")
    assert [e.findtext(f"{ATOM}title") for e in entries] == [n["title"] for n in news]
    ids = [e.findtext(f"{ATOM}id") for e in entries]
    assert len(set(ids)) == 3 and all(i and i.startswith("tag:crosstable,") for i in ids)
    assert (
        ET.fromstring(client.get(f"/series/{sid}/news.atom").content)
        .findall(f"{ATOM}entry/{ATOM}id")[0]
        .text
        == ids[0]
    )  # stable: a reader never shows an item twice
    assert "winners A: " in (entries[2].findtext(f"{ATOM}summary") or "")

    awards = client.get(f"/api/v1/series/{sid}/awards").json()["awards"]
    assert len(awards) == 11
    mine = client.get(f"/api/v1/series/{sid}/awards", params={"player": "PLAYER 01"}).json()
    assert {a["name"] for a in mine["awards"]} == {"Player 01"}
    by_user = client.get(f"/api/v1/series/{sid}/awards", params={"user": 101}).json()
    assert by_user["awards"] == mine["awards"]
    badges = client.get("/api/v1/users/101/badges").json()["badges"]
    assert len(badges) == len(mine["awards"]) and badges[0]["series_name"] == "Workday blitz"
    page = client.get(f"/series/{sid}/awards", params={"player": "Player 01"})
    assert page.status_code == 200 and "Player 02" not in page.text
    assert page.text.count('class="badge place-') == len(mine["awards"])
    gold = next(a for a in awards if a["kind"] == "super-final" and a["place"] == 1)
    certificate = client.get(f"/series/{sid}/awards/{gold['id']}")
    assert certificate.status_code == 200
    assert "Certificate" in certificate.text and "Player 01" in certificate.text
    assert "Super-final" in certificate.text and "points: 6" in certificate.text
    russian = client.get(f"/series/{sid}/awards/{gold['id']}", headers={"Accept-Language": "ru"})
    assert "Суперфинал" in russian.text or "Супер" in russian.text

    table = client.get(f"/api/v1/series/{sid}/standings").json()
    assert table["season"] == 2026 and table["order"][0] == "points"
    assert table["rows"][0]["name"] in ("Player 01", "Forfeiter")
    page = client.get(f"/series/{sid}/standings", params={"season": "all"})
    assert page.status_code == 200 and "Order: points" in page.text
    assert page.text.count("<tr><td>") == len(table["rows"])
    russian = client.get(f"/series/{sid}/standings", headers={"Accept-Language": "ru"})
    assert "Таблица сезона" in russian.text and "Порядок: очки" in russian.text

    for url in (
        f"/api/v1/series/{sid + 1}/news",
        f"/api/v1/series/{sid}/news/999",
        f"/series/{sid}/awards/999",
        f"/series/{sid + 1}/standings",
    ):
        assert client.get(url).status_code == 404, url
    bad = client.get(f"/api/v1/series/{sid}/standings", params={"season": "soon"})
    assert 400 <= bad.status_code < 500 and "season" in bad.text
    assert client.get(f"/series/{sid}/news.atom").status_code == 200


def test_a_series_without_news_says_so(store: Store) -> None:
    service, _clock = _service(store)
    sid = _series(service)
    client = TestClient(create_app(service=service))
    assert "No news yet" in client.get(f"/series/{sid}/news").text
    assert "No awards yet" in client.get(f"/series/{sid}/awards").text
    assert "No stage of this season is over yet." in client.get(f"/series/{sid}/standings").text
    root = ET.fromstring(client.get(f"/series/{sid}/news.atom").content)
    assert root.findall(f"{ATOM}entry") == [] and root.findtext(f"{ATOM}updated")


def test_petitions_in_the_api(store: Store) -> None:
    from crosstable.service.accounts import Accounts

    service, _clock = _service(store)
    sid = _series(service)
    accounts = Accounts(store)
    admin = accounts.create_user("ann", "password-ann", is_admin=True)
    player = accounts.create_user("pia", "password-pia")
    tokens = {u.id: accounts.create_token(u.id) for u in (admin, player)}
    client = TestClient(create_app(service=service))

    def auth(user: object, language: str = "en") -> dict[str, str]:
        return {"Authorization": f"Bearer {tokens[user.id]}", "Accept-Language": language}  # type: ignore[attr-defined]

    names = [player.display_name, *(f"Class Two {i}" for i in range(1, 11))]
    url = f"/api/v1/series/{sid}/petitions"
    assert client.post(url, json={"level": "class 2", "players": names}).status_code == 401
    others = [f"Class Two {i}" for i in range(1, 12)]
    answer = client.post(url, json={"level": "class 2", "players": others}, headers=auth(player))
    assert answer.status_code == 422 and "is not among the petition's players" in answer.text
    short = client.post(url, json={"level": "class 2", "players": names[:10]}, headers=auth(player))
    assert short.status_code == 422 and "needs at least 11" in short.text
    russian = client.post(
        url, json={"level": "class 2", "players": names[:10]}, headers=auth(player, "ru")
    )
    assert "для турнира класса или уровня нужно не меньше 11" in russian.text
    created = client.post(url, json={"level": "class 2", "players": names}, headers=auth(player))
    assert created.status_code == 201, created.text
    petition = created.json()
    assert petition["state"] == "pending" and petition["players"][0]["user"] == player.id
    assert client.get(url).json()["petitions"] == [petition]
    accept = f"/api/v1/petitions/{petition['id']}/accept"
    assert client.post(accept).status_code == 401
    assert client.post(accept, headers=auth(player)).status_code == 403
    done = client.post(accept, headers=auth(admin))
    assert done.status_code == 200 and done.json()["state"] == "accepted"
    tid = done.json()["tournament"]
    assert client.get(f"/api/v1/tournaments/{tid}").status_code == 200
    again = client.post(accept, headers=auth(admin))
    assert again.status_code == 422 and "was accepted already" in again.text
    refuse = f"/api/v1/petitions/{petition['id']}/refuse"
    assert client.post(refuse, json={"reason": "x"}, headers=auth(player)).status_code == 403
    second = client.post(url, json={"level": "class 3", "players": names}, headers=auth(player))
    refused = client.post(
        f"/api/v1/petitions/{second.json()['id']}/refuse",
        json={"reason": "not all of class 3"},
        headers=auth(admin),
    )
    assert refused.json()["reason"] == "not all of class 3"
    assert client.post("/api/v1/petitions/999/accept", headers=auth(admin)).status_code == 404
    assert client.get(url, params={"state": "refused"}).json()["petitions"][0]["state"] == "refused"
