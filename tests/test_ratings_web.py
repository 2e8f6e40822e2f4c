"""The player page's FIDE rating figures and title norms (issue 16; docs/ratings.md)."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_service_support import db_url, make_service, started, store  # noqa: F401

from crosstable.service import Service
from crosstable.store import Store


@pytest.fixture
def site(store: Store) -> Iterator[tuple[Any, Service]]:
    pytest.importorskip("fastapi")
    from crosstable.web.app import create_app
    from tests.asgi_client import TestClient

    service = make_service(store)
    with TestClient(create_app(service=service)) as client:
        yield client, service


def test_the_player_page_shows_the_rating_change_per_game(site: Any) -> None:
    client, service = site
    tid = started(service, 4)  # ratings 2000, 2001, 2002, 2003; Berger round 1: 1-4, 2-3
    state = service.table_state(tid).tournament
    first = state.rounds[0].games[0]
    assert {first.white, first.black} == {1, 4}
    service.record_result(tid, 1, first.board, "1-0" if first.white == 1 else "0-1")
    page = client.get(f"/t/{tid}/players/1").text
    # D = 2000 - 2003 = -3: expected .50 (B.02 table 8.1.2, row 0-3); K 20: +10
    assert 'id="player-rating"' in page and 'id="player-rating-games"' in page
    assert "Rated games: 1" in page and "Change: <b>+10</b>" in page
    assert "New rating: 2010" in page
    assert "<td>0.5</td><td>+10</td>" in page
    loser = client.get(f"/t/{tid}/players/4").text
    assert "Change: <b>-10</b>" in loser and "New rating: 1993" in loser
    # a player without a game yet: no rating section
    assert 'id="player-rating"' not in client.get(f"/t/{tid}/players/2").text
    client.cookies.set("lang", "ru")
    russian = client.get(f"/t/{tid}/players/1").text
    assert "Рейтинг ФИДЕ" in russian and "Изменение: <b>+10</b>" in russian
    assert "<td>0,5</td>" in russian


def test_no_norm_section_when_no_norm_is_possible(site: Any) -> None:
    client, service = site
    tid = started(service, 4)  # 3 rounds: never 9 games
    assert 'id="player-norms"' not in client.get(f"/t/{tid}/players/1").text


def test_the_player_page_says_which_norm_is_still_possible(site: Any) -> None:
    """tests/test_norms.py's field (Ra 2380 for player 1) run in the service: after 6
    rounds player 1 needs 7 of 9 in all, so 7 minus the score so far from 3 games."""
    from crosstable.core.model import LotsMethod
    from crosstable.service import PlayerInfo, Regulations
    from tests.test_norms import FIELD, _seven

    client, service = site
    tid = service.create_tournament(Regulations(name="Norm RR")).tournament_id
    for p in FIELD:
        info = PlayerInfo(p.name, rating=p.rating, title=p.title, federation=p.federation)
        service.add_player(tid, info)
    service.draw_lots(tid, LotsMethod.MANUAL, order=tuple(range(1, 11)))
    service.start(tid)
    score = 0.0
    for rnd in service.table_state(tid).tournament.rounds[:6]:
        for game in rnd.games:
            text = "½-½"
            if 1 in (game.white, game.black):
                own = _seven(game.black if game.white == 1 else game.white)
                score += {"1": 1.0, "=": 0.5, "0": 0.0}[own]
                text = {"1": "1-0", "=": "½-½", "0": "0-1"}[own]
                if game.black == 1:
                    text = {"1-0": "0-1", "0-1": "1-0"}.get(text, text)
            service.record_result(tid, rnd.number, game.board, text)
    page = client.get(f"/t/{tid}/players/1").text
    assert 'id="player-norms"' in page
    needed = 7 - score
    shown = str(int(needed)) + ("½" if needed % 1 else "")
    assert f"GM: still possible: needs {shown} from 3 games left" in page
