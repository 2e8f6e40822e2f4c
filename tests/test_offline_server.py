"""The offline app's export imported by the server (issue 28 item 5): the same players,
games and standings, through the service on SQLite and PostgreSQL and through
``crosstable import``; a damaged file is refused with its name and nothing stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_offline_app import finished_round_robin, finished_swiss
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.cli import main
from crosstable.cli.offline_import import import_tournament_json
from crosstable.core.model import System
from crosstable.core.standings.table import compute_standings
from crosstable.offline.app import replay, view
from crosstable.offline.exchange import export_document, import_document
from crosstable.service import Service


def test_r_x_7_the_browser_s_export_imports_with_the_same_standings(
    service: Service,  # noqa: F811 - the fixture
) -> None:
    state = finished_round_robin()
    document = json.loads(json.dumps(export_document(state)))  # as the file holds it
    change = import_tournament_json(service, document, "club.json", "arbiter")
    stored = service.tournament(change.tournament_id)
    shown = view(state)["standings"]
    rows = compute_standings(stored).rows
    assert [(r.name, r.rank, float(r.points)) for r in rows] == [
        (r["name"], r["rank"], r["points"]) for r in shown
    ]
    assert sum(len(rnd.games) for rnd in stored.rounds) == 10


def test_r_x_7_a_swiss_from_the_browser_imports_with_the_same_rounds_and_standings(
    service: Service,  # noqa: F811 - the fixture
) -> None:
    state = finished_swiss(7, 3)
    document = json.loads(json.dumps(export_document(state)))
    change = import_tournament_json(service, document, "open.json", "arbiter")
    stored = service.tournament(change.tournament_id)
    built = replay(state)
    assert built.tournament is not None
    assert stored.settings.system is System.SWISS_DUTCH
    assert [[(g.white, g.black, g.result) for g in r.games] for r in stored.rounds] == [
        [(g.white, g.black, g.result) for g in r.games] for r in built.tournament.rounds
    ]
    rows = compute_standings(stored).rows
    assert [(r.name, r.rank) for r in rows] == [
        (r["name"], r["rank"]) for r in view(state)["standings"]
    ]


def test_r_x_7_crosstable_import_reads_the_export_and_refuses_a_damaged_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CROSSTABLE_DB", raising=False)
    db = str(tmp_path / "club.db")
    path = tmp_path / "club.json"
    document = export_document(finished_round_robin(4))
    path.write_text(json.dumps(document), encoding="utf-8")
    assert main(["import", str(path), "--db", db]) == 0
    assert "imported" in capsys.readouterr().out
    document["tournament"]["players"][0]["rating"] = "strong"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document), encoding="utf-8")
    assert main(["import", str(bad), "--db", db]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "Traceback" not in err
    assert main(["tournaments", "--db", db]) == 0
    assert capsys.readouterr().out.count("Club") == 1  # the refused file stored nothing


@pytest.mark.parametrize("kind", ["round-robin", "swiss"])
def test_r_x_7_the_server_s_own_export_opens_in_the_app(
    service: Service,  # noqa: F811 - the fixture
    kind: str,
) -> None:
    state = finished_round_robin(5) if kind == "round-robin" else finished_swiss(7, 3)
    change = import_tournament_json(service, export_document(state), "app.json", "arbiter")
    server = json.loads(json.dumps(service.export_json(change.tournament_id)))
    assert server["format"] == "crosstable.tournament"
    opened = import_document(server, "server.json")
    assert opened["kind"] == kind
    assert view(opened)["rounds"] == view(state)["rounds"]
    assert view(opened)["standings"] == view(state)["standings"]


def test_r_x_7_a_swiss_exported_mid_event_opens_with_its_planned_rounds(
    service: Service,  # noqa: F811 - the fixture
) -> None:
    # the server's export names the rounds planned (rounds_planned): a Swiss of five
    # rounds exported after three opens in the app with five rounds to play
    state = finished_swiss(7, 3)
    change = import_tournament_json(service, export_document(state), "app.json", "arbiter")
    server = json.loads(json.dumps(service.export_json(change.tournament_id)))
    assert server["tournament"]["rounds_planned"] == 3
    server["tournament"]["rounds_planned"] = 5
    opened = import_document(server, "server.json")
    start = next(step for step in opened["log"] if step["do"] == "start")
    assert start["rounds"] == 5
    assert len(view(opened)["rounds"]) == 3
