"""Lots for ties (R-RR-10) on the surfaces: the standings page and the JSON API of a
finished tournament whose tie was drawn, the regulations page (English and Russian),
``crosstable new --ties lots`` and ``crosstable show``."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_service_support import migrated

from crosstable.cli import main
from crosstable.core.model import LotsMethod
from crosstable.service import Regulations, Service
from crosstable.service.lots import ties_lots_seed
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient


def _drawn_tournament(service: Service, ties: str = "lots") -> int:
    created = service.create_tournament(
        Regulations(name="Club", tiebreaks=("SB", "DE"), details={"ties": ties})
    )
    tid = created.tournament_id
    from crosstable.service import PlayerInfo

    for name in ("Anna", "Boris", "Clara", "Dmitri"):
        service.add_player(tid, PlayerInfo(name))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    for game in service.overview(tid).games:
        service.record_result(tid, game.round, game.board, "½-½")
    return tid


@pytest.fixture()
def site(tmp_path: Path) -> Any:
    service = Service(
        open_store(migrated(f"sqlite:///{tmp_path / 'web.db'}")), random=random.Random(3)
    )
    with TestClient(create_app(service=service)) as client:
        yield client, service


def test_the_standings_page_and_the_api_show_the_lots(site: Any) -> None:
    client, service = site
    tid = _drawn_tournament(service)
    seed = ties_lots_seed(service.overview(tid).settings["regulations"])
    assert seed is not None
    page = client.get(f"/t/{tid}/standings")
    assert page.status_code == 200
    assert f"lots drawn, seed {seed}, put them in the order" in page.text
    body = client.get(f"/api/v1/tournaments/{tid}/standings").json()
    assert body["lots"][0]["seed"] == seed and sorted(body["lots"][0]["players"]) == [1, 2, 3, 4]
    assert sorted(row["rank"] for row in body["rows"]) == [1, 2, 3, 4]
    assert any(f"seed {seed}" in note for note in body["notes"])
    places = {
        p["start"]: p["place"] for p in client.get(f"/api/v1/tournaments/{tid}").json()["players"]
    }
    assert sorted(places.values()) == [1, 2, 3, 4]
    client.cookies.set("lang", "ru")
    assert f"жребий (зерно {seed}) расставил их" in client.get(f"/t/{tid}/standings").text
    client.cookies.delete("lang")
    shared = _drawn_tournament(service, "shared")
    assert "lots drawn" not in client.get(f"/t/{shared}/standings").text
    assert "lots" not in client.get(f"/api/v1/tournaments/{shared}/standings").json()


def test_the_regulations_page_says_it_in_words(site: Any) -> None:
    client, service = site
    tid = _drawn_tournament(service)
    english = client.get(f"/t/{tid}/regulations").text
    assert "Players equal after the tie-breaks" in english
    assert "lots are drawn: the computer draws the seed" in english
    assert "Seed of the lots for ties" in english
    client.cookies.set("lang", "ru")
    russian = client.get(f"/t/{tid}/regulations").text
    assert "Равные после всех дополнительных показателей" in russian
    assert "бросается жребий" in russian and "Зерно жребия при равенстве" in russian


def test_crosstable_new_takes_ties_and_show_prints_the_lots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CROSSTABLE_DB", raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    db = str(tmp_path / "cli.db")
    assert main(["new", "Club", "--ties", "lots", "--tiebreaks", "SB", "--db", db]) == 0
    service = Service(open_store(db))
    assert service.overview(1).settings["regulations"]["ties"] == "lots"
    capsys.readouterr()
    assert main(["new", "Other", "--ties", "coin", "--db", db]) == 2
    assert "shared or lots" in capsys.readouterr().err
    from crosstable.service import PlayerInfo

    for name in ("Anna", "Boris", "Clara", "Dmitri"):
        service.add_player(1, PlayerInfo(name))
    service.draw_lots(1, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(1)
    for game in service.overview(1).games:
        service.record_result(1, game.round, game.board, "½-½")
    seed = ties_lots_seed(service.overview(1).settings["regulations"])
    assert main(["show", "--tournament", "1", "--db", db]) == 0
    out = capsys.readouterr().out
    assert f"lots drawn, seed {seed}: players 1, 2, 3, 4" in out
