"""The tie-break order is in the regulations from the moment a tournament exists: the
regulations page and the JSON API name it before any lot is drawn (they showed nothing
until the lots were drawn, because they read it from the standings table)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crosstable.core.model import System
from crosstable.core.tiebreaks import default_tiebreaks
from crosstable.service import Regulations, Service
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient


@pytest.fixture
def served(tmp_path: Path) -> tuple[TestClient, Service]:
    service = Service(open_store(str(tmp_path / "order.db")))
    return TestClient(create_app(service=service, listen=False)), service


@pytest.mark.parametrize(
    ("regulations", "expected", "labels"),
    [
        (
            Regulations(name="Club", tiebreaks=("DE", "WIN", "SB")),
            ("DE", "WIN", "SB"),
            ("Direct encounter", "Sonneborn-Berger"),
        ),
        (Regulations(name="Open", system=System.SWISS_DUTCH, rounds=5), None, ("Buchholz",)),
        (Regulations(name="Evening"), None, ("Sonneborn-Berger",)),
    ],
)
def test_the_order_is_published_before_the_lots(
    served: tuple[TestClient, Service],
    regulations: Regulations,
    expected: tuple[str, ...] | None,
    labels: tuple[str, ...],
) -> None:
    client, service = served
    tid = service.create_tournament(regulations).tournament_id
    assert service.overview(tid).status == "registration"  # no lots drawn, nobody paired
    order = expected or default_tiebreaks(regulations.system)
    body = client.get(f"/api/v1/tournaments/{tid}").json()
    assert body["tiebreak_order"] == list(order)
    page = client.get(f"/t/{tid}/regulations").text
    published = page.split('id="tiebreak-order">', 1)[1].split("</dd>", 1)[0]
    assert published.count(". ") >= len(order)  # "1. …; 2. …": every code, numbered
    for label in labels:
        assert label in published
    russian = client.get(f"/t/{tid}/regulations", headers={"accept-language": "ru"}).text
    assert russian.split('id="tiebreak-order">', 1)[1].split("</dd>", 1)[0].strip()
