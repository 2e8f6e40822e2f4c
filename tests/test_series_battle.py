"""A battle-chess series (issue 12 item 1 for a series template; R-RR-9, R-SE-9): the
series' variant and set-up time (checked by the battle-chess rules, refused with the
reason), every group tournament a stage creates is battle chess with that set-up time
and its own seed, its colours drawn per round from that seed as a single battle
tournament's are; shown in the series' info (API) and page; `series create --battle`.
SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest
from sqlalchemy import select
from test_service_support import db_url, store  # noqa: F401

from crosstable.core.battle import BattleColours
from crosstable.core.errors import RuleError
from crosstable.service import FixedClock, Service
from crosstable.service.series import SeriesSettings
from crosstable.store import Store
from crosstable.store.series_models import SeriesGroupRow

#: Tuesday 1 December 2026, 09:00 UTC; the series starts at 19:00 in Moscow (16:00 UTC)
MORNING = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def battle_series(service: Service, **more: object) -> int:
    values: dict[str, object] = {"variant": "battle", "setup_minutes": 5} | more
    return service.create_series(
        SeriesSettings("Battle blitz", "workdays", "19:00", "Europe/Moscow", **values)  # type: ignore[arg-type]
    )


def group_tournaments(store: Store) -> list[int]:
    with store.reading() as session:
        return [
            g.tournament_id
            for g in session.scalars(select(SeriesGroupRow).order_by(SeriesGroupRow.id))
            if g.tournament_id is not None
        ]


def test_every_group_of_a_battle_series_is_battle_chess(store: Store) -> None:
    clock = FixedClock(MORNING)
    service = Service(store, clock=clock, random=random.Random(3))
    sid = battle_series(service)
    info = service.series_info(sid)
    assert (info["variant"], info["setup_minutes"]) == ("battle", 5)
    edition = service.open_edition(sid)
    for index in range(20):
        service.register_for_edition(edition, f"Player {index + 1:02d}", rating=1500 + index)
    clock.advance(dt.timedelta(hours=8))  # 17:00 UTC: past the start
    done = service.tick()
    assert any(line.endswith("every game created") for line in done)
    tids = group_tournaments(store)
    assert len(tids) == 2
    seeds = []
    for tid in tids:
        rules = service.battle_rules(tid)
        assert rules is not None and rules.setup_minutes == 5
        seeds.append(rules.seed)
        assert service.colours_drawn(tid) == {r: r == 1 for r in service.colours_drawn(tid) or {}}
        colours = BattleColours(rules.seed)
        for game in service.overview(tid).games:
            if game.round == 1:  # drawn at the start from the group's seed
                assert colours.colours(1, game.white, game.black) == (game.white, game.black)
    assert seeds[0] != seeds[1]  # each group its own seed (drawn by the service)
    # round 1 of the first group: a set-up timeout, then the rest; round 2 is drawn then
    tid = tids[0]
    first = [g for g in service.overview(tid).games if g.round == 1]
    change = service.record_setup_timeout(tid, 1, first[0].board, "white")
    assert "set-up timeout" in change.summary
    for game in first[1:]:
        service.record_result(tid, 1, game.board, "1-0")
    assert service.colours_drawn(tid)[2] is True  # type: ignore[index]
    seed = service.battle_rules(tid).seed  # type: ignore[union-attr]
    for game in service.overview(tid).games:
        if game.round == 2:
            assert BattleColours(seed).colours(2, game.white, game.black) == (
                game.white,
                game.black,
            )


def test_a_classical_series_stays_classical(store: Store) -> None:
    clock = FixedClock(MORNING)
    service = Service(store, clock=clock, random=random.Random(3))
    sid = service.create_series(SeriesSettings("Blitz", "workdays", "19:00", "Europe/Moscow"))
    assert service.series_info(sid)["variant"] == ""
    edition = service.open_edition(sid)
    for index in range(20):  # two full tables: not extended
        service.register_for_edition(edition, f"Player {index + 1:02d}")
    clock.advance(dt.timedelta(hours=8))
    service.tick()
    assert [service.battle_rules(t) for t in group_tournaments(store)] == [None, None]


def test_refusals(store: Store) -> None:
    service = Service(store, clock=FixedClock(MORNING), random=random.Random(3))
    with pytest.raises(RuleError, match="only a battle-chess tournament has one"):
        battle_series(service, variant="")
    with pytest.raises(RuleError, match="the only variant is 'battle'"):
        battle_series(service, variant="chess960")
    with pytest.raises(RuleError, match="1 to 120 minutes"):
        battle_series(service, setup_minutes=121)
    assert service.series_info(battle_series(service, setup_minutes=None))["setup_minutes"] is None


def test_the_command_line_and_the_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("fastapi")
    from crosstable.cli import main
    from crosstable.store import open_store
    from crosstable.web.app import create_app
    from tests.asgi_client import TestClient

    monkeypatch.delenv("CROSSTABLE_DB", raising=False)
    db = str(tmp_path / "cli.db")
    base = ["series", "create", "Battle", "--kind", "workdays", "--time", "19:00"]
    base += ["--tz", "Europe/Moscow", "--db", db, "--now", "2026-12-01T12:00:00+03:00"]
    assert main([*base, "--battle", "--setup-minutes", "7"]) == 0
    capsys.readouterr()
    assert main([*base, "--setup-minutes", "7"]) == 2
    assert "only a battle-chess tournament" in capsys.readouterr().err
    service = Service(open_store(db))
    assert service.series_info(1)["variant"] == "battle"
    with TestClient(create_app(service=service)) as client:
        page = client.get("/series/1")
        assert page.status_code == 200
        assert "Battle chess: in every group the computer draws" in page.text
        assert "Set-up time: 7 min." in page.text
        assert client.get("/api/v1/series/1").json()["setup_minutes"] == 7
        client.cookies.set("lang", "ru")
        assert "Боевые шахматы" in client.get("/series/1").text
