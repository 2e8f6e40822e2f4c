"""A late entry: a Swiss takes a player after the start with FIDE's level-3 warning (the
rounds missed are absences, ``0000 - Z`` in the TRF, and a ``### Late entry`` line); the
player is paired from the next round; a round robin refuses with a clear message."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import pytest

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.service import PlayerInfo, Service
from crosstable.service.warning_levels import ConfirmationNeeded, Level
from tests.fide_support import confirm_all
from tests.test_service_support import db_url, service, started, store  # noqa: F401


def test_r_b_1_a_late_entry_in_a_swiss_is_level_3_and_absent_from_the_rounds_missed(
    service: Service,
) -> None:
    tid = started(service, 6, system=System.SWISS_DUTCH, rounds=5)
    service.publish_round(tid)
    for game in [g for g in service.overview(tid).games if g.round == 1]:
        service.record_result(tid, 1, game.board, "1-0")
    service.publish_round(tid)
    revision = service.revision(tid)
    late = PlayerInfo("Zara", rating=2100)
    with pytest.raises(ConfirmationNeeded) as asked:
        service.add_player(tid, late)
    said = asked.value.as_json()
    assert (said["level"], said["code"]) == (3, "late-entry")
    assert "player 7 Zara joins from round 3" in said["message"]
    assert any("rounds 1-2 count as absences" in c for c in said["consequences"])
    assert service.revision(tid) == revision  # nothing stored yet
    change = service.add_player(tid, late, confirm=asked.value.token)
    assert "registered late, paired from round 3" in change.summary
    assert "confirmed warning, level 3" in change.summary
    assert [(b.round, b.kind) for b in service.byes(tid) if b.start == 7] == [(1, "Z"), (2, "Z")]
    trf = service.export_trf(tid)
    assert "### Late entry @ Round 3: player 7 Zara joins from round 3; rounds 1-2 absent" in trf
    line = next(x for x in trf.splitlines() if x.startswith("001") and x[4:8].strip() == "7")
    assert [line[91:101].strip(), line[101:111].strip()] == ["0000 - Z", "0000 - Z"]
    service.undo(tid)  # the entry goes with its absences and its ### line
    assert [p.start for p in service.overview(tid).players] == [1, 2, 3, 4, 5, 6]
    assert "### Late entry" not in service.export_trf(tid)
    confirm_all(service.add_player, tid, late)
    for game in [g for g in service.overview(tid).games if g.round == 2]:
        service.record_result(tid, 2, game.board, "½-½")
    service.publish_round(tid)  # the late player is paired in round 3 (or has its PAB)
    paired = [g for g in service.overview(tid).games if g.round == 3 and 7 in (g.white, g.black)]
    pab = [b.kind for b in service.byes(tid) if (b.round, b.start) == (3, 7)]
    assert len(paired) == 1 or pab == ["U"]


def test_r_b_1_a_late_entry_outside_fide_mode_asks_nothing(service: Service) -> None:
    tid = started(service, 4, system=System.SWISS_DUTCH, rounds=3, details={"fide_mode": "off"})
    service.publish_round(tid)
    change = service.add_player(tid, PlayerInfo("Zara"))
    assert "confirmed warning" not in change.summary
    assert [b.kind for b in service.byes(tid) if b.start == 5] == ["Z"]


def test_r_b_1_a_round_robin_refuses_a_late_entry_clearly(service: Service) -> None:
    tid = started(service, 4)
    with pytest.raises(RuleError, match="round robin's schedule is made"):
        service.add_player(tid, PlayerInfo("Zara"))
    with pytest.raises(RuleError, match="undo the start"):
        confirm_all(service.add_player, tid, PlayerInfo("Zara"))


def test_r_b_1_a_late_entry_before_round_1_is_paired_there(service: Service) -> None:
    tid = started(service, 5, system=System.SWISS_DUTCH, rounds=3)
    change, seen = confirm_all(service.add_player, tid, PlayerInfo("Zara"))
    assert [s.level for s in seen] == [Level.CONFIRM]
    assert "no round is missed" in " ".join(seen[0].as_json()["consequences"])
    assert "paired from round 1" in change.summary
    service.publish_round(tid)
    assert len([g for g in service.overview(tid).games if g.round == 1]) == 3
