"""A round robin played on the circle method (the organiser's choice; Berger stays the
default): the core's choice of table, the start through the service on SQLite and
PostgreSQL, the command line (new, export, check, import), the wizard and the JSON API."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_service_support import db_url, make_service, migrated, service, store  # noqa: F401

from crosstable.cli import main
from crosstable.core.checker import Declared, check_event
from crosstable.core.errors import RuleError
from crosstable.core.model import (
    Game,
    GameResult,
    LotsMethod,
    Player,
    Round,
    Settings,
    System,
    Tournament,
)
from crosstable.core.schedule import berger_schedule, circle_schedule, verify_schedule
from crosstable.core.schedule.kinds import (
    ScheduleKind,
    round_robin_table,
    schedule_comment,
    schedule_details,
    schedule_from_comments,
    schedule_header,
    schedule_kind,
)
from crosstable.core.system_settings import SettingError
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import open_store


def rounds_of(tournament: Tournament) -> list[tuple[tuple[tuple[int, int], ...], int | None]]:
    """Each round's boards (White first) and free player, by starting number."""
    out = []
    for rnd in tournament.rounds:
        free = next((b.player for b in rnd.byes), None)
        out.append((tuple((g.white, g.black) for g in rnd.games), free))
    return out


def table_rounds(kind: ScheduleKind, players: int, cycles: int = 1) -> list[object]:
    return [(r.boards, r.bye) for r in round_robin_table(kind, players, cycles).rounds]


# ---------------------------------------------------------------- the core


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 24), st.integers(1, 3), st.booleans())
def test_r_rr_6_each_table_is_a_valid_schedule(players: int, cycles: int, swap: bool) -> None:
    """Both tables, any field and cycles: every pair once per cycle, the free round in an
    odd field; the circle table is the circle method's and differs from Berger's."""
    circle = round_robin_table(ScheduleKind.CIRCLE, players, cycles, swap_last_rounds=swap)
    berger = round_robin_table(ScheduleKind.BERGER, players, cycles, swap_last_rounds=swap)
    assert circle == circle_schedule(players, cycles, swap_last_rounds=swap)
    assert berger == berger_schedule(players, cycles, swap_last_rounds=swap)
    report = verify_schedule(circle)
    # every pair once per cycle, the free round right; three of a colour in a row can
    # only come at a junction of cycles (as with Berger), which verify reports
    assert [p for p in report.problems if p.kind != "colour-run"] == []
    assert report.ok or cycles > 1
    if players > 4:
        assert circle != berger


def test_r_rr_6_the_setting_is_read_and_refused_clearly() -> None:
    assert schedule_kind({}) is ScheduleKind.BERGER
    assert schedule_kind({"schedule": " CIRCLE "}) is ScheduleKind.CIRCLE
    with pytest.raises(SettingError) as refused:
        schedule_kind({"schedule": "spiral"})
    assert refused.value.key == "schedule" and "berger, circle or crenshaw" in str(refused.value)
    with pytest.raises(RuleError, match="circle method needs at least 3 players"):
        round_robin_table(ScheduleKind.CIRCLE, 2)


@given(st.sampled_from(list(ScheduleKind)), st.text(max_size=40))
def test_r_rr_6_the_trf_statement_reads_back(kind: ScheduleKind, noise: str) -> None:
    """The ### comment names the table; another comment, or nonsense, states nothing."""
    stated = schedule_from_comments([noise, schedule_comment(kind)])
    assert stated is kind or schedule_from_comments([noise]) is not None
    assert schedule_details(schedule_header([schedule_comment(kind)])) == (
        {} if kind is ScheduleKind.BERGER else {"schedule": kind.value}
    )
    assert schedule_from_comments([" Schedule: spiral"]) is None


# ---------------------------------------------------------------- the service


def _circle(service: Service, players: int, cycles: int = 1, **details: str) -> int:
    regulations = Regulations(
        name="Circle club", cycles=cycles, details={"schedule": "circle", **details}
    )
    tid = service.create_tournament(regulations).tournament_id
    for index in range(players):
        service.add_player(tid, PlayerInfo(f"P{index + 1}", rating=2400 - 10 * index))
    service.draw_lots(tid, LotsMethod.RATING)
    return tid


def test_r_rr_6_a_tournament_runs_on_the_circle_method(service: Service) -> None:
    """Odd field (free rounds) and a double round robin: the stored rounds are the
    circle method's; the results give standings as for any round robin."""
    odd = _circle(service, 5)
    service.start(odd)
    assert rounds_of(service.tournament(odd)) == table_rounds(ScheduleKind.CIRCLE, 5)
    for game in service.overview(odd).games:
        service.record_result(odd, game.round, game.board, "1-0")
    table = service.tournament(odd)
    assert sum(table.score(p.start) for p in table.players) == 10
    double = _circle(service, 4, cycles=2)
    service.start(double)
    assert rounds_of(service.tournament(double)) == table_rounds(ScheduleKind.CIRCLE, 4, 2)
    berger = service.create_tournament(Regulations(name="Berger")).tournament_id
    for index in range(6):
        service.add_player(berger, PlayerInfo(f"B{index}", rating=2000 - index))
    service.draw_lots(berger, LotsMethod.RATING)
    service.start(berger)
    assert rounds_of(service.tournament(berger)) == table_rounds(ScheduleKind.BERGER, 6)


def test_r_rr_6_a_bad_or_late_choice_is_refused_and_nothing_changes(service: Service) -> None:
    before = len(service.tournaments())
    with pytest.raises(RuleError, match="use berger, circle or crenshaw"):
        service.create_tournament(Regulations(name="X", details={"schedule": "spiral"}))
    with pytest.raises(RuleError, match="a setting of a round robin, not of a Swiss"):
        service.create_tournament(
            Regulations(name="Y", system=System.SWISS_DUTCH, details={"schedule": "circle"})
        )
    assert len(service.tournaments()) == before
    tid = _circle(service, 4)
    service.edit_regulations(tid, details={"schedule": "berger"})  # before the start: fine
    service.edit_regulations(tid, details={"schedule": "circle"})
    service.start(tid)
    revision = service.revision(tid)
    with pytest.raises(RuleError, match="fixed at the start"):
        service.edit_regulations(tid, details={"schedule": "berger"})
    assert service.revision(tid) == revision
    assert rounds_of(service.tournament(tid)) == table_rounds(ScheduleKind.CIRCLE, 4)


# ---------------------------------------------------------------- the command line


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_r_rr_6_cli_new_export_check_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "club.db")
    assert run(capsys, "new", "Circle", "--schedule", "circle", "--db", db)[0] == 0
    for index in range(5):
        name = f"Player {index + 1}"
        assert run(capsys, "player", "add", name, "--rating", str(2300 - index), "--db", db)[0] == 0
    assert run(capsys, "draw", "--by", "rating", "--db", db)[0] == 0
    assert run(capsys, "start", "--db", db)[0] == 0
    assert run(capsys, "result", "1", "1", "1-0", "--db", db)[0] == 0
    assert run(capsys, "result", "1", "2", "½-½", "--db", db)[0] == 0
    trf = tmp_path / "circle.trf"
    assert run(capsys, "export", "--to", "trf16", "-o", str(trf), "--db", db)[0] == 0
    text = trf.read_text(encoding="utf-8")
    assert "### Schedule: circle" in text.splitlines()
    code, out, _err = run(capsys, "check", str(trf))
    assert code == 0 and "circle method for 5 players" in out and "1 of 1 rounds agree" in out
    # the same games read as Berger (the statement removed) do not agree
    berger = tmp_path / "berger.trf"
    berger.write_text(text.replace("### Schedule: circle\n", ""), encoding="utf-8")
    _code, out, _err = run(capsys, "check", str(berger))
    assert "0 of 1 rounds agree" in out
    assert run(capsys, "import", str(trf), "--db", db)[0] == 0
    store = open_store(migrated(f"sqlite:///{db}"))
    try:
        imported = make_service(store)
        newest = max(t.id for t in imported.tournaments())
        assert dict(imported.overview(newest).settings["regulations"])["schedule"] == "circle"
    finally:
        store.close()


def test_r_rr_6_cli_refuses_a_bad_choice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "club.db")
    code, out, err = run(capsys, "new", "X", "--schedule", "spiral", "--db", db)
    assert code == 2 and "--schedule 'spiral': use berger, circle or crenshaw" in err and out == ""
    code, _out, err = run(
        capsys, "new", "Y", "--system", "dutch", "--schedule", "circle", "--db", db
    )
    assert code == 2 and "--schedule is for round robins" in err
    assert not (tmp_path / "club.db").exists() or run(capsys, "tournaments", "--db", db)[0] == 0


def test_r_rr_6_the_checker_checks_against_the_declared_table() -> None:
    """A tournament played on the circle method agrees with it and not with Berger."""
    table = round_robin_table(ScheduleKind.CIRCLE, 6)
    tournament = Tournament(
        Settings(),
        tuple(Player(s, f"P{s}") for s in range(1, 7)),
        tuple(
            Round(
                r.number,
                tuple(
                    Game(r.number, b, w, bl, GameResult.DRAW())
                    for b, (w, bl) in enumerate(r.boards, 1)
                ),
            )
            for r in table.rounds
        ),
    )
    circle = check_event(tournament, Declared(schedule=ScheduleKind.CIRCLE))
    berger = check_event(tournament)
    assert circle.method == "circle" and all(not v.findings for v in circle.rounds)
    assert berger.method == "berger" and any(v.findings for v in berger.rounds)
