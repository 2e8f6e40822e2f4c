"""Who can still win on the web (docs/race.md): the JSON API and the standings page's
marks, in English and Russian, live as results come in."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_service_support import db_url, make_service, started, store  # noqa: F401

from crosstable.core.race import race, race_problem
from crosstable.service import Service
from crosstable.store import Store


@pytest.fixture
def site(store: Store) -> Iterator[tuple[Any, Service]]:
    from crosstable.web.app import create_app
    from tests.asgi_client import TestClient

    service = make_service(store)
    with TestClient(create_app(service=service)) as client:
        yield client, service


def _play_all_but_last_round(service: Service, tid: int) -> None:
    """Until the last round player 1 wins every game and the other games are drawn."""
    rounds = service.table_state(tid).tournament.rounds
    for rnd in rounds[:-1]:
        for game in rnd.games:
            if 1 in (game.white, game.black):
                result = "1-0" if game.white == 1 else "0-1"
            else:
                result = "½-½"
            service.record_result(tid, rnd.number, game.board, result)


def test_r_b_2_api_rows_are_the_core_answers(site: Any) -> None:
    client, service = site
    tid = started(service, 6)
    body = client.get(f"/api/v1/tournaments/{tid}/race").json()
    assert body["top_k"] == 1 and body["games_left"] == 15 and body["exact"] is True
    assert [r["first"] for r in body["rows"]] == ["possible"] * 6
    _play_all_but_last_round(service, tid)
    # 1 has 4, the others at most 1½ now and 2½ after the last round: clinched
    body = client.get(f"/api/v1/tournaments/{tid}/race?top=2").json()
    expected = race(race_problem(service.table_state(tid).tournament), 2).to_json()
    assert body["rows"] == expected["rows"]
    assert body["revision"] == service.revision(tid)
    first = {r["start"]: r for r in body["rows"]}
    assert first[1]["first"] == "clinched" and first[1]["top"] == "clinched"
    assert {first[s]["first"] for s in range(2, 7)} == {"eliminated"}
    assert {first[s]["top"] for s in range(2, 7)} == {"possible"}
    assert first[1]["needs"] == {"possible": 0, "clinch": 0}


def test_api_refuses_bad_top_and_unknown_tournaments(site: Any) -> None:
    client, service = site
    tid = started(service, 4)
    assert client.get(f"/api/v1/tournaments/{tid}/race?top=0").status_code == 422
    too_many = client.get(f"/api/v1/tournaments/{tid}/race?top=5")
    assert too_many.status_code == 400 and "4 players" in too_many.text
    assert client.get(f"/api/v1/tournaments/{tid}/race?top=x").status_code == 422
    assert client.get("/api/v1/tournaments/999999/race").status_code == 404
    russian = client.get(f"/api/v1/tournaments/{tid}/race?top=5", headers={"Accept-Language": "ru"})
    assert russian.status_code == 400 and "участник" in russian.text


def test_r_b_2_standings_page_marks_each_player_live(site: Any) -> None:
    client, service = site
    tid = started(service, 6)
    page = client.get(f"/t/{tid}/standings").text
    assert page.count('class="race race-possible"') == 6
    assert "still possible" in page
    _play_all_but_last_round(service, tid)
    page = client.get(f"/t/{tid}/standings").text
    assert page.count('class="race race-clinched"') == 1
    assert page.count('class="race race-eliminated"') == 5
    client.cookies.set("lang", "ru")
    russian = client.get(f"/t/{tid}/standings").text
    assert 'class="race race-clinched"' in russian
    assert "Кто ещё может победить" in russian and "обеспечено" in russian
