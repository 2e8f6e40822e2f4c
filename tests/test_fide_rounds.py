"""A new number of rounds of a started Swiss re-checks the last paired round when it
becomes, or stops being, the final round (the Dutch rules of the final round differ)."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

from pathlib import Path

import pytest

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.service import Service
from crosstable.service.warning_levels import ConfirmationNeeded
from tests.fide_support import confirm_all
from tests.test_service_support import db_url, registered, service, started, store  # noqa: F401

#: four rounds of 7 players (board by board) after which the Dutch system pairs round 5
#: one way when it is the final round (7-6, 3-1, 2-4) and another when it is not
#: (7-2, 3-1, 6-4); found by searching random results
RESULTS = ["½", "1-0", "1-0", "1-0", "1-0", "½", "0-1", "0-1", "½", "0-1", "0-1", "0-1"]


def four_rounds_played(service: Service, rounds: int) -> int:
    tid = started(
        service, 7, system=System.SWISS_DUTCH, rounds=rounds, details={"initial_colour": "white"}
    )
    results = iter(RESULTS)
    for number in range(1, 5):
        service.publish_round(tid)
        for board in range(1, 4):
            said = next(results)
            service.record_result(tid, number, board, "1/2-1/2" if said == "½" else said)
    service.publish_round(tid)
    return tid


def boards_of(service: Service, tid: int, number: int) -> set[tuple[int, int]]:
    rnd = next(r for r in service.tournament(tid).rounds if r.number == number)
    return {(g.white, g.black) for g in rnd.games}


def test_q60_a_final_round_that_stops_being_final_is_rechecked_level_3(service: Service) -> None:
    tid = four_rounds_played(service, 5)
    assert boards_of(service, tid, 5) == {(7, 6), (3, 1), (2, 4)}  # paired as the final round
    with pytest.raises(ConfirmationNeeded) as asked:
        service.edit_regulations(tid, rounds=6)
    said = asked.value.as_json()
    assert said["level"] == 4 and said["codes"] == ["rounds-after-start", "final-round-rechecked"]
    rechecked = said["warnings"][1]
    assert "round 5 is no longer the final round" in rechecked
    assert "7-6 is not a pair of the rules" in rechecked
    assert service.tournament(tid).settings.rounds == 5  # nothing before the confirmation
    change, seen = confirm_all(service.edit_regulations, tid, rounds=6)
    assert len(seen) == 2 and "confirmed warning, level 4" in change.summary
    assert service.tournament(tid).settings.rounds == 6
    assert boards_of(service, tid, 5) == {(7, 6), (3, 1), (2, 4)}  # played as published
    trf = service.export_trf(tid)
    assert "### Configuration @ Round 5: round 5 is no longer the final round" in trf
    assert "### Configuration @ Round 5: number of rounds changed from 5 to 6" in trf


def test_q60_a_round_that_becomes_final_is_rechecked_and_fewer_rounds_refused(
    service: Service,
) -> None:
    tid = four_rounds_played(service, 6)
    assert boards_of(service, tid, 5) == {(7, 2), (3, 1), (6, 4)}  # paired as a round before
    with pytest.raises(ConfirmationNeeded) as asked:
        service.edit_regulations(tid, rounds=5)
    rechecked = asked.value.as_json()["warnings"][1]
    assert "round 5 becomes the final round" in rechecked and "7-2" in rechecked
    confirm_all(service.edit_regulations, tid, rounds=5)
    assert "round 5 is now the final round" in service.export_trf(tid)
    with pytest.raises(RuleError, match="5 rounds are paired already"):
        service.edit_regulations(tid, rounds=4)


def test_q60_a_last_round_still_valid_as_the_final_one_takes_only_the_level_4(
    service: Service,
) -> None:
    tid = started(service, 6, system=System.SWISS_DUTCH, rounds=4)
    service.publish_round(tid)
    with pytest.raises(ConfirmationNeeded) as asked:
        service.edit_regulations(tid, rounds=1)
    assert asked.value.as_json()["codes"] == ["rounds-after-start"]
    confirm_all(service.edit_regulations, tid, rounds=1)
    assert service.tournament(tid).settings.rounds == 1
    assert "round 1 is now the final round" not in service.export_trf(tid)


def test_q60_the_number_of_rounds_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'rounds.db'}"

    def cli(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main([*args, "--db", db])
        out, err = capsys.readouterr()
        return code, out, err

    cli("new", "Open", "--system", "dutch", "--rounds", "5", "--initial-colour", "white")
    for index in range(7):
        cli("player", "add", f"P{index + 1}", "--rating", str(2400 - 10 * index))
    cli("draw", "--by", "rating")
    cli("start")
    results = iter(RESULTS)
    for number in range(1, 5):
        cli("pair-round", "--publish")
        for board in range(1, 4):
            said = next(results)
            cli("result", str(number), str(board), "1/2-1/2" if said == "½" else said)
    assert cli("pair-round", "--publish")[0] == 0
    code, _, err = cli("rounds", "6")
    assert code == 2 and "level 4" in err and "round 5 is no longer the final round" in err
    for _step in range(2):
        token = err.rsplit("--confirm ", 1)[1].split()[0]
        code, _out, err = cli("rounds", "6", "--confirm", token)
    assert code == 0, err
    assert "round 5 is no longer the final round" in cli("export", "--to", "trf2026")[1]


def test_q62_rounds_the_field_cannot_play_are_a_level_2_warning_before_round_1(
    service: Service,
) -> None:
    tid = registered(service, 6, system=System.SWISS_DUTCH, rounds=3)
    with pytest.raises(ConfirmationNeeded) as asked:
        service.edit_regulations(tid, rounds=6)
    said = asked.value.as_json()
    assert (said["level"], said["code"]) == (2, "rounds-cannot-be-played")
    assert "6 rounds cannot all be played without a rematch (at most 5)" in said["message"]
    assert service.tournament(tid).settings.rounds == 3  # nothing before the acknowledgement
    change = service.edit_regulations(tid, rounds=6, confirm=asked.value.token)
    assert "confirmed warning, level 2" in change.summary
    service.edit_regulations(tid, rounds=4)  # playable: no warning
    kept = registered(service, 6, system=System.SWISS_DUTCH, details={"forbidden": "1-2-3"})
    with pytest.raises(ConfirmationNeeded) as apart:
        service.edit_regulations(kept, rounds=4)
    assert "player 1 may meet only 3 of the other players" in apart.value.as_json()["message"]
    free = registered(service, 6, system=System.SWISS_DUTCH, rounds=3, details={"fide_mode": "off"})
    service.edit_regulations(free, rounds=6)  # outside FIDE mode: the start refuses later
