"""The Bughouse page, on SQLite and PostgreSQL: the pairs' table and the matches with
the game that finished first; the organiser marks that game and pairs a Swiss's next
round with the page's buttons; a visitor sees no buttons; English, Russian, Armenian."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.core.teams.settings import TeamSettings
from crosstable.service import PlayerInfo, Service
from crosstable.service.accounts import Accounts
from crosstable.store import Store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient


@pytest.fixture
def site(store: Store) -> Iterator[tuple[TestClient, Service, Accounts]]:
    service = make_service(store)
    accounts = Accounts(service.store)
    boss = accounts.create_user("boss", "password-boss", is_admin=True)
    assert boss
    with TestClient(create_app(service=service)) as client:
        yield client, service, accounts


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert found
    return found.group(1)


def sign_in(client: TestClient) -> str:
    token = csrf_of(client.get("/signin").text)
    answer = client.post(
        "/signin",
        data={"username": "boss", "password": "password-boss", "csrf_token": token},
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text
    return csrf_of(client.get("/").text)


def event(client: TestClient, service: Service, **regulations: Any) -> int:
    token = sign_in(client)
    made = client.post(
        "/api/v1/bughouse-tournaments",
        json={"name": "Bughouse", **regulations},
        headers={"X-CSRF-Token": token},
    )
    assert made.status_code == 201, made.text
    tid = int(made.json()["id"])
    for number in (1, 2, 3):
        service.add_team(tid, f"Pair {number}")
        for name in ("A", "B"):
            service.add_team_member(tid, number, PlayerInfo(f"{name}{number}", 1800 + number))
    service.start(tid)
    return tid


def test_r_x_6_the_organiser_marks_the_first_finished_game_on_the_page(site: Any) -> None:
    client, service, _accounts = site
    tid = event(client, service, rule="first")
    match = service.bughouse_matches(tid)[0]
    for g in match.match.games:
        service.record_result(tid, 1, g.board, "1-0")
    page = client.get(f"/t/{tid}/bughouse").text
    assert "The game that finished first decides each match." in page
    assert page.count(f'action="/t/{tid}/bughouse/first"') == 2 * 3  # every board of 3 rounds
    token = csrf_of(page)
    board = match.match.games[1].board
    marked = client.post(
        f"/t/{tid}/bughouse/first",
        data={"csrf_token": token, "round": "1", "board": str(board)},
        follow_redirects=True,
    )
    assert marked.status_code == 200 and "finished first" in marked.text
    assert service.bughouse_matches(tid)[0].first == board
    assert re.search(rf'data-pair="{match.match.black}">\s*<td class="count">1<', marked.text)
    bad = client.post(
        f"/t/{tid}/bughouse/first",
        data={"csrf_token": token, "round": "1", "board": "99"},
        follow_redirects=True,
    )  # refused, said on the page, nothing changed
    assert "round 1 has no board 99" in bad.text
    assert service.bughouse_matches(tid)[0].first == board
    client.post("/signout", data={"csrf_token": token})
    visitor = TestClient(client.app)
    seen = visitor.get(f"/t/{tid}/bughouse").text
    assert "/bughouse/first" not in seen and "Pairs' table" in seen
    russian = visitor.get(f"/t/{tid}/bughouse", headers={"Accept-Language": "ru"}).text
    assert "Таблица пар" in russian and "закончилась первой" in russian
    armenian = visitor.get(f"/t/{tid}/bughouse", headers={"Accept-Language": "hy"}).text
    assert "Զույգերի աղյուսակ" in armenian and "ավարտվեց առաջինը" in armenian
    assert visitor.get("/t/999/bughouse").status_code == 404


def test_r_x_6_a_swiss_of_pairs_is_paired_from_the_page(site: Any) -> None:
    client, service, _accounts = site
    tid = event(client, service, swiss=True, rounds=2)
    page = client.get(f"/t/{tid}/bughouse").text
    assert "Each match goes to the pair with more points" in page and "No matches yet." in page
    paired = client.post(
        f"/t/{tid}/bughouse/pair", data={"csrf_token": csrf_of(page)}, follow_redirects=True
    )
    assert paired.status_code == 200 and "round 1 paired" in paired.text
    assert len(service.bughouse_matches(tid)) == 1
    again = client.post(
        f"/t/{tid}/bughouse/pair", data={"csrf_token": csrf_of(page)}, follow_redirects=True
    )
    assert "is not decided yet" in again.text and len(service.bughouse_matches(tid)) == 1
    league = service.create_team_tournament("League", TeamSettings()).tournament_id
    assert client.get(f"/t/{league}/bughouse").status_code == 422
