"""FIDE mode: each rule a hand pairing breaks is a level-3 warning of its own (checklist
Q66): a rematch, a prohibited pair, the PAB to a player who already scored a win
without playing, a third colour in a row and a colour difference above 2 (these two
before the last round only); confirmed, each is logged and written as an MPA line."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import pytest

from crosstable.core.model import System
from crosstable.service import Service
from crosstable.service.warning_levels import ConfirmationNeeded
from tests.test_service_support import db_url, service, started, store  # noqa: F401


def asked(action: object, *args: object, **kwargs: object) -> ConfirmationNeeded:
    with pytest.raises(ConfirmationNeeded) as raised:
        action(*args, **kwargs)  # type: ignore[operator]
    return raised.value


def play(service: Service, tid: int, number: int, results: list[str]) -> None:
    for board, result in enumerate(results, 1):
        service.record_result(tid, number, board, result)


def test_q66_a_rematch_a_prohibited_pair_and_an_ineligible_pab_are_level_3_each(
    service: Service,
) -> None:
    details = {"initial_colour": "white", "forbidden": "1-2"}
    tid = started(service, 5, system=System.SWISS_DUTCH, rounds=4, details=details)
    first = service.publish_round(tid)
    pab = first.data["bye"]
    play(service, tid, 1, ["1-0", "1-0"])
    white, black = first.data["boards"][0]
    rest = [s for s in range(1, 6) if s not in (white, black, pab)]
    boards = [(white, black), (1, 2) if {1, 2} <= set(rest) else tuple(rest[:2])]
    others = [s for s in range(1, 6) if s not in {s for b in boards for s in b}]
    said = asked(service.publish_round, tid, boards, others[0], allow_rematch=True)
    codes = said.as_json()["codes"]
    assert said.level == 3 and "hand-rematch" in codes and codes[0] == "manual-pairing"
    assert [r.number for r in service.tournament(tid).rounds if r.games] == [1]
    # the PAB to the player who had it in round 1
    again = [b for b in boards if pab not in b]
    mates = [s for s in range(1, 6) if s != pab and s not in {s for b in again for s in b}]
    board = [*again, tuple(mates)] if len(mates) == 2 else again
    said = asked(service.publish_round, tid, board, pab, allow_rematch=True)
    assert "hand-pab-ineligible" in said.as_json()["codes"]
    assert any("already scored a win without playing" in w for w in said.as_json()["warnings"])
    done = service.publish_round(tid, board, pab, allow_rematch=True, confirm=said.token)
    assert "confirmed warning, level 3" in done.summary
    assert "### MPA @ Round 2: the PAB goes to player" in service.export_trf(tid)


def test_q66_the_forbidden_pair_and_the_colours_before_the_last_round(service: Service) -> None:
    details = {"initial_colour": "white", "forbidden": "1-4"}
    tid = started(service, 4, system=System.SWISS_DUTCH, rounds=3, details=details)
    said = asked(service.publish_round, tid, [(1, 4), (2, 3)])
    assert "hand-forbidden-pair" in said.as_json()["codes"]
    service.publish_round(tid, [(1, 4), (2, 3)], confirm=said.token)
    play(service, tid, 1, ["1/2-1/2", "1/2-1/2"])
    said = asked(service.publish_round, tid, [(1, 2), (4, 3)])  # 1 and 4 White again
    assert "hand-third-colour" not in said.as_json()["codes"]  # twice only
    service.publish_round(tid, [(1, 2), (4, 3)], confirm=said.token)
    play(service, tid, 2, ["1/2-1/2", "1/2-1/2"])
    # round 3 is the last: a third White for player 1 is no warning of its own
    said = asked(service.publish_round, tid, [(1, 3), (2, 4)])
    assert "hand-third-colour" not in said.as_json()["codes"]


def test_q66_a_third_colour_in_a_row_before_the_last_round(service: Service) -> None:
    tid = started(
        service, 6, system=System.SWISS_DUTCH, rounds=4, details={"initial_colour": "white"}
    )
    draws = ["1/2-1/2"] * 3
    for number, boards in ((1, [(1, 4), (2, 5), (3, 6)]), (2, [(1, 5), (2, 6), (3, 4)])):
        try:
            service.publish_round(tid, boards)
        except ConfirmationNeeded as needed:
            service.publish_round(tid, boards, confirm=needed.token)
        play(service, tid, number, draws)
    said = asked(service.publish_round, tid, [(1, 6), (2, 4), (3, 5)])
    codes = said.as_json()["codes"]
    assert "hand-third-colour" in codes and "hand-colour-difference" in codes
    assert any("white three times in a row" in w for w in said.as_json()["warnings"])


def test_q67_both_players_against_their_due_colour_is_a_level_2_warning(
    service: Service,
) -> None:
    tid = started(
        service, 4, system=System.SWISS_DUTCH, rounds=3, details={"initial_colour": "white"}
    )
    try:
        service.publish_round(tid, [(1, 3), (2, 4)])
    except ConfirmationNeeded as needed:
        service.publish_round(tid, [(1, 3), (2, 4)], confirm=needed.token)
    play(service, tid, 1, ["1/2-1/2", "1/2-1/2"])
    # 1 and 2 had White (due Black), 3 and 4 Black (due White): both boards reversed
    said = asked(service.publish_round, tid, [(1, 4), (2, 3)])
    reversed_ = [w for w in said.warnings if w.code == "hand-colours-reversed"]
    assert [int(w.level) for w in reversed_] == [2, 2]
    assert "board 1: both players get the colour opposite to the one they were due" in str(
        reversed_[0].message
    )
    # the colours as due (here the engine's own pairing): no such warning
    try:
        service.publish_round(tid, [(4, 1), (3, 2)])
    except ConfirmationNeeded as needed:
        assert "hand-colours-reversed" not in needed.as_json()["codes"]
    else:
        assert [g.white for g in service.tournament(tid).rounds[1].games] == [4, 3]
