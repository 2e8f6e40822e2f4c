"""``crosstable demo --series [--no-serve]`` (issue 11): a workdays series' simulated
season in the demo database — edition 1 postponed with 10 players, then 40 in four
groups, a forfeit-only group winner who does not go on, the final and the super-final;
editions 2 and 3; edition 4 open for registration — summarised; kept between starts,
rebuilt with --reset; served with the banner naming the series' page and the login."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from sqlalchemy import select

from crosstable.cli import main
from crosstable.service import Service
from crosstable.service.series import inbox
from crosstable.service.series.views import edition_by_number
from crosstable.store import open_store
from crosstable.store.series_models import SeriesOutboxRow
from crosstable.web.demo_series import FORFEITER


def _served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    import crosstable.cli.serve

    calls: list[dict[str, object]] = []
    monkeypatch.setattr(crosstable.cli.serve, "run", lambda db, **o: calls.append({"db": db, **o}))
    return calls


def test_the_season_is_built_summarised_and_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "demo.sqlite"
    assert main(["demo", "--series", "--no-serve", "--db", str(database)]) == 0
    out = capsys.readouterr().out
    assert "workdays at 19:00 (Europe/Moscow)" in out
    assert "edition 1: finished, 40 players" in out and "start moved 1×" in out
    assert "stages: groups 4×, final, super-final" in out
    assert "edition 2: finished, 26 players" in out and "edition 3: finished, 18 players" in out
    assert "edition 4: registration" in out
    assert out.count("winner: ") == 3
    assert "Demo series built in" in out and "R-SE" not in out
    with open_store(str(database)) as store:
        service = Service(store)
        (series,) = service.series_info(1)["editions"][:1]
        assert series["postponed"] == 1
        info = service.series_info(1)
        assert [e["state"] for e in info["editions"]] == ["finished"] * 3 + ["registration"]
        first = edition_by_number(service, 1, 1)
        assert [s["kind"] for s in first["stages"]] == ["groups", "final", "super-final"]
        assert [g["players"] for g in first["stages"][0]["groups"]] == [10, 10, 10, 10]
        with store.reading() as session:
            rows = list(session.scalars(select(SeriesOutboxRow)))
        # the forfeit-only player is told he is out after stage 1, having played no game
        out_rows = [r for r in rows if r.recipient == FORFEITER and r.kind == "eliminated"]
        assert len(out_rows) == 1 and out_rows[0].payload["played"] is False
        assert not [r for r in rows if r.recipient == FORFEITER and r.kind == "qualified"]
        kinds = {r.kind for r in rows}
        assert {"registered", "start-moved", "stage-starts", "qualified", "eliminated"} <= kinds
        # the demo login plays: its notifications are in the site
        demo_user = next(r.user_id for r in rows if r.user_id is not None)
        assert inbox.unread_count(store, demo_user) >= 6
    # a second start keeps the season (nothing simulated twice)
    assert main(["demo", "--series", "--no-serve", "--db", str(database)]) == 0
    again = capsys.readouterr().out
    assert "kept in" in again and "edition 4: registration" in again
    assert "edition 5" not in again
    with open_store(str(database)) as store:
        assert len(Service(store).series_info(1)["editions"]) == 4
    # its pages: the edition's groups with the qualifiers and the forfeit-only player marked
    from crosstable.web.app import create_app
    from tests.asgi_client import TestClient

    client = TestClient(create_app(str(database)))
    page = client.get("/series/1/editions/1")
    assert page.status_code == 200
    assert "✓ qualified" in page.text and "no game played: does not go on" in page.text
    assert "🏆" in page.text
    assert client.get("/series/1").status_code == 200
    assert main(["demo", "--series", "--no-serve", "--db", str(database), "--reset"]) == 0
    assert "Demo series built in" in capsys.readouterr().out


def test_served_with_a_banner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    served = _served(monkeypatch)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    database = tmp_path / "demo.sqlite"
    assert main(["demo", "--series", "--db", str(database), "--port", str(port)]) == 0
    assert "edition 1: finished" in capsys.readouterr().out
    (call,) = served
    assert call["db"] == str(database) and call["port"] == port
    banner = str(call["banner"])
    assert f"http://127.0.0.1:{port}/series/1" in banner and "demo / demo-demo" in banner
