"""A team Swiss through the JSON API and its team page, on SQLite and PostgreSQL:
created, its teams entered, started, its rounds paired from the board results; the
team table and the match cards at GET …/teams; refusals name what is wrong."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import Store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

TEAMS = {"Ararat": 2100, "Sevan": 2000, "Masis": 2300, "Aragats": 2200, "Hrazdan": 1900}


@pytest.fixture
def site(store: Store) -> Iterator[tuple[TestClient, Service, Accounts, dict[str, str]]]:
    service = make_service(store)
    accounts = Accounts(service.store)
    boss = accounts.create_user("boss", "password-boss", is_admin=True)
    token = accounts.create_token(boss.id, "api")
    with TestClient(create_app(service=service)) as client:
        yield client, service, accounts, {"Authorization": f"Bearer {token}"}


def test_r_b_3_team_swiss_through_the_api(
    site: tuple[TestClient, Service, Accounts, dict[str, str]],
) -> None:
    client, service, accounts, auth = site
    made = client.post(
        "/api/v1/team-swiss", json={"name": "Olympiad", "boards": 2, "rounds": 3}, headers=auth
    )
    assert made.status_code == 201, made.text
    tid = int(made.json()["id"])
    for number, (name, rating) in enumerate(TEAMS.items(), 1):
        client.post(f"/api/v1/tournaments/{tid}/teams", json={"name": name}, headers=auth)
        for k in range(2):
            member = {"name": f"{name} {k + 1}", "rating": rating}
            answer = client.post(
                f"/api/v1/tournaments/{tid}/teams/{number}/members", json=member, headers=auth
            )
            assert answer.status_code == 201, answer.text
    early = client.post(f"/api/v1/tournaments/{tid}/teams/rounds", headers=auth)
    assert early.status_code == 422 and "once it has started" in early.json()["detail"]
    assert client.post(f"/api/v1/tournaments/{tid}/start", headers=auth).status_code == 200
    paired = client.post(f"/api/v1/tournaments/{tid}/teams/rounds", headers=auth)
    assert paired.status_code == 201, paired.text
    data = paired.json()["data"]
    assert data["round"] == 1 and len(data["matches"]) == 2 and data["bye"] == 5
    again = client.post(f"/api/v1/tournaments/{tid}/teams/rounds", headers=auth)
    assert again.status_code == 422 and "without a result" in again.json()["detail"]
    stranger = accounts.create_user("stranger", "password-stranger")
    token = accounts.create_token(stranger.id, "api")
    refused = client.post(
        f"/api/v1/tournaments/{tid}/teams/rounds", headers={"Authorization": f"Bearer {token}"}
    )
    assert refused.status_code == 403
    table = client.get(f"/api/v1/tournaments/{tid}/teams").json()
    assert table["started"] and table["tiebreaks"] == [
        "MPVGP",
        "EDE",
        "BH:MP-C1",
        "BH:MP",
        "EMGSB",
    ]
    assert [m["white"] for m in table["matches"]] == [w for w, _ in data["matches"]]
    page = client.get(f"/t/{tid}/teams")
    assert page.status_code == 200 and "Masis" in page.text
    bad = client.post("/api/v1/team-swiss", json={"name": "X", "pairing": "lim"}, headers=auth)
    assert bad.status_code == 422
    bad = client.post("/api/v1/team-swiss", json={"name": "X", "bye": "two"}, headers=auth)
    assert bad.status_code == 422 and "team bye" in bad.json()["detail"]
    assert service.tournaments() and len(service.tournaments()) == 1
