"""Events longer than 30 days on the web: the manage page's flag and rating choice, the
rating-by-round form, the regulations page and the JSON API (FIDE checklist Q210–216),
on SQLite and PostgreSQL."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import Store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.web_support import signed_in


@pytest.fixture
def site(store: Store) -> Iterator[tuple[TestClient, Service, dict[str, str]]]:
    service = make_service(store)
    accounts = Accounts(service.store)
    user = accounts.create_user("org", "password-org", is_admin=True)
    token = accounts.create_token(user.id)
    with TestClient(create_app(service=service)) as client:
        yield client, service, {"Authorization": f"Bearer {token}"}


def _started(service: Service) -> int:
    tid = service.create_tournament(Regulations(name="Club")).tournament_id
    for index, name in enumerate(("Anna", "Boris", "Clara", "Dmitri")):
        service.add_player(tid, PlayerInfo(name, rating=2400 - 10 * index))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    return tid


def test_r_fide_q210_q212_the_manage_page_flags_the_event_and_takes_ratings_by_round(
    site: Any,
) -> None:
    client, service, headers = site
    tid = _started(service)
    token = signed_in(client, "org")
    page = client.get(f"/t/{tid}/manage").text
    assert 'name="detail_long_event"' in page and "round-rating" not in page
    form = {
        "csrf_token": token,
        "detail_long_event": "yes",
        "detail_tiebreak_ratings": "per round",
    }
    saved = client.post(f"/t/{tid}/manage/regulations", data=form, follow_redirects=False)
    assert saved.status_code == 303, saved.text
    settings = service.tournament(tid).settings
    assert settings.long_event and settings.ratings_per_round
    page = client.get(f"/t/{tid}/manage").text
    assert f'action="/t/{tid}/manage/players/2/round-rating"' in page
    rated = {"csrf_token": token, "rating": "2450", "from_round": "3"}
    saved = client.post(f"/t/{tid}/manage/players/2/round-rating", data=rated)
    assert saved.status_code == 200
    assert "rated 2450 from round 3" in client.get(f"/t/{tid}/manage").text
    assert service.tournament(tid).players[1].round_ratings == ((3, 2450),)
    shown = client.get(f"/t/{tid}/regulations").text
    assert "The event lasts more than 30 days" in shown
    assert "the rating of each game&#39;s round" in shown or "each game's round" in shown
    assert "player 2: 2450 from round 3" in shown
    bad = client.post(
        f"/t/{tid}/manage/players/2/round-rating",
        data={"csrf_token": token, "rating": "x", "from_round": "3"},
    )
    assert "not a whole number" in bad.text
    # the JSON API: list, set, remove, refuse
    listed = client.get(f"/api/v1/tournaments/{tid}/round-ratings", headers=headers)
    assert listed.json() == {"players": {"2": [[3, 2450]]}}
    url = f"/api/v1/tournaments/{tid}/players/4/round-ratings"
    assert (
        client.post(url, json={"from_round": 2, "rating": 2100}, headers=headers).status_code == 200
    )
    assert service.tournament(tid).players[3].round_ratings == ((2, 2100),)
    assert (
        client.post(url, json={"from_round": 2, "rating": None}, headers=headers).status_code == 200
    )
    assert service.tournament(tid).players[3].round_ratings == ()
    refused = client.post(url, json={"from_round": 1, "rating": 2100}, headers=headers)
    assert refused.status_code == 422


def test_r_fide_q210_the_api_refuses_ratings_by_round_in_a_short_event(site: Any) -> None:
    client, service, headers = site
    tid = _started(service)
    url = f"/api/v1/tournaments/{tid}/players/2/round-ratings"
    refused = client.post(url, json={"from_round": 2, "rating": 2100}, headers=headers)
    assert refused.status_code == 422 and "longer than 30 days" in refused.text
