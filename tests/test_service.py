"""Every use case of crosstable.service, on SQLite and on PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest
from test_service_support import NAMES, db_url, registered, service, started, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod, WithdrawalRule
from crosstable.core.scoring import PointSystem
from crosstable.service import (
    ConflictError,
    NotFoundError,
    Notification,
    PlayerInfo,
    Regulations,
    Service,
)
from crosstable.service.loading import result_label
from crosstable.service.warning_levels import ConfirmationNeeded


def results(service: Service, tid: int) -> dict[tuple[int, int], str | None]:
    return {(g.round, g.board): g.result for g in service.overview(tid).games}


def game(service: Service, tid: int, rnd: int, board: int):  # type: ignore[no-untyped-def]
    return next(g for g in service.overview(tid).games if (g.round, g.board) == (rnd, board))


# -- creating and registering -------------------------------------------------------------


def test_create_keeps_the_regulations(service: Service) -> None:
    regulations = Regulations(
        name="  Spring   Open ",
        cycles=2,
        point_system=PointSystem.three_one_zero(),
        bye_points=Fraction(1, 2),
        tiebreaks=("de", "SB", "ks/l-1"),
        withdrawal_rule=WithdrawalRule.KEEP,
        time_control="90+30",
        start_date=dt.date(2026, 5, 1),
        end_date=dt.date(2026, 5, 9),
        details={"venue": "Yerevan"},
    )
    change = service.create_tournament(regulations, actor="arbiter")
    view = service.overview(change.tournament_id)
    assert view.name == "Spring Open"
    assert view.status == "registration"
    assert view.settings["cycles"] == 2
    assert view.settings["tiebreaks"] == ["DE", "SB", "KS/L-1"]
    assert view.settings["bye_points"] == "1/2"
    assert view.settings["point_system"]["win"] == "3"
    assert view.settings["regulations"] == {"venue": "Yerevan"}
    settings = service.tournament(change.tournament_id).settings
    assert settings.point_system == PointSystem.three_one_zero()
    assert settings.withdrawal_rule is WithdrawalRule.KEEP
    assert change.seq == 1 and change.actor == "arbiter"


@pytest.mark.parametrize(
    ("regulations", "message"),
    [
        (Regulations(name="  "), "needs a name"),
        (Regulations(name="X", tiebreaks=("SB", "sb")), "listed twice"),
        (Regulations(name="X", tiebreaks=("S B",)), "unknown code"),
        (Regulations(name="X", cycles=0), "at least one cycle"),
        (
            Regulations(name="X", start_date=dt.date(2026, 5, 2), end_date=dt.date(2026, 5, 1)),
            "ends",
        ),
    ],
)
def test_create_refuses_bad_regulations(
    service: Service, regulations: Regulations, message: str
) -> None:
    with pytest.raises(RuleError, match=message):
        service.create_tournament(regulations)
    assert service.tournaments() == []


def test_players_are_added_edited_and_removed_before_the_start(service: Service) -> None:
    tid = registered(service, 3)
    service.edit_player(tid, 2, name="Boris Spassky", rating=2100)
    service.remove_player(tid, 3)
    players = service.overview(tid).players
    assert [(p.number, p.name, p.rating) for p in players] == [
        (1, "Anna", 2000),
        (2, "Boris Spassky", 2100),
    ]
    # a guest needs no more than a name; the next number is never one in use
    service.add_player(tid, PlayerInfo("Guest"))
    assert [p.number for p in service.overview(tid).players] == [1, 2, 3]
    with pytest.raises(RuleError, match="needs a name"):
        service.add_player(tid, PlayerInfo("   "))
    with pytest.raises(RuleError, match="negative"):
        service.add_player(tid, PlayerInfo("Minus", rating=-5))
    with pytest.raises(NotFoundError, match="no player number 9"):
        service.remove_player(tid, 9)


def test_registration_closes_at_the_start(service: Service) -> None:
    tid = started(service, 4)
    with pytest.raises(RuleError, match="nobody can join it now"):  # a round robin
        service.add_player(tid, PlayerInfo("Late"))
    with pytest.raises(RuleError, match="withdraws instead"):
        service.remove_player(tid, 1)
    with pytest.raises(RuleError, match="already started"):
        service.start(tid)
    with pytest.raises(RuleError, match="only before round 1"):
        service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    # details can still be corrected
    service.edit_player(tid, 1, name="Anna K.")
    assert service.overview(tid).players[0].name == "Anna K."


def test_draw_by_hand_and_its_checks(service: Service) -> None:
    tid = registered(service, 4)
    with pytest.raises(RuleError, match="no starting number for '4'"):
        service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3))
    with pytest.raises(RuleError, match="'7', who has not entered"):
        service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 7))
    change = service.draw_lots(tid, LotsMethod.MANUAL, order=(4, 2, 1, 3))
    assert "1. Dmitri, 2. Boris, 3. Anna, 4. Clara" in change.summary
    starts = {p.name: p.start for p in service.overview(tid).players}
    assert starts == {"Dmitri": 1, "Boris": 2, "Anna": 3, "Clara": 4}
    # a redraw swaps numbers without tripping over the old ones
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    assert [p.start for p in service.overview(tid).players] == [1, 2, 3, 4]
    # changing the field clears the draw, and says so
    added = service.add_player(tid, PlayerInfo("Eva"))
    assert "draw lots again" in added.summary
    assert all(p.start is None for p in service.overview(tid).players)
    with pytest.raises(RuleError, match="draw lots first"):
        service.start(tid)


def test_start_materialises_the_berger_schedule(service: Service) -> None:
    tid = started(service, 5)
    view = service.overview(tid)
    assert view.status == "running"
    assert view.rounds == 5
    assert len(view.games) == 10  # 5·4/2
    assert sorted(view.free_rounds) == [(r, s) for r, s in sorted(view.free_rounds)]
    assert {s for _, s in view.free_rounds} == {1, 2, 3, 4, 5}  # each has one free round
    pairs = {frozenset((g.white, g.black)) for g in view.games}
    assert len(pairs) == 10
    # round 1 of FIDE's table for 5/6 players: 1-6 is the free round, 2-5, 3-4
    assert [(g.white, g.black) for g in view.games if g.round == 1] == [(2, 5), (3, 4)]
    assert (1, 1) in view.free_rounds


# -- results ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spelling", "label"),
    [
        ("1-0", "1-0"),
        ("0-1", "0-1"),
        ("½-½", "½-½"),
        ("1/2-1/2", "½-½"),
        ("0.5-0.5", "½-½"),
        ("=", "½-½"),
        ("+-", "+-"),
        ("-+", "-+"),
        ("--", "--"),
    ],
)
def test_record_result_spellings(service: Service, spelling: str, label: str) -> None:
    tid = started(service, 4)
    change = service.record_result(tid, 1, 1, spelling)
    assert not change.replayed
    assert game(service, tid, 1, 1).result == label


def test_results_only_for_scheduled_games_of_this_tournament(service: Service) -> None:
    tid = registered(service, 4)
    with pytest.raises(RuleError, match="not scheduled: the tournament has not started"):
        service.record_result(tid, 1, 1, "1-0")
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    with pytest.raises(NotFoundError, match="no round 9"):
        service.record_result(tid, 9, 1, "1-0")
    with pytest.raises(NotFoundError, match="no board 3"):
        service.record_result(tid, 1, 3, "1-0")
    with pytest.raises(NotFoundError, match="no tournament 999"):
        service.record_result(999, 1, 1, "1-0")
    with pytest.raises(RuleError, match="not understood"):
        service.record_result(tid, 1, 1, "2-0")
    # ``*`` is no result but an adjourned game (its result not known yet)
    service.record_result(tid, 1, 2, "*")
    assert game(service, tid, 1, 2).result == result_label("**")
    other = started(service, 4)
    service.record_result(other, 1, 1, "1-0")
    assert game(service, tid, 1, 1).result is None


def test_same_result_twice_is_accepted_once_a_different_one_conflicts(service: Service) -> None:
    tid = started(service, 4)
    first = service.record_result(tid, 1, 1, "1-0")
    again = service.record_result(tid, 1, 1, "1-0")
    assert again.replayed and again.seq == first.seq
    with pytest.raises(ConflictError, match="already has 1-0") as conflict:
        service.record_result(tid, 1, 1, "0-1")
    assert conflict.value.current == "1-0"
    assert [h.kind for h in service.history(tid)].count("result") == 1


def test_idempotency_key(service: Service) -> None:
    tid = started(service, 4)
    first = service.record_result(tid, 1, 1, "1-0", idempotency_key="srv-42")
    again = service.record_result(tid, 1, 1, "1-0", idempotency_key="srv-42")
    assert again.replayed and again.seq == first.seq
    # still accepted once after someone corrected the game meanwhile
    service.correct_result(tid, 1, 1, "0-1")
    replay = service.record_result(tid, 1, 1, "1-0", idempotency_key="srv-42")
    assert replay.replayed and game(service, tid, 1, 1).result == "0-1"
    with pytest.raises(ConflictError, match="already used for another request"):
        service.record_result(tid, 1, 2, "1-0", idempotency_key="srv-42")


def test_expected_version_guards_against_lost_updates(service: Service) -> None:
    tid = started(service, 4)
    version = game(service, tid, 1, 1).version
    service.record_result(tid, 1, 1, "1-0", expected_version=version)
    service.correct_result(tid, 1, 1, None)
    with pytest.raises(ConflictError, match="changed meanwhile"):
        service.record_result(tid, 1, 1, "0-1", expected_version=version)


def test_correct_result(service: Service) -> None:
    tid = started(service, 4)
    with pytest.raises(RuleError, match="no result yet"):
        service.correct_result(tid, 1, 1, "1-0")
    service.record_result(tid, 1, 1, "1-0")
    with pytest.raises(ConflictError, match="is 1-0 now, not 0-1") as conflict:
        service.correct_result(tid, 1, 1, "½-½", expected="0-1")
    assert conflict.value.current == "1-0"
    change = service.correct_result(tid, 1, 1, "½-½", expected="1-0")
    assert "1-0 corrected to ½-½" in change.summary
    assert service.correct_result(tid, 1, 1, "=").replayed
    service.correct_result(tid, 1, 1, None)
    assert game(service, tid, 1, 1).result is None


def test_forfeits(service: Service) -> None:
    tid = started(service, 4)
    service.mark_forfeit(tid, 1, 1, absent="white")
    service.mark_forfeit(tid, 1, 2, absent="both")
    assert results(service, tid)[(1, 1)] == "-+"
    assert results(service, tid)[(1, 2)] == "--"
    with pytest.raises(RuleError, match="white, black or both"):
        service.mark_forfeit(tid, 2, 1, absent="nobody")
    table = {row["start"]: row["points"] for row in service.live_standings(tid)["rows"]}
    black_of_board_1 = game(service, tid, 1, 1).black
    assert table[black_of_board_1] == 1


def test_players_report_and_the_organiser_decides(service: Service) -> None:
    tid = started(service, 4)
    g = game(service, tid, 1, 1)
    one = service.report_result(tid, 1, 1, "1-0", player=g.white)
    assert "awaiting confirmation" in one.summary
    assert game(service, tid, 1, 1).result is None
    # the same report again changes nothing
    assert service.report_result(tid, 1, 1, "1-0", player=g.white).replayed
    both = service.report_result(tid, 1, 1, "1-0", player=g.black)
    assert "both players agree" in both.summary
    assert game(service, tid, 1, 1).result == "1-0"

    h = game(service, tid, 1, 2)
    with pytest.raises(RuleError, match=f"player {g.white} does not play round 1 board 2"):
        service.report_result(tid, 1, 2, "1-0", player=g.white)
    service.report_result(tid, 1, 2, "1-0", player=h.white)
    disputed = service.report_result(tid, 1, 2, "0-1", player=h.black)
    assert "disputed" in disputed.summary
    assert game(service, tid, 1, 2).disputed
    with pytest.raises(RuleError, match="disputed"):
        service.confirm_result(tid, 1, 2)
    decided = service.confirm_result(tid, 1, 2, "½-½", actor="organiser")
    assert "decided by the organiser" in decided.summary
    assert game(service, tid, 1, 2).result == "½-½"
    with pytest.raises(ConflictError, match="ask the organiser"):
        service.report_result(tid, 1, 2, "1-0", player=h.white)


def test_confirm_and_reject_single_reports(service: Service) -> None:
    tid = started(service, 4)
    g = game(service, tid, 2, 1)
    with pytest.raises(RuleError, match="nobody reported"):
        service.confirm_result(tid, 2, 1)
    with pytest.raises(RuleError, match="no report to reject"):
        service.reject_reports(tid, 2, 1)
    service.report_result(tid, 2, 1, "0-1", player=g.black)
    service.reject_reports(tid, 2, 1)
    assert game(service, tid, 2, 1).black_report is None
    service.report_result(tid, 2, 1, "0-1", player=g.black)
    service.confirm_result(tid, 2, 1)
    assert game(service, tid, 2, 1).result == "0-1"
    with pytest.raises(RuleError, match="correct it instead"):
        service.confirm_result(tid, 2, 1)


# -- withdrawals and the finish -------------------------------------------------------------


def test_withdrawal_forfeits_every_later_game(service: Service) -> None:
    tid = started(service, 4)
    service.record_result(tid, 1, 1, "1-0")
    service.record_result(tid, 1, 2, "1-0")
    change = service.withdraw(tid, 4, actor="arbiter")
    assert "from round 2" in change.summary and "2 games forfeited" in change.summary
    for g in service.overview(tid).games:
        if 4 in (g.white, g.black) and g.round >= 2:
            assert g.result == ("-+" if g.white == 4 else "+-")
    assert service.overview(tid).players[3].withdrawn_from == 2
    with pytest.raises(RuleError, match="withdrew already"):
        service.withdraw(tid, 4)
    # a second withdrawal keeps the forfeit win already given; a game still open between
    # two withdrawn players becomes a double forfeit
    meeting = next(g for g in service.overview(tid).games if {g.white, g.black} == {3, 4})
    service.correct_result(tid, meeting.round, meeting.board, None)
    service.withdraw(tid, 3)
    assert game(service, tid, meeting.round, meeting.board).result == "--"
    assert service.tournament(tid).withdrawn == frozenset({3, 4})


def test_withdrawal_rules(service: Service) -> None:
    tid = registered(service, 4)
    with pytest.raises(RuleError, match="remove the player instead"):
        service.withdraw(tid, 1)
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    with pytest.raises(NotFoundError, match="starting number 9"):
        service.withdraw(tid, 9)
    for g in service.overview(tid).games:
        if 1 in (g.white, g.black):
            service.record_result(tid, g.round, g.board, "½-½")
    with pytest.raises(RuleError, match="withdrawal after the last round is refused"):
        service.withdraw(tid, 1)
    with pytest.raises(RuleError, match="already has a result in round 2"):
        service.withdraw(tid, 2, from_round=1)


def test_finish_fixes_the_places(service: Service) -> None:
    tid = started(service, 4)
    with pytest.raises(RuleError, match="6 game"):
        service.finish(tid)
    for g in service.overview(tid).games:
        service.record_result(tid, g.round, g.board, "1-0" if g.white < g.black else "0-1")
    change = service.finish(tid)
    assert "first: Anna" in change.summary
    view = service.overview(tid)
    assert view.status == "finished"
    assert [(p.start, p.place) for p in view.players] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    with pytest.raises(RuleError, match="finished"):
        service.correct_result(tid, 1, 1, "0-1")
    assert service.finish(tid).replayed  # finished by its last result: nothing to do
    service.undo(tid)
    assert service.overview(tid).status == "running"
    assert service.overview(tid).players[0].place is None


# -- the published rules are locked ---------------------------------------------------------


def test_regulations_locked_after_the_start(service: Service) -> None:
    tid = registered(service, 4, tiebreaks=("DE",))
    service.edit_regulations(tid, tiebreaks=("SB", "DE"), time_control="G/60")
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    with pytest.raises(ConfirmationNeeded, match="level 4"):  # tests/test_fide_warnings.py
        service.edit_regulations(tid, tiebreaks=("DE",))
    with pytest.raises(RuleError, match="point system was published"):
        service.edit_regulations(tid, point_system=PointSystem.three_one_zero())
    with pytest.raises(RuleError, match="cycles cannot change after the start"):
        service.edit_regulations(tid, cycles=2, override_reason="we have time")
    with pytest.raises(RuleError, match="unknown setting"):
        service.edit_regulations(tid, colour="blue")
    # the same value is not a change; other details stay editable
    assert service.edit_regulations(tid, tiebreaks=("SB", "DE")).replayed
    service.edit_regulations(tid, time_control="G/90", name="Club 2026")
    change = service.edit_regulations(
        tid, withdrawal_rule=WithdrawalRule.KEEP, override_reason="misprint"
    )
    assert change.data["override"] == "misprint"
    assert "override" in service.history(tid)[-1].summary


# -- history --------------------------------------------------------------------------------


def test_undo_steps_back_one_change_at_a_time(service: Service) -> None:
    tid = started(service, 4)
    service.record_result(tid, 1, 1, "1-0")
    service.correct_result(tid, 1, 1, "0-1")
    service.undo(tid)
    assert game(service, tid, 1, 1).result == "1-0"
    service.undo(tid)
    assert game(service, tid, 1, 1).result is None
    service.undo(tid)  # the start
    assert service.overview(tid).status == "registration"
    assert service.overview(tid).games == ()
    history = service.history(tid)
    assert [h.undone for h in history if h.kind in ("start", "result", "correction")] == [
        True,
        True,
        True,
    ]
    for _ in range(5):  # the draw and four registrations
        service.undo(tid)
    with pytest.raises(RuleError, match="nothing to undo"):
        service.undo(tid)
    assert service.overview(tid).players == ()
    assert service.verify(tid) == []


def test_revert_to_any_point_and_back(service: Service) -> None:
    tid = started(service, 4)
    marks = {}
    for g in service.overview(tid).games[:4]:
        marks[(g.round, g.board)] = service.record_result(tid, g.round, g.board, "1-0").seq
    snapshot = results(service, tid)
    first = min(marks.values())
    reverted = service.revert_to(tid, first)
    assert "3 later events taken back" in reverted.summary
    assert sum(r is not None for r in results(service, tid).values()) == 1
    # revert the revert: everything is back
    service.revert_to(tid, reverted.seq - 1)
    assert results(service, tid) == snapshot
    with pytest.raises(RuleError, match="no event #99"):
        service.revert_to(tid, 99)
    with pytest.raises(RuleError, match="latest event"):
        service.revert_to(tid, service.history(tid)[-1].seq)
    assert service.verify(tid) == []


def test_history_records_who_when_what(service: Service) -> None:
    tid = started(service, 4)
    service.record_result(tid, 1, 1, "1-0", actor="anna")
    last = service.history(tid)[-1]
    assert last.actor == "anna"
    assert last.kind == "result"
    assert last.at.startswith("2026-05-01T18:")
    assert "round 1 board 1: 1-0 (1 Anna – 4 Dmitri)" in last.summary


# -- live standings and notifications -------------------------------------------------------


def test_live_standings_follow_every_change(service: Service) -> None:
    tid = started(service, 4)
    seen: list[Notification] = []
    stop = service.bus.subscribe(seen.append, tournament_id=tid)
    service.record_result(tid, 1, 1, "1-0")
    table = service.live_standings(tid)
    assert table is not None and table["provisional"] is True
    first = table["rows"][0]
    assert (first["start"], first["rank"], first["points"], first["name"]) == (1, 1, 1, "Anna")
    assert table["revision"] == service.history(tid)[-1].seq
    assert seen[-1].games == ((1, 1),) and seen[-1].kind == "result"
    assert seen[-1].standings is not None
    service.undo(tid)
    assert service.live_standings(tid)["rows"][0]["points"] == 0
    assert seen[-1].kind == "undo" and seen[-1].games == ((1, 1),)
    stop()
    service.record_result(tid, 1, 2, "½-½")
    assert len(seen) == 2


def test_nothing_is_written_when_a_rule_refuses(service: Service) -> None:
    tid = started(service, 4)
    before = service.history(tid)
    with pytest.raises(RuleError):
        service.withdraw(tid, 1, from_round=7)
    assert service.history(tid) == before
    assert service.verify(tid) == []


def test_several_tournaments_in_one_database(service: Service) -> None:
    one = started(service, 4)
    two = started(service, 6)
    service.record_result(two, 1, 3, "0-1")
    assert [t.id for t in service.tournaments()] == [one, two]
    assert [t.players for t in service.tournaments()] == [4, 6]
    assert results(service, one)[(1, 1)] is None
    assert NAMES[0] in service.overview(two).players[0].name


def test_incremental_live_table_equals_a_full_recount(service: Service) -> None:
    from test_service_support import make_service

    from crosstable.service.live import live_standings

    tid = started(service, 7, tiebreaks=("DE", "SB", "WIN", "KS"))
    other = make_service(service.store, seed=2)  # another app process, as it were
    for index, g in enumerate(service.overview(tid).games[:15]):
        writer = other if index % 5 == 4 else service
        writer.record_result(tid, g.round, g.board, ("1-0", "½-½", "0-1", "+-")[index % 4])
        if index == 9:
            service.correct_result(tid, g.round, g.board, "0-1")
        stored = dict(service.live_standings(tid) or {})
        stored.pop("revision")
        assert stored == live_standings(service.tournament(tid))
    service.withdraw(tid, 3)
    service.undo(tid)
    stored = dict(service.live_standings(tid) or {})
    stored.pop("revision")
    assert stored == live_standings(service.tournament(tid))
