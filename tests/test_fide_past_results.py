"""Correcting a result of an earlier round in FIDE mode: the previous round's result is a
level-3 warning saying what changes (points, the rounds paired since not paired again)
with a ``### Correction`` line; an older round's is refused until FIDE mode is left."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import pytest

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.service import Service
from crosstable.service.views import GameView
from crosstable.service.warning_levels import ConfirmationNeeded, Level
from tests.fide_support import confirm_all, confirmed
from tests.test_service_support import db_url, service, started, store  # noqa: F401


def games_of(service: Service, tid: int, number: int) -> list[GameView]:
    return [g for g in service.overview(tid).games if g.round == number]


def play_round(service: Service, tid: int, number: int) -> None:
    for game in games_of(service, tid, number):
        service.record_result(tid, number, game.board, "1-0")


def test_r_b_1_a_swiss_result_of_the_previous_round_is_level_3_and_not_repaired(
    service: Service,
) -> None:
    tid = started(service, 6, system=System.SWISS_DUTCH, rounds=5)
    service.publish_round(tid)
    play_round(service, tid, 1)
    service.correct_result(tid, 1, 1, "0-1")  # the last round paired: no warning
    service.publish_round(tid)
    pairing = [(g.white, g.black) for g in games_of(service, tid, 2)]
    revision = service.revision(tid)
    with pytest.raises(ConfirmationNeeded) as asked:
        service.correct_result(tid, 1, 1, "½-½")
    said = asked.value.as_json()
    assert (said["level"], said["code"], said["steps"]) == (3, "past-result-corrected", 1)
    assert "0-1 to ½-½" in said["message"]
    assert any("round 2 was paired on the old result" in c for c in said["consequences"])
    assert any("points" in c for c in said["consequences"])
    assert service.revision(tid) == revision  # nothing stored before the confirmation
    change = service.correct_result(tid, 1, 1, "½-½", confirm=asked.value.token)
    assert "confirmed warning, level 3" in change.summary
    assert [(g.white, g.black) for g in games_of(service, tid, 2)] == pairing
    trf = service.export_trf(tid)
    assert "### Correction @ Round 1: board 1, " in trf
    assert "0-1 corrected to ½-½ after round 2 was played" in trf
    service.undo(tid)  # the correction and its ### line go together
    assert "### Correction" not in service.export_trf(tid)


def test_r_b_1_an_older_round_is_refused_in_fide_mode_and_free_outside(
    service: Service,
) -> None:
    tid = started(service, 6, system=System.SWISS_DUTCH, rounds=5)
    for number in (1, 2):
        service.publish_round(tid)
        play_round(service, tid, number)
    service.publish_round(tid)
    with pytest.raises(RuleError, match="leave FIDE mode") as refused:
        service.correct_result(tid, 1, 2, "0-1")
    assert "refused in FIDE mode" in str(refused.value)
    confirmed(service.leave_fide_mode, tid)
    change = service.correct_result(tid, 1, 2, "0-1")
    assert "confirmed warning" not in change.summary


def test_r_b_1_a_round_robin_counts_from_its_last_round_with_a_result(
    service: Service,
) -> None:
    tid = started(service, 4)
    play_round(service, tid, 1)
    service.correct_result(tid, 1, 1, "0-1")  # games of later rounds exist: no warning
    service.record_result(tid, 2, 1, "1-0")
    change, seen = confirm_all(service.correct_result, tid, 1, 2, "½-½")
    assert [s.level for s in seen] == [Level.CONFIRM]
    assert any("paired in advance" in c for c in seen[0].as_json()["consequences"])
    assert "confirmed warning, level 3" in change.summary
    play_round(service, tid, 3)
    with pytest.raises(RuleError, match="older than the previous round"):
        service.correct_result(tid, 1, 1, "1-0")
    # a result cleared is a correction too
    with pytest.raises(ConfirmationNeeded, match="no result"):
        service.correct_result(tid, 2, 1, None)


def test_r_b_1_a_token_confirms_only_its_own_correction(service: Service) -> None:
    tid = started(service, 4)
    play_round(service, tid, 1)
    service.record_result(tid, 2, 1, "1-0")
    with pytest.raises(ConfirmationNeeded) as asked:
        service.correct_result(tid, 1, 1, "0-1")
    with pytest.raises(ConfirmationNeeded) as other:
        service.correct_result(tid, 1, 1, "½-½", confirm=asked.value.token)
    assert other.value.stale
