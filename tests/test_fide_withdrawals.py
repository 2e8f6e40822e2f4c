"""A withdrawal in FIDE mode: no question (the checklist gives it no level), a
``### Withdrawal @ Round n`` line in the TRF that lives and goes with its event; outside
FIDE mode none. A level-1 note never asks for a confirmation. A bye's ``###`` line goes
when the bye is taken back or changed."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from crosstable.core.model import System
from crosstable.core.text import Message
from crosstable.service import Service
from crosstable.service.frame import Done
from crosstable.service.warning_levels import FideWarning, Level, logged, settle
from tests.fide_support import confirmed
from tests.test_service_support import db_url, service, started, store  # noqa: F401


def test_r_b_1_a_withdrawal_writes_its_round_to_the_trf(service: Service) -> None:
    tid = started(service, 4)
    service.record_result(tid, 1, 1, "1-0")
    service.record_result(tid, 1, 2, "1-0")
    change = service.withdraw(tid, 4)
    assert "confirmed warning" not in change.summary
    trf = service.export_trf(tid)
    assert "### Withdrawal @ Round 2: player 4 Dmitri withdrew from round 2" in trf
    service.undo(tid)
    assert "### Withdrawal" not in service.export_trf(tid)


def test_r_b_1_a_swiss_withdrawal_too_and_none_outside_fide_mode(service: Service) -> None:
    tid = started(service, 6, system=System.SWISS_DUTCH, rounds=4)
    service.publish_round(tid)
    service.withdraw(tid, 5, from_round=2)
    assert "### Withdrawal @ Round 2: player 5 " in service.export_trf(tid)
    free = started(service, 4, details={"fide_mode": "off"})
    service.withdraw(free, 2)
    assert "### Withdrawal" not in service.export_trf(free)


@given(st.lists(st.sampled_from([Level.INFORM, Level.ACKNOWLEDGE, Level.CONFIRM]), max_size=4))
def test_notes_alone_need_no_answer_and_never_show_as_confirmed(levels: list[Level]) -> None:
    warnings = [FideWarning(f"w{i}", level, Message("w")) for i, level in enumerate(levels)]
    asked = [w for w in warnings if w.level is not Level.INFORM]
    if not asked:
        assert settle(1, 1, "a", warnings, None) == tuple(warnings)
    done = logged(Done("done"), warnings)
    assert ("confirmed warning" in str(done.summary)) == bool(asked)
    assert len(done.data.get("fide_warnings", ())) == len(warnings)


def test_r_b_1_a_bye_taken_back_or_changed_loses_its_trf_line(service: Service) -> None:
    tid = started(service, 6, system=System.SWISS_DUTCH, rounds=5)
    confirmed(service.request_bye, tid, 2, 3, "F")
    assert "### Bye @ Round 3: full-point bye for player 2 in round 3" in service.export_trf(tid)
    service.cancel_bye(tid, 2, 3)
    assert "### Bye" not in service.export_trf(tid)
    service.request_bye(tid, 4, 2, "H")
    confirmed(service.request_bye, tid, 4, 4, "H")
    assert "half-point bye number 2 for player 4 in round 4" in service.export_trf(tid)
    service.request_bye(tid, 4, 4, "Z")  # the second half-point bye is a zero-point one now
    trf = service.export_trf(tid)
    assert "half-point bye number 2" not in trf
    assert "### Bye @ Round 4: zero-point bye for player 4 in round 4" in trf


def test_r_b_1_a_requested_half_point_or_zero_point_bye_has_its_line_and_no_question(
    service: Service,
) -> None:
    tid = started(service, 6, system=System.SWISS_DUTCH, rounds=5)
    change = service.request_bye(tid, 3, 2, "H")
    assert "confirmed warning" not in change.summary
    service.request_bye(tid, 5, 3, "Z")
    trf = service.export_trf(tid)
    assert "### Bye @ Round 2: half-point bye for player 3 in round 2" in trf
    assert "### Bye @ Round 3: zero-point bye for player 5 in round 3" in trf
    service.cancel_bye(tid, 5, 3)
    assert "zero-point bye for player 5" not in service.export_trf(tid)
