"""Registration for stage 2 and later (R-SE-2: «только в течение 2-х недель с момента
начала соответствующего тура»): a qualifier confirms their place in a later group stage
from its start for two weeks, and may withdraw from it then (their group's withdrawal
rule); outside the window both are refused with the window's dates; the final and the
super-final need none (automatic). SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Callable

import pytest
from sqlalchemy import select
from test_series_service import current_groups, play_all
from test_service_support import db_url, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.service import FixedClock, NotFoundError, Service
from crosstable.service.series import SeriesSettings
from crosstable.store import Store
from crosstable.store.series_models import (
    SeriesEventRow,
    SeriesOutboxRow,
    SeriesRegistrationRow,
)

MORNING = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def at_stage_two(
    store: Store, account_of: Callable[[str], int | None] = lambda name: None
) -> tuple[Service, FixedClock, int]:
    """16 players in groups of 4: stage 1 (4 groups) played, stage 2 (2 groups) started;
    ``account_of`` gives the account each player registers with (default: none)."""
    clock = FixedClock(MORNING)
    service = Service(store, clock=clock, random=random.Random(4))
    sid = service.create_series(
        SeriesSettings(
            "Quads",
            "workdays",
            "19:00",
            "Europe/Moscow",
            max_group_size=4,
            final_min=4,
            super_final_players=0,
        )
    )
    edition = service.open_edition(sid)
    for index in range(16):
        name = f"Player {index + 1:02d}"
        service.register_for_edition(edition, name, rating=1500 + index, user_id=account_of(name))
    clock.advance(dt.timedelta(hours=8))
    service.tick()
    with pytest.raises(RuleError, match="registration for stage 1 is the edition's own"):
        service.register_for_stage(edition, "Player 01")
    _kind, tids = current_groups(store, edition)
    play_all(service, tids, random.Random(1))
    clock.advance(dt.timedelta(hours=1))
    service.tick()
    kind, _tids = current_groups(store, edition)
    assert kind == "groups"
    return service, clock, edition


def test_the_two_weeks_window_of_a_later_stage(store: Store) -> None:
    service, clock, edition = at_stage_two(store)
    window = service.stage_window(edition)
    assert window["stage"] == 2 and window["open"] is True
    opens = dt.datetime.fromisoformat(str(window["opens"]))
    assert dt.datetime.fromisoformat(str(window["closes"])) - opens == dt.timedelta(weeks=2)
    _kind, tids = current_groups(store, edition)
    players = [p.name for tid in tids for p in service.tournament(tid).players]
    first, second, third = players[0], players[1], players[2]
    key = service.register_for_stage(edition, first)
    with pytest.raises(RuleError, match="registered for stage 2 already"):
        service.register_for_stage(edition, first)
    with store.reading() as session:
        out = {r.name for r in session.scalars(select(SeriesRegistrationRow))} - set(players)
        event = session.scalars(
            select(SeriesEventRow).where(SeriesEventRow.kind == "stage-register")
        ).one()
    assert event.data["summary_message"]["template"].startswith("{player} registered for stage")
    assert event.data | {"summary_message": None} == {
        "registration": key,
        "stage": 2,
        "summary_message": None,
    }
    with pytest.raises(NotFoundError, match="does not play stage 2"):
        service.register_for_stage(edition, sorted(out)[0])  # eliminated in stage 1
    # a withdrawal within the window: out of the group's round robin (its games forfeits)
    service.withdraw_from_stage(edition, second)
    tid = next(t for t in tids if second in {p.name for p in service.tournament(t).players})
    view = service.overview(tid)
    assert next(p for p in view.players if p.name == second).withdrawn_from is not None
    # the last moment inside the window, then the first outside
    clock.advance(opens + dt.timedelta(weeks=2) - clock.now() - dt.timedelta(seconds=1))
    service.register_for_stage(edition, third)
    clock.advance(dt.timedelta(seconds=1))
    closes = re.escape(str(window["closes"]))
    with pytest.raises(RuleError, match=f"registration is open only from .* until {closes}"):
        service.register_for_stage(edition, players[3])
    with pytest.raises(RuleError, match=f"may withdraw only from .* until {closes}"):
        service.withdraw_from_stage(edition, players[3])


def test_the_final_needs_no_registration(store: Store) -> None:
    service, clock, edition = at_stage_two(store)
    _kind, tids = current_groups(store, edition)
    play_all(service, tids, random.Random(2))
    clock.advance(dt.timedelta(hours=1))
    service.tick()
    kind, final = current_groups(store, edition)
    assert kind == "final"
    name = service.tournament(final[0]).players[0].name
    with pytest.raises(RuleError, match="registered automatically"):
        service.register_for_stage(edition, name)


def test_the_command_line(
    tmp_path: object, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pathlib import Path

    from crosstable.cli import main
    from crosstable.store import open_store

    monkeypatch.delenv("CROSSTABLE_DB", raising=False)
    db = str(Path(str(tmp_path)) / "cli.db")
    store = open_store(db)
    service, _clock, edition = at_stage_two(store)
    window = service.stage_window(edition)
    _kind, tids = current_groups(store, edition)
    name = service.tournament(tids[0]).players[0].name
    store.close()
    inside = str(window["opens"])
    assert main(["series", "register-stage", str(edition), name, "--db", db, "--now", inside]) == 0
    assert f"registered for stage 2 of edition {edition}" in capsys.readouterr().out
    late = str(window["closes"])
    other = ["series", "withdraw-stage", str(edition), name, "--db", db, "--now", late]
    assert main(other) == 2
    err = capsys.readouterr().err
    assert "may withdraw only from the stage's start" in err and late in err


def mine(done: list[str]) -> list[str]:
    """The tick's lines of edition 1 (edition 2 opened by itself meanwhile)."""
    return [line for line in done if line.startswith("edition 1:")]


def test_the_unconfirmed_drop_out_when_the_two_weeks_close(store: Store) -> None:
    """R-SE-2, docs/series.md §3: at the close of stage 2's window a qualifier who did not
    confirm drops out — withdrawn from the running group (the open game a forfeit), told
    once, and never going on: the next best of the group takes the place."""
    service, clock, edition = at_stage_two(store)
    _kind, tids = current_groups(store, edition)
    group = service.tournament(tids[0])
    late = group.players[0].name  # wins every game played, but does not confirm
    for tid in tids:
        for player in service.tournament(tid).players:
            if player.name != late:
                service.register_for_stage(edition, player.name)
    starts = {p.start: p.name for p in group.players}
    left: tuple[int, int] | None = None
    for rnd in group.rounds:  # every game of the group but the last of ``late``'s
        for game in rnd.games:
            names = (starts.get(game.white), starts.get(game.black))
            if late in names and left is None and rnd.number == len(group.rounds):
                left = (rnd.number, game.board)
                continue
            result = "1-0" if names[0] == late or (late not in names and game.board % 2) else "0-1"
            service.record_result(tids[0], rnd.number, game.board, result)
    assert left is not None
    play_all(service, tids[1:], random.Random(3))
    closes = dt.datetime.fromisoformat(str(service.stage_window(edition)["closes"]))
    clock.advance(closes - clock.now() - dt.timedelta(seconds=1))
    assert mine(service.tick()) == []  # the last second of the window: nothing yet
    clock.advance(dt.timedelta(seconds=1))
    done = mine(service.tick())
    assert done[0] == "edition 1: stage 2 registration closed — 1 unconfirmed dropped out"
    assert "stage 2 (groups) ended" in done[1]
    assert mine(service.tick()) == []  # once
    view = service.overview(tids[0])
    assert next(p for p in view.players if p.name == late).withdrawn_from is not None
    with store.reading() as session:
        rows = list(session.scalars(select(SeriesOutboxRow)))
        regs = {r.id: r.name for r in session.scalars(select(SeriesRegistrationRow))}
        end = session.scalars(
            select(SeriesEventRow).where(SeriesEventRow.step == f"edition {edition}: stage 2 ends")
        ).one()
    told = [
        r
        for r in rows
        if r.recipient == late
        and r.payload.get("stage") == 2
        and r.kind in ("qualified", "eliminated")
    ]
    assert [(r.kind, r.payload.get("unconfirmed")) for r in told] == [("eliminated", True)]
    assert [regs[k] for k in end.data["dropped"]] == [late]
    assert end.data["barred"] == []  # not a fair-play case
    going = {regs[k] for k in end.data["qualified"]}
    group_names = {p.name for p in group.players}
    assert late not in going and len(going & group_names) == 2  # the next best moved up


def test_a_stage_over_before_its_window_closes_drops_nobody(store: Store) -> None:
    service, clock, edition = at_stage_two(store)
    _kind, tids = current_groups(store, edition)
    play_all(service, tids, random.Random(5))  # nobody confirmed, the stage is over
    clock.advance(dt.timedelta(weeks=3))
    done = mine(service.tick())
    assert "stage 2 (groups) ended" in done[0]
    assert not [line for line in done if "unconfirmed" in line]
