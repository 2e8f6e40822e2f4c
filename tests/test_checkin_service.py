# ruff: noqa: F811 - pytest fixtures imported from test_service_support
"""The hall's check-in through the service (issue 16.5), on SQLite and PostgreSQL: players
check in for a round, the check-in is in the history and undo takes it back; the absent
players get a zero-point bye before a Swiss round is paired, a forfeit in a round robin;
a knockout refuses; bad requests are refused with a message."""

from __future__ import annotations

import pytest
from test_service_support import db_url, make_service, service, started, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod, System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.errors import NotFoundError


def swiss(service: Service, players: int = 6) -> int:
    tid = service.create_tournament(
        Regulations(name="Open", system=System.SWISS_DUTCH, rounds=3)
    ).tournament_id
    for i in range(players):
        service.add_player(tid, PlayerInfo(f"Player {i + 1}", rating=2100 - 10 * i))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    return tid


def test_a_check_in_is_in_the_history_and_undo_takes_it_back(service: Service) -> None:
    tid = started(service, 4)
    view = service.checkin_view(tid)
    assert view.round == 1 and not view.present and len(view.absent) == 4
    change = service.check_in(tid, 2)
    assert change.kind == "check-in" and "checked in for round 1" in change.summary
    again = service.check_in(tid, 2)
    assert again.replayed  # the same tap twice changes nothing
    view = service.checkin_view(tid)
    assert [line.start for line in view.present] == [2]
    assert view.present[0].at.startswith("2026-05-01")
    history = service.history(tid)
    assert history[-1].kind == "check-in"
    service.undo(tid)
    assert not service.checkin_view(tid).present
    service.check_in(tid, 3)
    service.cancel_check_in(tid, 3)
    assert not service.checkin_view(tid).present
    with pytest.raises(RuleError, match="not checked in"):
        service.cancel_check_in(tid, 3)


def test_absent_players_of_a_round_robin_lose_by_forfeit(service: Service) -> None:
    tid = started(service, 4)
    games = [g for g in service.overview(tid).games if g.round == 1]
    # check in everyone but the black player of board 1 and both players of board 2
    b1, b2 = games[0], games[1]
    assert b1.white is not None and b1.black is not None
    service.check_in(tid, b1.white)
    change = service.absent_byes(tid)
    assert change.kind == "absent"
    after = {g.board: g.result for g in service.overview(tid).games if g.round == 1}
    assert after[b1.board] == "+-" and after[b2.board] == "--"
    assert service.checkin_view(tid).round == 2  # round 1 has all its results
    service.undo(tid)
    again = {g.board: g.result for g in service.overview(tid).games if g.round == 1}
    assert again == {b1.board: None, b2.board: None}
    assert service.checkin_view(tid).round == 1


def test_absent_players_of_a_swiss_get_a_zero_point_bye_before_the_pairing(
    service: Service,
) -> None:
    tid = swiss(service)
    for start in (1, 2, 3, 4):
        service.check_in(tid, start)
    service.absent_byes(tid)
    byes = {(b.round, b.start): b.kind for b in service.byes(tid)}
    assert byes == {(1, 5): "Z", (1, 6): "Z"}
    service.publish_round(tid)
    paired = {s for g in service.overview(tid).games for s in (g.white, g.black)}
    assert paired == {1, 2, 3, 4}
    view = service.checkin_view(tid)
    assert view.round == 2 and view.open
    with pytest.raises(RuleError, match="paired already"):
        service.absent_byes(tid, 1)


def test_a_swiss_bye_is_undone_in_one_step(service: Service) -> None:
    tid = swiss(service)
    service.check_in(tid, 1)
    service.absent_byes(tid)
    assert len(service.byes(tid)) == 5
    service.undo(tid)
    assert service.byes(tid) == []


def test_what_is_refused(service: Service) -> None:
    tid = started(service, 4)
    with pytest.raises(NotFoundError):
        service.check_in(tid, 9)
    with pytest.raises(RuleError, match="no round 7"):
        service.check_in(tid, 1, 7)
    for start in (1, 2, 3, 4):
        service.check_in(tid, start)
    with pytest.raises(RuleError, match="nobody is absent"):
        service.absent_byes(tid)
    fresh = service.create_tournament(Regulations(name="Later")).tournament_id
    service.add_player(fresh, PlayerInfo("A"))
    with pytest.raises(RuleError, match="tournament in play"):
        service.check_in(fresh, 1)


def test_a_knockout_asks_for_forfeits_game_by_game(service: Service) -> None:
    tid = service.create_tournament(
        Regulations(name="Cup", system=System.KNOCKOUT, details={"match_format": "1"})
    ).tournament_id
    for i in range(4):
        service.add_player(tid, PlayerInfo(f"Player {i + 1}", rating=2000 - i))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    service.check_in(tid, 1)
    with pytest.raises(RuleError, match="knockout"):
        service.absent_byes(tid)
    assert [line.start for line in service.checkin_view(tid).present] == [1]


def test_a_withdrawn_player_is_not_asked(service: Service) -> None:
    tid = swiss(service)
    service.withdraw(tid, 6)
    view = service.checkin_view(tid)
    assert [line.status for line in view.lines if line.start == 6] == ["withdrawn"]
    assert 6 not in [line.start for line in view.absent]
    with pytest.raises(RuleError, match="withdrew"):
        service.check_in(tid, 6)


def test_check_ins_survive_an_export_and_an_import(service: Service) -> None:
    tid = started(service, 4)
    service.check_in(tid, 1)
    service.check_in(tid, 3)
    document = service.export_json(tid)
    assert [c["player"] for c in document["checkins"]] == [1, 3]
    copy = service.import_json(document)
    assert [line.start for line in service.checkin_view(copy).present] == [1, 3]
    service.undo(copy)  # the history still takes the last check-in back
    assert [line.start for line in service.checkin_view(copy).present] == [1]
    older = {k: v for k, v in service.export_json(tid).items() if k != "checkins"}
    older["history"] = [e for e in older["history"] if e["kind"] != "check-in"]
    older["tournament"]["revision"] = older["history"][-1]["seq"]
    assert service.checkin_view(service.import_json(older)).present == ()
