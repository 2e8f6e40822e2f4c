"""A round robin's round paired by hand through the service, the CLI and the JSON API:
checked against the table, the cycle re-planned, a level-3 warning in FIDE mode with a
``### Pairing`` line, undone by undo."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

from itertools import combinations

import pytest

from crosstable.core.errors import RuleError
from crosstable.service import Service
from crosstable.service.warning_levels import ConfirmationNeeded
from tests.fide_support import confirmed
from tests.test_service_support import db_url, service, started, store  # noqa: F401


def table(service: Service, tid: int) -> dict[int, list[tuple[int | None, int | None]]]:
    rounds: dict[int, list[tuple[int | None, int | None]]] = {}
    for game in service.overview(tid).games:
        rounds.setdefault(game.round, []).append((game.white, game.black))
    return rounds


def test_r_b_1_q100_q101_a_round_robin_round_paired_by_hand_replans_the_cycle(
    service: Service,
) -> None:
    tid = started(service, 6)
    service.record_result(tid, 1, 1, "1-0")
    service.record_result(tid, 1, 2, "½-½")
    service.record_result(tid, 1, 3, "0-1")
    before = table(service, tid)
    assert before[1] == [(1, 6), (2, 5), (3, 4)]
    revision = service.revision(tid)
    with pytest.raises(ConfirmationNeeded) as asked:  # FIDE mode: level 3
        service.pair_round_robin_round(tid, 2, [(1, 2), (3, 5), (4, 6)])
    said = asked.value.as_json()
    assert (said["level"], said["code"]) == (3, "round-robin-hand-pairing")
    assert service.revision(tid) == revision  # nothing stored before the confirmation
    change = service.pair_round_robin_round(
        tid, 2, [(1, 2), (3, 5), (4, 6)], confirm=asked.value.token
    )
    assert "confirmed warning, level 3" in change.summary
    after = table(service, tid)
    assert after[1] == before[1] and after[2] == [(1, 2), (3, 5), (4, 6)]
    met = sorted(tuple(sorted(p)) for games in after.values() for p in games)  # type: ignore[type-var]
    assert met == list(combinations(range(1, 7), 2))
    assert "### Pairing @ Round 2: round 2 paired by hand (1-2, 3-5, 4-6)" in (
        service.export_trf(tid)
    )
    service.undo(tid)  # the table comes back, with its ### line gone
    assert table(service, tid) == before
    assert "### Pairing" not in service.export_trf(tid)


def test_r_b_1_q101_a_rematch_or_a_played_round_is_refused_and_nothing_changes(
    service: Service,
) -> None:
    tid = started(service, 4)
    service.record_result(tid, 1, 1, "1-0")
    before = table(service, tid)
    revision = service.revision(tid)
    with pytest.raises(RuleError, match="met in round 1"):
        service.pair_round_robin_round(tid, 2, [(1, 4), (2, 3)])
    with pytest.raises(RuleError, match="has begun"):
        service.pair_round_robin_round(tid, 1, [(1, 3), (2, 4)])
    with pytest.raises(RuleError, match="player 3 is given twice"):
        service.pair_round_robin_round(tid, 2, [(1, 3), (2, 3)])
    assert (table(service, tid), service.revision(tid)) == (before, revision)


def test_r_b_1_q100_an_odd_field_moves_the_free_round(service: Service) -> None:
    tid = started(service, 5)
    change = confirmed(service.pair_round_robin_round, tid, 1, [(1, 2), (3, 4)], 5)
    assert change.data["round"] == 1
    rounds = table(service, tid)
    assert rounds[1] == [(1, 2), (3, 4)]
    met = sorted(tuple(sorted(p)) for games in rounds.values() for p in games)  # type: ignore[type-var]
    assert met == list(combinations(range(1, 6), 2))
    trf = service.export_trf(tid)
    assert "### Pairing @ Round 1: round 1 paired by hand (1-2, 3-4, 5 free)" in trf
