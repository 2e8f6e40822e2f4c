"""FIDE mode and FIDE's warning levels through the service: the flag and its defaults,
leaving FIDE mode (level 4, for good), the tie-break list after the start (level 4, the
old list in a ### line), a Buchholz for a round robin (level 3), stale confirmations."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.text import Message
from crosstable.service import Service
from crosstable.service.warning_levels import (
    ConfirmationNeeded,
    FideWarning,
    Level,
    settle,
    token,
)
from tests.fide_support import confirm_all
from tests.test_service_support import db_url, registered, service, started, store  # noqa: F401


def test_fide_mode_is_on_by_default_for_round_robin_and_dutch_only(service: Service) -> None:
    on = [registered(service, 0, system=s) for s in (System.ROUND_ROBIN, System.SWISS_DUTCH)]
    off = registered(service, 0, system=System.KNOCKOUT)
    assert [service.fide_mode(t).on for t in on] == [True, True]
    assert not service.fide_mode(off).on
    said_off = registered(service, 0, details={"fide_mode": "off"})
    assert not service.fide_mode(said_off).on
    said_on = registered(service, 0, system=System.KNOCKOUT, details={"fide_mode": "on"})
    assert service.fide_mode(said_on).on
    with pytest.raises(RuleError, match="fide_mode: say on or off"):
        registered(service, 0, details={"fide_mode": "maybe"})


def test_leaving_fide_mode_is_two_steps_and_for_good(service: Service) -> None:
    tid = started(service, 4)
    service.record_result(tid, 1, 1, "1-0")
    revision = service.revision(tid)
    with pytest.raises(ConfirmationNeeded) as first:
        service.leave_fide_mode(tid)
    assert (first.value.level, first.value.step, first.value.steps) == (Level.TWO_STEP, 1, 2)
    assert first.value.as_json()["consequences"]  # what changes for whom
    assert service.revision(tid) == revision and service.fide_mode(tid).on  # nothing changed
    with pytest.raises(ConfirmationNeeded) as second:
        service.leave_fide_mode(tid, confirm=first.value.token)
    assert second.value.step == 2 and second.value.token != first.value.token
    assert service.fide_mode(tid).on
    done = service.leave_fide_mode(tid, confirm=second.value.token)
    assert "left FIDE mode in round 1" in done.summary
    assert service.fide_mode(tid).as_json() == {"fide_mode": False, "left_in_round": 1}
    assert "confirmed warning, level 4" in service.history(tid)[-1].summary
    # never back in: not by undo, not by the regulations, not by leaving again
    service.undo(tid)
    service.edit_regulations(tid, detail_changes={"fide_mode": "on"})
    assert not service.fide_mode(tid).on
    with pytest.raises(RuleError, match="not in FIDE mode"):
        service.leave_fide_mode(tid)
    trf = service.export_trf(tid)
    assert "### FIDE mode @ Round 1: left" in trf


def test_a_stale_confirmation_is_refused_and_changes_nothing(service: Service) -> None:
    tid = started(service, 4)
    with pytest.raises(ConfirmationNeeded) as asked:
        service.leave_fide_mode(tid)
    service.record_result(tid, 1, 1, "1-0")  # somebody changed the tournament meanwhile
    with pytest.raises(ConfirmationNeeded) as stale:
        service.leave_fide_mode(tid, confirm=asked.value.token)
    assert stale.value.stale and stale.value.step == 1
    assert stale.value.token != asked.value.token
    assert service.fide_mode(tid).on


def test_r_rr_10_tiebreak_list_after_the_start_is_level_4_with_the_old_list_in_the_trf(
    service: Service,
) -> None:
    tid = started(service, 4, tiebreaks=("DE", "SB"))
    service.record_result(tid, 1, 1, "1-0")
    before = service.revision(tid)
    with pytest.raises(ConfirmationNeeded) as asked:
        service.edit_regulations(tid, tiebreaks=("SB", "KS"))
    said = asked.value.as_json()
    assert said["level"] == 4 and said["code"] == "tiebreaks-after-start"
    assert "from DE,SB to SB,KS" in said["message"]
    assert any("equal points" in c for c in said["consequences"])
    # a reason alone no longer does
    with pytest.raises(ConfirmationNeeded):
        service.edit_regulations(tid, tiebreaks=("SB", "KS"), override_reason="misprint")
    assert service.revision(tid) == before
    # the token confirms this exact change only
    with pytest.raises(ConfirmationNeeded) as other:
        service.edit_regulations(tid, tiebreaks=("KS",), confirm=asked.value.token)
    assert other.value.stale
    change, seen = confirm_all(service.edit_regulations, tid, tiebreaks=("SB", "KS"))
    assert [s.step for s in seen] == [1, 2]
    assert service.tournament(tid).settings.tiebreaks == ("SB", "KS")
    assert "confirmed warning, level 4" in change.summary
    assert isinstance(service.history(tid)[-1].summary, Message)
    trf = service.export_trf(tid)
    assert "### Tie-breaks @ Round 1: changed after round 1; old list DE,SB; new list SB,KS" in trf
    # undone, the change and its ### line are gone
    service.undo(tid)
    assert "### Tie-breaks" not in service.export_trf(tid)


def test_r_rr_10_tiebreaks_before_the_start_need_no_confirmation(service: Service) -> None:
    tid = registered(service, 4, tiebreaks=("DE",))
    service.edit_regulations(tid, tiebreaks=("SB", "DE"))
    assert service.tournament(tid).settings.tiebreaks == ("SB", "DE")


def test_r_rr_10_buchholz_for_a_round_robin_is_a_level_3_warning(service: Service) -> None:
    # outside FIDE mode (in it the picker does not offer them: tests/test_fide_q105.py)
    tid = registered(service, 4, tiebreaks=("DE",), details={"fide_mode": "off"})
    with pytest.raises(ConfirmationNeeded) as asked:
        service.edit_regulations(tid, tiebreaks=("BH", "SB"))
    assert (asked.value.level, asked.value.steps) == (Level.CONFIRM, 1)
    assert "Buchholz (BH) is not for a round robin" in str(asked.value)
    service.edit_regulations(tid, tiebreaks=("BH", "SB"), confirm=asked.value.token)
    assert service.tournament(tid).settings.tiebreaks == ("BH", "SB")
    swiss = registered(service, 4, system=System.SWISS_DUTCH)
    service.edit_regulations(swiss, tiebreaks=("BH", "SB"))  # no warning in a Swiss


WARNING = st.builds(
    FideWarning,
    code=st.text(min_size=1, max_size=8),
    level=st.sampled_from([Level.ACKNOWLEDGE, Level.CONFIRM, Level.TWO_STEP]),
    message=st.builds(Message, st.text(max_size=20)),
    round=st.integers(0, 30),
)


@given(
    warnings=st.lists(WARNING, min_size=1, max_size=3),
    revision=st.integers(0, 10_000),
    other=st.integers(0, 10_000),
    action=st.text(max_size=20),
    guess=st.text(max_size=24),
)
def test_only_the_last_step_token_of_the_same_action_and_revision_confirms(
    warnings: list[FideWarning], revision: int, other: int, action: str, guess: str
) -> None:
    steps = max(w.level for w in warnings).steps
    final = token(7, revision, action, warnings, steps)
    assert settle(7, revision, action, warnings, final) == tuple(warnings)
    for wrong in {guess, token(7, revision, action, warnings, 1) if steps == 2 else ""}:
        if wrong == final:
            continue
        with pytest.raises(ConfirmationNeeded) as asked:
            settle(7, revision, action, warnings, wrong)
        assert asked.value.token in (token(7, revision, action, warnings, s) for s in (1, 2))
    if other != revision:
        with pytest.raises(ConfirmationNeeded) as stale:
            settle(7, other, action, warnings, final)
        assert stale.value.stale


def test_level_5_is_refused_whatever_is_sent() -> None:
    refused = FideWarning("x", Level.REFUSE, Message("a prohibited pair after round 1"))
    with pytest.raises(RuleError, match="refused in FIDE mode"):
        settle(1, 1, "a", [refused], token(1, 1, "a", [refused], 1))


def test_the_number_of_rounds_of_a_started_swiss_is_level_4_with_a_configuration_line(
    service: Service,
) -> None:
    tid = started(service, 6, system=System.SWISS_DUTCH, rounds=4)
    service.publish_round(tid)
    with pytest.raises(ConfirmationNeeded) as asked:
        service.edit_regulations(tid, rounds=5)
    said = asked.value.as_json()
    assert (said["level"], said["code"]) == (4, "rounds-after-start")
    assert "from 4 to 5" in said["message"] and said["consequences"]
    assert service.tournament(tid).settings.rounds == 4  # nothing yet
    change, seen = confirm_all(service.edit_regulations, tid, rounds=5)
    assert len(seen) == 2 and "confirmed warning, level 4" in change.summary
    assert service.tournament(tid).settings.rounds == 5
    trf = service.export_trf(tid)
    assert "### Configuration @ Round 1: number of rounds changed from 4 to 5" in trf
    assert "XXR 5" in trf
    # a round robin's rounds never change (its table is fixed; see tests/test_fide_rounds.py)
    robin = started(service, 4)
    with pytest.raises(RuleError, match="rounds cannot change after the start"):
        service.edit_regulations(robin, rounds=5)


def test_a_full_point_bye_is_level_2_and_a_second_half_point_bye_level_3(
    service: Service,
) -> None:
    tid = started(service, 6, system=System.SWISS_DUTCH, rounds=5)
    with pytest.raises(ConfirmationNeeded) as full:
        service.request_bye(tid, 2, 2, "F")
    assert (full.value.level, full.value.steps) == (Level.ACKNOWLEDGE, 1)
    assert "no longer recommends" in str(full.value)
    assert service.byes(tid) == []  # nothing stored before the acknowledgement
    service.request_bye(tid, 2, 2, "F", confirm=full.value.token)
    service.request_bye(tid, 3, 2, "H")  # a first half-point bye: no warning
    with pytest.raises(ConfirmationNeeded) as again:
        service.request_bye(tid, 3, 4, "H")
    assert again.value.level is Level.CONFIRM and "rounds 2" in str(again.value)
    change = service.request_bye(tid, 3, 4, "H", confirm=again.value.token)
    assert "confirmed warning, level 3" in change.summary
    trf = service.export_trf(tid)
    assert "### Bye @ Round 2: full-point bye for player 2 in round 2" in trf
    assert "### Bye @ Round 4: half-point bye number 2 for player 3 in round 4" in trf
    service.undo(tid)  # the second half-point bye and its ### line go together
    assert "half-point bye number 2" not in service.export_trf(tid)
