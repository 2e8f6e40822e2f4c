"""What the result-entry surface tests share: a started four-player Swiss, a stored
result, and a site with an organiser signed in and holding an API token."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from crosstable.core.model import LotsMethod, System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.test_service_support import migrated
from tests.web_support import signed_in


def swiss(service: Service, rounds: int = 2) -> int:
    """A started Swiss of four players (starting numbers 1-4 in that order)."""
    regulations = Regulations(name="Open", system=System.SWISS_DUTCH, rounds=rounds)
    tid = service.create_tournament(regulations).tournament_id
    for name in ("Anna", "Boris", "Clara", "Dmitri"):
        service.add_player(tid, PlayerInfo(name, 1800))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    return tid


def result_of(service: Service, tid: int, number: int, board: int) -> str | None:
    return next(
        g.result for g in service.overview(tid).games if (g.round, g.board) == (number, board)
    )


@pytest.fixture()
def site(tmp_path: Path) -> Any:
    """(client signed in as the organiser, service, tournament id, API auth header)
    around a :func:`swiss` whose first round is published."""
    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'web.db'}")))
    accounts = Accounts(service.store)
    user = accounts.create_user("organiser", "password-organiser", is_master=True)
    tid = swiss(service)
    accounts.claim(tid, user)
    accounts.set_access(tid, approval="approved")
    service.publish_round(tid)
    token = accounts.create_token(user.id, "api")
    with TestClient(create_app(service=service)) as client:
        signed_in(client, "organiser")
        yield client, service, tid, {"Authorization": f"Bearer {token}"}
