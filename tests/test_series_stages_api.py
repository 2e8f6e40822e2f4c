"""A qualifier's place in stage 2 or later through the JSON API (R-SE-2): the window is
read, the caller confirms their own place and leaves the stage within it; a second
confirmation, a player eliminated in stage 1 and a guest are refused. SQLite and
PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_series_later_stages import at_stage_two
from test_series_service import current_groups
from test_service_support import db_url, store  # noqa: F401

from crosstable.service.accounts import Accounts
from crosstable.store import Store
from crosstable.store.series_models import SeriesEditionRow
from crosstable.web.app import create_app
from tests.asgi_client import TestClient


def test_a_qualifier_confirms_and_leaves_a_later_stage_through_the_api(store: Store) -> None:
    accounts = Accounts(store)
    auth: dict[str, dict[str, str]] = {}

    def account_of(name: str) -> int:
        user = accounts.create_user(name.lower().replace(" ", ""), "password-player")
        auth[name] = {"Authorization": f"Bearer {accounts.create_token(user.id, 'app')}"}
        return user.id

    service, clock, edition = at_stage_two(store, account_of)
    with store.reading() as session:
        row = session.get(SeriesEditionRow, edition)
        assert row is not None
        sid, number = row.series_id, row.number
    _kind, tids = current_groups(store, edition)
    playing = [p.name for tid in tids for p in service.tournament(tid).players]
    out = sorted(set(auth) - set(playing))
    path = f"/api/v1/series/{sid}/editions/{number}/stage-registration"
    with TestClient(create_app(service=service)) as client:
        window: Any = client.get(path).json()
        assert window["stage"] == 2 and window["open"] is True
        first, second = playing[0], playing[1]
        confirmed = client.post(path, headers=auth[first])
        assert confirmed.status_code == 201, confirmed.text
        assert confirmed.json()["registration"] > 0
        again = client.post(path, headers=auth[first])
        assert again.status_code == 422 and "already" in again.json()["detail"]
        eliminated = client.post(path, headers=auth[out[0]])
        assert eliminated.status_code == 404 and "does not play stage 2" in eliminated.text
        assert client.post(path).status_code == 401  # a guest
        left = client.delete(path, headers=auth[second])
        assert left.status_code == 200, left.text
        russian = client.post(path, headers=auth[first] | {"Accept-Language": "ru"})
        assert "уже" in russian.json()["detail"]
        clock.advance(dt.timedelta(weeks=2, hours=1))
        late = client.post(path, headers=auth[playing[2]])
        assert late.status_code == 422, late.text
    withdrawn = [p for tid in tids for p in service.overview(tid).players if p.name == second]
    assert withdrawn and withdrawn[0].withdrawn_from is not None
