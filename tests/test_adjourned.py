"""Adjourned games through the service, on SQLite and PostgreSQL: recorded as adjourned
(no points, a draw for pairing), their real result entered later (a decisive one with a
level-3 warning and a ### Adjournment line), pairing a round with results missing (they
are adjourned, level 2), an old adjourned game still open (level 2), and no finish and
no FIDE rating report while one is open."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

from fractions import Fraction

import pytest

from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod, System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.warning_levels import ConfirmationNeeded, Level
from tests.test_service_support import db_url, service, store  # noqa: F401


def swiss(service: Service, players: int = 6, rounds: int = 3) -> int:
    regulations = Regulations(name="Open", system=System.SWISS_DUTCH, rounds=rounds)
    tid = service.create_tournament(regulations).tournament_id
    for index in range(players):
        service.add_player(tid, PlayerInfo(f"Player {index + 1}", rating=2400 - 10 * index))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    return tid


def results(service: Service, tid: int, number: int, *, skip: tuple[int, ...] = ()) -> None:
    for game in service.overview(tid).games:
        if game.round == number and game.result is None and game.board not in skip:
            service.record_result(tid, number, game.board, "1-0")


def result_of(service: Service, tid: int, number: int, board: int) -> str | None:
    return next(
        g.result for g in service.overview(tid).games if (g.round, g.board) == (number, board)
    )


def points(service: Service, tid: int) -> dict[int, Fraction]:
    _, table = service.crosstable(tid)
    return {line.start: line.points for line in table.lines}


def test_q157_q162_q163_adjourned_game_then_its_decisive_result(service: Service) -> None:
    tid = swiss(service)
    service.publish_round(tid)
    results(service, tid, 1, skip=(1,))
    white, black = next((g.white, g.black) for g in service.overview(tid).games if g.board == 1)
    change = service.record_result(tid, 1, 1, "*")
    assert "adjourned" in str(change.summary)
    assert result_of(service, tid, 1, 1) == "*"
    assert points(service, tid)[white] == points(service, tid)[black] == 0  # no points
    service.record_result(tid, 1, 1, "*")  # the same again changes nothing
    assert [h.kind for h in service.history(tid)].count("adjourned") == 1
    paired = service.publish_round(tid)  # the adjourned game counts as a draw for pairing
    assert "round 2 paired" in str(paired.summary)
    # its real result later: decisive, so a level-3 warning first; nothing stored
    with pytest.raises(ConfirmationNeeded) as asked:
        service.record_result(tid, 1, 1, "1-0")
    assert asked.value.level is Level.CONFIRM
    assert asked.value.warnings[0].code == "adjourned-decisive"
    assert result_of(service, tid, 1, 1) == "*"
    with pytest.raises(ConfirmationNeeded):  # another result: the token does not fit
        service.adjourned_result(tid, 1, 1, "0-1", confirm=asked.value.token)
    done = service.adjourned_result(tid, 1, 1, "1-0", confirm=asked.value.token)
    assert "confirmed warning, level 3" in str(done.summary)
    assert result_of(service, tid, 1, 1) == "1-0"
    assert points(service, tid)[white] == 1
    trf = service.export_trf(tid)
    assert f"### Adjournment @ Round 1: board 1, {white} - {black} 1-0" in trf


def test_q167_a_draw_for_an_adjourned_game_needs_no_warning(service: Service) -> None:
    tid = swiss(service, 4, rounds=2)
    service.publish_round(tid)
    service.adjourn_game(tid, 1, 2)
    service.record_result(tid, 1, 1, "1-0")
    with pytest.raises(RuleError, match="already has 1-0: only a game without a result"):
        service.adjourn_game(tid, 1, 1)
    done = service.record_result(tid, 1, 2, "½-½")
    assert "adjourned game's result" in str(done.summary)
    assert "###" not in service.export_trf(tid).replace("### Schedule", "")
    with pytest.raises(RuleError, match="not adjourned"):
        service.adjourned_result(tid, 1, 2, "1-0")


def test_q159_q160_pairing_with_missing_results_adjourns_them(service: Service) -> None:
    tid = swiss(service)
    service.publish_round(tid)
    results(service, tid, 1, skip=(2, 3))
    with pytest.raises(ConfirmationNeeded) as asked:
        service.publish_round(tid)
    assert asked.value.level is Level.ACKNOWLEDGE
    assert asked.value.warnings[0].code == "adjourned-by-pairing"
    assert "round 1 board 2, round 1 board 3" in str(asked.value.warnings[0].message)
    assert result_of(service, tid, 1, 2) is None  # nothing changed
    done = service.publish_round(tid, confirm=asked.value.token)
    assert "round 2 paired" in str(done.summary)
    assert "acknowledged warning, level 2" in str(done.summary)
    assert result_of(service, tid, 1, 2) == result_of(service, tid, 1, 3) == "*"
    assert service.history(tid)[-1].kind == "pairing"
    assert "adjourned: round 1 board 2, round 1 board 3" in service.history(tid)[-1].summary
    assert any(g.round == 2 for g in service.overview(tid).games)


def test_q168_an_old_adjourned_game_still_open_is_a_level_2_warning(service: Service) -> None:
    tid = swiss(service, rounds=4)
    service.publish_round(tid)
    results(service, tid, 1, skip=(1,))
    service.record_result(tid, 1, 1, "*")
    service.publish_round(tid)  # round 1 is the last completed round: no warning
    results(service, tid, 2)
    with pytest.raises(ConfirmationNeeded) as asked:
        service.publish_round(tid)
    assert [w.code for w in asked.value.warnings] == ["adjourned-still-open"]
    assert "from before round 2" in str(asked.value.warnings[0].message)
    done = service.publish_round(tid, confirm=asked.value.token)
    assert "round 3 paired" in str(done.summary)


def test_q161_q169_no_finish_and_no_rating_report_while_one_is_open(service: Service) -> None:
    tid = swiss(service, 4, rounds=2)
    service.publish_round(tid)
    results(service, tid, 1, skip=(1,))
    service.record_result(tid, 1, 1, "*")
    assert "?" in service.export_trf(tid)  # an interim file: the game as ?, for pairing
    service.publish_round(tid)
    results(service, tid, 2)
    overview = service.overview(tid)
    assert overview.status == "running"  # the last result did not finish it
    _, table = service.crosstable(tid)
    assert table.provisional and not table.final
    with pytest.raises(RuleError, match="1 adjourned game has no result yet: round 1 board 1"):
        service.finish(tid)
    with pytest.raises(RuleError, match=r"no FIDE TRF \(rating report\) while an adjourned game"):
        service.export_trf(tid)
    service.record_result(tid, 1, 1, "½-½")  # the last result: now it finishes
    assert service.overview(tid).status == "finished"
    assert "?" not in service.export_trf(tid).split("\n001", 1)[1]


def test_q163_correcting_an_adjourned_game_to_a_decisive_result_asks_too(
    service: Service,
) -> None:
    tid = swiss(service, 4, rounds=2)
    service.publish_round(tid)
    service.adjourn_game(tid, 1, 1)
    with pytest.raises(ConfirmationNeeded) as asked:
        service.correct_result(tid, 1, 1, "0-1")
    assert asked.value.level is Level.CONFIRM and result_of(service, tid, 1, 1) == "*"
    service.adjourned_result(tid, 1, 1, "0-1", confirm=asked.value.token)
    assert result_of(service, tid, 1, 1) == "0-1"
