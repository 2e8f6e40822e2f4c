"""A Swiss round paired by hand in FIDE mode: a level-3 warning listing how it differs
from the Dutch system's pairing and a ``### MPA`` line; the engine's own pairing, or one
outside FIDE mode, asks nothing; with games to adjourn, one confirmation covers both."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import pytest

from crosstable.core.model import System
from crosstable.service import Service
from crosstable.service.warning_levels import ConfirmationNeeded, Level
from tests.fide_support import confirm_all
from tests.test_service_support import db_url, service, started, store  # noqa: F401


def _other_than(service: Service, tid: int) -> list[tuple[int, int]]:
    """The proposal with the first two boards' black players swapped."""
    boards = [tuple(b) for b in service.propose_round(tid).boards]
    (w1, b1), (w2, b2) = boards[0], boards[1]
    return [(w1, b2), (w2, b1), *boards[2:]]


def test_r_b_1_a_hand_pairing_is_level_3_with_its_differences_in_an_mpa_line(
    service: Service,
) -> None:
    tid = started(service, 6, system=System.SWISS_DUTCH, rounds=5)
    wanted = _other_than(service, tid)
    revision = service.revision(tid)
    with pytest.raises(ConfirmationNeeded) as asked:
        service.publish_round(tid, wanted)
    said = asked.value.as_json()
    assert (said["level"], said["code"]) == (3, "manual-pairing")
    assert "round 1 paired by hand differs from the Dutch system's pairing" in said["message"]
    assert "not a pair of the Dutch system" in said["message"]
    assert service.revision(tid) == revision  # nothing published
    change = service.publish_round(tid, wanted, confirm=asked.value.token)
    assert "confirmed warning, level 3" in change.summary
    trf = service.export_trf(tid)
    assert "### MPA @ Round 1: board 1: " in trf
    service.undo(tid)  # unpaired: the MPA line goes with the round
    assert "### MPA" not in service.export_trf(tid)


def test_r_b_1_the_engines_pairing_or_one_outside_fide_mode_asks_nothing(
    service: Service,
) -> None:
    tid = started(service, 6, system=System.SWISS_DUTCH, rounds=5)
    same = [tuple(b) for b in service.propose_round(tid).boards]
    change = service.publish_round(tid, same)
    assert "confirmed warning" not in change.summary
    free = started(service, 6, system=System.SWISS_DUTCH, rounds=5, details={"fide_mode": "off"})
    change = service.publish_round(free, _other_than(service, free))
    assert "manual pairing, differs" in change.summary and "confirmed warning" not in change.summary


def test_r_b_1_one_confirmation_covers_the_adjournments_and_the_hand_pairing(
    service: Service,
) -> None:
    tid = started(service, 6, system=System.SWISS_DUTCH, rounds=5)
    service.publish_round(tid)
    service.record_result(tid, 1, 1, "1-0")
    service.record_result(tid, 1, 2, "0-1")  # board 3 has no result: it will be adjourned
    boards = [tuple(b) for b in service.propose_round(tid).boards]
    wanted = [*boards[:-1], boards[-1][::-1]]  # the last board's colours reversed
    revision = service.revision(tid)
    with pytest.raises(ConfirmationNeeded):
        service.publish_round(tid, wanted)
    assert service.revision(tid) == revision  # the adjournment was not kept either
    assert [g.result for g in service.overview(tid).games if g.board == 3] == [None]
    change, seen = confirm_all(service.publish_round, tid, wanted)
    assert len(seen) == 1 and seen[0].level is Level.CONFIRM
    assert set(seen[0].as_json()["codes"]) >= {"manual-pairing"}
    assert "confirmed warning, level 3" in change.summary
    assert "adjourned" in change.summary
