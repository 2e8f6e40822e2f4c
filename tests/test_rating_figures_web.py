"""A stored tournament's FIDE rating figures on the web (issue 16 item 2): the
standings' optional rating columns, the player page and GET /api/v1/tournaments/{id}/ratings
give the same figures, on the list of the event's own type — a rapid event's game
between 2830 and 2100 is not rated (B.02 R&B: the 600-point rule), a standard event's
is; a forfeit is never rated (R-RR-14). On SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.core.model import LotsMethod, System
from crosstable.core.ratings import RatingType, rate_tournament
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import Store
from crosstable.web.app import create_app
from crosstable.web.i18n import number_text
from tests.asgi_client import TestClient

#: Berger round 1 of four: 1–4 (played: 2830 v 2100) and 2–3 (a forfeit)
PLAYERS = (
    ("Carlsen, Magnus", 2830),
    ("Petrov, Pyotr", 2000),
    ("Sidorov, Semyon", 1950),
    ("Ivanov, Ivan", 2100),
)


@pytest.fixture
def site(store: Store) -> Iterator[tuple[TestClient, Service]]:
    service = make_service(store)
    with TestClient(create_app(service=service)) as client:
        yield client, service


def _played(service: Service, time_control: str) -> int:
    tid = service.create_tournament(
        Regulations(name="Cup", system=System.ROUND_ROBIN, time_control=time_control)
    ).tournament_id
    for name, rating in PLAYERS:
        service.add_player(tid, PlayerInfo(name, rating=rating))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    games = {g.board: (g.white, g.black) for g in service.tournament(tid).rounds[0].games}
    for board, (white, black) in games.items():
        if {white, black} == {2, 3}:
            service.record_result(tid, 1, board, "+-")  # a forfeit: not rated
        else:
            service.record_result(tid, 1, board, "1-0")
    return tid


def _game_with(body: dict[str, Any], start: int, opponent: int) -> dict[str, Any]:
    player = next(p for p in body["players"] if p["start"] == start)
    return next(g for g in player["games"] if g["opponent"] == opponent)


@pytest.mark.parametrize(
    ("control", "kind", "rated"), [("15+10", "rapid", False), ("90+30", "standard", True)]
)
def test_the_events_own_list_rates_the_games(
    site: Any, control: str, kind: str, rated: bool
) -> None:
    client, service = site
    tid = _played(service, control)
    body = client.get(f"/api/v1/tournaments/{tid}/ratings").json()
    assert body["rating_type"] == kind
    carlsen_ivanov = _game_with(body, 1, 4)
    assert (carlsen_ivanov["change"] is not None) is rated
    petrov = next(p for p in body["players"] if p["start"] == 2)
    assert petrov["games_rated"] == 0  # the forfeit is not rated
    expected = rate_tournament(service.tournament(tid), rating_type=RatingType(kind))
    assert [p["change_rounded"] for p in body["players"]] == [p.change_rounded for p in expected]
    one = client.get(f"/api/v1/tournaments/{tid}/ratings", params={"start": 2}).json()
    assert [p["start"] for p in one["players"]] == [2]
    assert one["players"][0] == next(p for p in body["players"] if p["start"] == 2)
    assert client.get(f"/api/v1/tournaments/{tid}/ratings", params={"start": 9}).status_code == 404
    assert client.get("/api/v1/tournaments/999/ratings").status_code == 404


def test_the_standings_show_rating_columns_on_request_in_both_languages(site: Any) -> None:
    client, service = site
    tid = _played(service, "90+30")
    plain = client.get(f"/t/{tid}/standings").text
    assert 'class="rtg"' not in plain and f'href="/t/{tid}/standings?ratings=1"' in plain
    shown = client.get(f"/t/{tid}/standings?ratings=1").text
    figures = {p.start: p for p in rate_tournament(service.tournament(tid))}
    for start, player in figures.items():
        row = re.search(rf'<tr id="s{start}">(.*?)</tr>', shown, re.S)
        assert row, start
        cells = re.findall(r'<td class="rtg[^"]*">(.*?)</td>', row.group(1))
        assert cells[0] == str(player.rating)
        if player.change is not None:
            sign = "+" if player.change > 0 else ""
            assert cells[1] == sign + number_text(player.change, "en")
        assert cells[2] == str(player.tpr or "—")
    assert "Rating changes on the standard list" in shown
    russian = client.get(f"/t/{tid}/standings?ratings=1", headers={"Accept-Language": "ru"}).text
    assert "Rating changes" not in russian and "Изменения рейтинга" in russian
    assert "Скрыть" in russian


def test_the_player_page_uses_the_events_list(site: Any) -> None:
    client, service = site
    tid = _played(service, "15+10")  # rapid: Carlsen's game against Ivanov is not rated
    page = client.get(f"/t/{tid}/players/1").text
    table = re.search(r'<table class="list" id="player-rating-games">(.*?)</table>', page, re.S)
    assert table and "not rated" in table.group(1)


def test_the_rating_report_prints_every_players_figures(site: Any) -> None:
    client, service = site
    tid = _played(service, "90+30")
    assert f'href="/t/{tid}/print/ratings"' in client.get(f"/t/{tid}/print").text
    page = client.get(f"/t/{tid}/print/ratings").text
    for player in rate_tournament(service.tournament(tid)):
        row = re.search(rf'<tr id="r{player.start}">(.*?)</tr>', page, re.S)
        assert row, player.start
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)
        assert cells[1] == player.name and cells[3] == str(player.games_rated)
        if player.change_rounded is not None and player.rating:
            assert cells[8] == str(player.rating + player.change_rounded)
    russian = client.get(f"/t/{tid}/print/ratings", headers={"Accept-Language": "ru"}).text
    assert "Отчёт об изменении рейтинга ФИДЕ" in russian and "Rated games" not in russian
