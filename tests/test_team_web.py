"""The team crosstable page and its JSON API (docs/teams.md), on SQLite and PostgreSQL:
the same table as the service's, in English, Russian and Armenian; a tournament of
players is a 422 with the reason, one that does not exist a 404."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.core.scoring import points_json
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import Store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.test_team_service import SETTINGS


@pytest.fixture
def site(store: Store) -> Iterator[tuple[Any, Service]]:
    service = make_service(store)
    with TestClient(create_app(service=service)) as client:
        yield client, service


def played_league(service: Service) -> int:
    tid = service.create_team_tournament("League", SETTINGS).tournament_id
    for number, name in enumerate(("Ararat", "Sevan", "Masis", "Aragats"), 1):
        service.add_team(tid, name)
        for k in range(2):
            service.add_team_member(tid, number, PlayerInfo(f"{name} {k + 1}"))
    service.start(tid)
    for rnd, matches in enumerate(service.team_matches(tid)[:2], 1):
        for match in matches:
            for g in match.games:
                service.record_result(tid, rnd, g.board, "1-0" if g.board % 2 else "½-½")
    return tid


def test_r_b_3_team_api_and_page_show_the_service_table(site: Any) -> None:
    client, service = site
    tid = played_league(service)
    body = client.get(f"/api/v1/tournaments/{tid}/teams").json()
    table = service.team_standings(tid)
    assert [(r["team"], r["place"], r["MP"], r["GP"]) for r in body["rows"]] == [
        (r.team, r.place, points_json(r.mp), points_json(r.gp)) for r in table.rows
    ]
    assert body["tiebreaks"] == ["GP", "EDE", "EMGSB", "BC"]
    assert len(body["matches"]) == 6 and sum(m["finished"] for m in body["matches"]) == 4
    assert body["revision"] == service.revision(tid)
    page = client.get(f"/t/{tid}/teams")
    assert page.status_code == 200
    assert page.text.count("<h1>") == 1
    assert f'href="/t/{tid}/teams" aria-current="page"' in page.text  # the Teams tab
    assert f'href="/t/{tid}/teams"' in client.get(f"/t/{tid}").text
    for name in ("Ararat", "Sevan", "Masis", "Aragats", "EMGSB", "Team table", "Board prizes"):
        assert name in page.text
    client.cookies.set("lang", "ru")
    russian = client.get(f"/t/{tid}/teams").text
    assert "Таблица команд" in russian and "Призы по доскам" in russian
    client.cookies.set("lang", "hy")
    armenian = client.get(f"/t/{tid}/teams").text
    assert "Թիմերի աղյուսակ" in armenian


def test_r_b_3_team_api_refuses_a_tournament_of_players(site: Any) -> None:
    client, service = site
    tid = service.create_tournament(Regulations(name="Open")).tournament_id
    assert f'href="/t/{tid}/teams"' not in client.get(f"/t/{tid}").text
    answer = client.get(f"/api/v1/tournaments/{tid}/teams")
    assert answer.status_code == 422
    assert "is not played by teams" in answer.json()["detail"]
    assert client.get("/api/v1/tournaments/999/teams").status_code == 404


def walked_league(service: Service) -> int:
    """A team league the language walks read (tests/locale_walk.py): teams and players
    named in Cyrillic (no word a walk could take for English), a captain and a reserve,
    two rounds played."""
    tid = service.create_team_tournament("Клубная лига", SETTINGS).tournament_id
    teams = {
        "Арарат": ("Арам Петросян", "Анаит Саргсян", "Арсен Акопян"),
        "Севан": ("Саргис Григорян", "Сиран Аветисян"),
        "Масис": ("Мгер Варданян", "Мариам Арутюнян"),
        "Арагац": ("Армен Давтян", "Арпи Манукян"),
    }
    for number, (name, players) in enumerate(teams.items(), 1):
        service.add_team(tid, name)
        for k, player in enumerate(players):
            service.add_team_member(tid, number, PlayerInfo(player, 2100 - 50 * k), captain=k == 0)
    service.start(tid)
    for rnd, matches in enumerate(service.team_matches(tid)[:2], 1):
        for match in matches:
            for g in match.games:
                service.record_result(tid, rnd, g.board, "1-0" if g.board % 2 else "½-½")
    return tid
