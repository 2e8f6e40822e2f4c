"""A Bughouse event through the JSON API, on SQLite and PostgreSQL: created, its pairs
added with the team routes, started, results entered, the first-finished game marked,
a Swiss's rounds paired, the table read; refusals are structured and change nothing."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import Store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient


@pytest.fixture
def site(store: Store) -> Iterator[tuple[TestClient, Service, dict[str, str], dict[str, str]]]:
    service = make_service(store)
    accounts = Accounts(service.store)
    boss = accounts.create_user("boss", "password-boss", is_admin=True)
    guest = accounts.create_user("guest", "password-guest")
    with TestClient(create_app(service=service)) as client:
        yield (
            client,
            service,
            {"Authorization": f"Bearer {accounts.create_token(boss.id, 'api')}"},
            {"Authorization": f"Bearer {accounts.create_token(guest.id, 'api')}"},
        )


def made(client: TestClient, auth: dict[str, str], pairs: int, **regulations: Any) -> int:
    answer = client.post(
        "/api/v1/bughouse-tournaments", json={"name": "Bughouse", **regulations}, headers=auth
    )
    assert answer.status_code == 201, answer.text
    tid = int(answer.json()["id"])
    for number in range(1, pairs + 1):
        name = {"name": f"Pair {number}"}
        client.post(f"/api/v1/tournaments/{tid}/teams", json=name, headers=auth)
        for name in ("A", "B"):
            member = {"name": f"{name}{number}", "rating": 1800 + number}
            answer = client.post(
                f"/api/v1/tournaments/{tid}/teams/{number}/members", json=member, headers=auth
            )
            assert answer.status_code == 201, answer.text
    assert client.post(f"/api/v1/tournaments/{tid}/start", headers=auth).status_code == 200
    return tid


def result(client: TestClient, auth: dict[str, str], tid: int, rnd: int, board: int) -> None:
    answer = client.post(
        f"/api/v1/tournaments/{tid}/rounds/{rnd}/boards/{board}/result",
        json={"result": "1-0"},
        headers=auth,
    )
    assert answer.status_code == 200, answer.text


def test_r_x_6_a_bughouse_round_robin_through_the_json_api(site: Any) -> None:
    client, _service, auth, guest = site
    tid = made(client, auth, 4, rule="first")
    data = client.get(f"/api/v1/tournaments/{tid}/bughouse").json()
    assert len(data["matches"]) == 6 and data["tiebreaks"] == ["GP", "EDE", "BH:MP"]
    result(client, auth, tid, 1, 1)
    result(client, auth, tid, 1, 2)
    url = f"/api/v1/tournaments/{tid}/rounds/1/bughouse/first"
    assert client.post(url, json={"board": 2}, headers=guest).status_code == 403
    marked = client.post(url, json={"board": 2}, headers=auth)
    assert marked.status_code == 200 and marked.json()["kind"] == "bughouse-first"
    data = client.get(f"/api/v1/tournaments/{tid}/bughouse").json()
    card = data["matches"][0]
    assert card["first"] == 2 and card["match_points"] == [0, 2]
    assert data["rows"][0]["pair"] == card["black"] and data["rows"][0]["MP"] == 2
    revision = data["revision"]
    for body, status, words in (
        ({"board": 9}, 404, "no board 9"),
        ({"board": 0}, 422, "board"),
        ({}, 422, "board"),
    ):
        bad = client.post(url, json=body, headers=auth)
        assert bad.status_code == status and words in str(bad.json()["detail"])
    pair = client.post(f"/api/v1/tournaments/{tid}/bughouse/pair", headers=auth)
    assert pair.status_code == 422 and "paired at the start" in pair.json()["detail"]
    assert client.get(f"/api/v1/tournaments/{tid}/bughouse").json()["revision"] == revision
    assert client.get("/api/v1/tournaments/999/bughouse").status_code == 404
    for body in ({"name": "X", "rule": "most"}, {"name": "X", "rounds": 3}, {"name": " "}):
        bad = client.post("/api/v1/bughouse-tournaments", json=body, headers=auth)
        assert bad.status_code == 422, body
    made_by_guest = client.post("/api/v1/bughouse-tournaments", json={"name": "X"}, headers=guest)
    assert made_by_guest.status_code == 403


def test_r_x_6_a_swiss_of_pairs_through_the_json_api(site: Any) -> None:
    client, _service, auth, _guest = site
    tid = made(client, auth, 3, swiss=True, rounds=2)
    paired = client.post(f"/api/v1/tournaments/{tid}/bughouse/pair", headers=auth)
    assert paired.status_code == 201, paired.text
    assert paired.json()["data"] == {"round": 1, "matches": [[1, 2]], "bye": 3}
    again = client.post(f"/api/v1/tournaments/{tid}/bughouse/pair", headers=auth)
    assert again.status_code == 422 and "not decided yet" in again.json()["detail"]
    result(client, auth, tid, 1, 1)
    result(client, auth, tid, 1, 2)
    second = client.post(f"/api/v1/tournaments/{tid}/bughouse/pair", headers=auth).json()
    assert second["data"]["round"] == 2 and second["data"]["bye"] != 3
    rows = client.get(f"/api/v1/tournaments/{tid}/bughouse").json()["rows"]
    assert sum(r["MP"] for r in rows) == 2 + 2 + 2  # a drawn match (1-1), two byes of 2 MP
