"""A knockout of Bughouse pairs on the web, on SQLite and PostgreSQL: created and
continued through the JSON API, its bracket in the API's read; the Bughouse page shows
the bracket and continues it with its button, its live part and its prints (match
sheets, the pairs' table) answer; the team page links to the Bughouse page; refusals
are structured and change nothing."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import Store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.test_bughouse_page import sign_in


@pytest.fixture
def site(store: Store) -> Iterator[tuple[TestClient, Service, dict[str, str]]]:
    service = make_service(store)
    accounts = Accounts(service.store)
    boss = accounts.create_user("boss", "password-boss", is_admin=True)
    with TestClient(create_app(service=service)) as client:
        yield client, service, {"Authorization": f"Bearer {accounts.create_token(boss.id, 'api')}"}


def knockout(client: TestClient, auth: dict[str, str], pairs: int, **regulations: Any) -> int:
    body = {"name": "Bughouse cup", "knockout": True, **regulations}
    answer = client.post("/api/v1/bughouse-tournaments", json=body, headers=auth)
    assert answer.status_code == 201, answer.text
    tid = int(answer.json()["id"])
    for number in range(1, pairs + 1):
        client.post(
            f"/api/v1/tournaments/{tid}/teams", json={"name": f"Pair {number}"}, headers=auth
        )
        for name in ("A", "B"):
            member = {"name": f"{name}{number}", "rating": 1800 + number}
            url = f"/api/v1/tournaments/{tid}/teams/{number}/members"
            assert client.post(url, json=member, headers=auth).status_code == 201
    return tid


def result(
    client: TestClient, auth: dict[str, str], tid: int, rnd: int, board: int, res: str
) -> None:
    url = f"/api/v1/tournaments/{tid}/rounds/{rnd}/boards/{board}/result"
    answer = client.post(url, json={"result": res}, headers=auth)
    assert answer.status_code == 200, answer.text


def test_r_x_6_a_knockout_of_pairs_through_the_json_api_and_its_page(site: Any) -> None:
    client, _service, auth = site
    tid = knockout(client, auth, 3, tie_rule="playoff", match_format="1")
    teams = client.get(f"/t/{tid}/teams").text
    assert f'href="/t/{tid}/bughouse"' in teams  # the team page links to the Bughouse page
    assert client.post(f"/api/v1/tournaments/{tid}/start", headers=auth).status_code == 200
    data = client.get(f"/api/v1/tournaments/{tid}/bughouse").json()
    assert (
        data["system"] == "knockout" and data["bracket"]["tie_rule"] == "rapid:2,blitz:2,armageddon"
    )
    assert data["bracket"]["rounds"][0]["byes"][0]["name"] == "Pair 3"  # the best rated
    assert len(data["matches"]) == 1 and len(data["matches"][0]["boards"]) == 2
    result(client, auth, tid, 1, 1, "1-0")
    result(client, auth, tid, 1, 2, "1-0")  # one game each: a drawn match
    paired = client.post(f"/api/v1/tournaments/{tid}/bughouse/pair", headers=auth)
    assert paired.status_code == 201, paired.text
    assert [m["kind"] for m in paired.json()["data"]["matches"]] == ["rapid", "rapid"]
    revision = client.get(f"/api/v1/tournaments/{tid}/bughouse").json()["revision"]
    again = client.post(f"/api/v1/tournaments/{tid}/bughouse/pair", headers=auth)
    assert again.status_code == 422 and "is not over" in again.json()["detail"]
    assert client.get(f"/api/v1/tournaments/{tid}/bughouse").json()["revision"] == revision
    for url in (f"/t/{tid}", f"/t/{tid}/bracket"):  # the knockout's own pages: the pairs
        shown = client.get(url)
        assert shown.status_code == 200 and 'id="slot-' in shown.text and "Pair 3" in shown.text
    for what in ("crosstable", "pairings", "slips", "certificates"):  # the common prints
        assert client.get(f"/t/{tid}/print/{what}").status_code == 200, what
    same = client.get(f"/api/v1/tournaments/{tid}/bracket", headers=auth).json()
    assert (
        same["rounds"]
        == client.get(f"/api/v1/tournaments/{tid}/bughouse").json()["bracket"]["rounds"]
    )
    page = client.get(f"/t/{tid}/bughouse").text
    assert 'id="bughouse-bracket"' in page and "Pair 3" in page and 'id="slot-' in page
    assert f'data-live-refresh="/t/{tid}/bughouse/body"' in page
    body = client.get(f"/t/{tid}/bughouse/body")
    assert body.status_code == 200 and 'id="bughouse-table"' in body.text
    sheets = client.get(f"/t/{tid}/bughouse/print/sheets?round=2")
    assert sheets.status_code == 200 and sheets.text.count('class="sheet bughouse-sheet"') == 1
    everything = client.get(f"/t/{tid}/bughouse/print/sheets").text
    assert everything.count('class="sheet bughouse-sheet"') == 3
    table = client.get(f"/t/{tid}/bughouse/print/table")
    assert table.status_code == 200 and 'id="bughouse-print-table"' in table.text
    assert "A1" in table.text and "B1" in table.text  # the pair's players beside it
    ru = client.get(f"/t/{tid}/bughouse/print/sheets?round=2", headers={"Accept-Language": "ru"})
    assert "Подписи" in ru.text
    assert client.get(f"/t/{tid}/bughouse/print/sheets?round=9").status_code == 404
    assert client.get(f"/t/{tid}/bughouse/print/nothing").status_code == 404
    for body_in, words in (
        ({"name": "X", "knockout": True, "swiss": True}, "choose one"),
        ({"name": "X", "knockout": True, "tie_rule": "coin"}, "tie_rule"),
        ({"name": "X", "knockout": True, "match_format": "zero"}, "match_format"),
    ):
        bad = client.post("/api/v1/bughouse-tournaments", json=body_in, headers=auth)
        assert bad.status_code == 422 and words in str(bad.json()["detail"]), bad.text


def test_r_x_6_the_form_creates_a_bughouse_knockout_and_refuses_a_bad_one(site: Any) -> None:
    client, service, _auth = site
    token = sign_in(client)
    form = client.get("/bughouse/new")
    assert form.status_code == 200 and 'id="bughouse-new"' in form.text
    assert 'href="/bughouse/new"' in client.get("/teams/new").text
    made = client.post(
        "/bughouse/new",
        data={
            "name": "Friday cup",
            "rule": "first",
            "format": "knockout",
            "tie_rule": "lots",
            "match_format": "2",
            "third_place": "yes",
            "csrf_token": token,
        },
        follow_redirects=False,
    )
    assert made.status_code == 303, made.text
    tid = int(made.headers["location"].split("/")[2])
    service.add_team(tid, "Knights")
    start = client.get(f"/t/{tid}/teams").text  # the team page starts it as a knockout
    assert "Start: make the bracket and pair round 1" in start
    details = service.crosstable(tid)[0].settings.regulations
    assert (details["bughouse"], details["tie_rule"], details["match_format"]) == (
        "first",
        "lots",
        "2",
    )
    assert details["third_place"] == "yes"
    count = len(service.tournaments())
    for data, words in (
        ({"name": "X", "format": "ladder"}, "format"),
        ({"name": " ", "format": "knockout"}, "name"),
        ({"name": "X", "format": "knockout", "tie_rule": "coin"}, "tie_rule"),
    ):
        bad = client.post("/bughouse/new", data={**data, "csrf_token": token})
        flash = re.search(r'class="flash error" role="alert">([^<]*)<', bad.text)
        assert flash is not None and words in flash.group(1), bad.text  # said on the page
    assert len(service.tournaments()) == count
