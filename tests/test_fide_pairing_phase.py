"""A Swiss round's manual-pairing phase: "Edit pairings" opens it (history, the round's
state), "Validate pairings" closes it by publishing (the comparison with the Dutch
system and the ### MPA line happen there); reopening or unpairing the round discards
its MPA record; nothing is published while the phase is open unless validated."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import json
from pathlib import Path

import pytest

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.service import Service
from crosstable.service.warning_levels import ConfirmationNeeded
from tests.test_service_support import db_url, service, started, store  # noqa: F401


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def swiss(service: Service) -> int:
    details = {"initial_colour": "white"}
    return started(service, 6, system=System.SWISS_DUTCH, rounds=4, details=details)


def test_q65_the_phase_opens_and_is_validated_with_an_mpa_line(service: Service) -> None:
    tid = swiss(service)
    assert service.pairing_phase(tid) == {"round": None, "state": "closed", "opened": None}
    opened = service.edit_pairings(tid)
    assert "round 1: pairings opened for editing" in opened.summary
    assert service.pairing_phase(tid) == {"round": 1, "state": "editing", "opened": opened.seq}
    assert service.history(tid)[-1].summary == opened.summary
    with pytest.raises(RuleError, match="open for editing: validate them"):
        service.publish_round(tid)
    with pytest.raises(RuleError, match="open for editing already"):
        service.edit_pairings(tid)
    engine = service.propose_round(tid).boards
    mine = [(engine[0][0], engine[1][1]), (engine[1][0], engine[0][1]), engine[2]]
    with pytest.raises(ConfirmationNeeded) as asked:
        service.validate_pairings(tid, mine)
    assert asked.value.as_json()["code"] == "manual-pairing"
    assert service.pairing_phase(tid)["state"] == "editing"  # nothing before the confirmation
    done = service.validate_pairings(tid, mine, confirm=asked.value.token)
    assert done.data["validated"] and "pairings validated" in done.summary
    assert service.pairing_phase(tid)["state"] == "closed"
    assert "### MPA @ Round 1:" in service.export_trf(tid)
    # reopening the round takes its pairing and its MPA record back; the phase is open
    reopened = service.edit_pairings(tid, 1)
    assert "reopened for editing" in reopened.summary
    assert service.pairing_phase(tid)["round"] == 1
    assert "### MPA" not in service.export_trf(tid)
    assert [r for r in service.tournament(tid).rounds if r.games] == []
    done = service.validate_pairings(tid)  # the Dutch system's pairing this time
    assert not done.data["manual"] and "### MPA" not in service.export_trf(tid)
    # a validation needs an open phase; a played round is not edited again
    service.record_result(tid, 1, 1, "1-0")
    with pytest.raises(RuleError, match="not open for editing"):
        service.validate_pairings(tid)
    with pytest.raises(RuleError, match="has results already"):
        service.edit_pairings(tid, 1)
    with pytest.raises(RuleError, match="next round to pair is 2"):
        service.edit_pairings(tid, 3)


def test_q65_undoing_the_opening_closes_and_unpairing_discards_the_mpa(
    service: Service,
) -> None:
    tid = swiss(service)
    service.edit_pairings(tid)
    service.undo(tid)
    assert service.pairing_phase(tid)["state"] == "closed"
    service.publish_round(tid)  # no phase: published as before
    service.edit_pairings(tid, 1)
    service.undo(tid)  # the reopening taken back: the round is published again
    assert service.pairing_phase(tid)["state"] == "closed"
    assert [r.number for r in service.tournament(tid).rounds if r.games] == [1]
    service.undo(tid)  # unpairing (undo of the publication)
    service.edit_pairings(tid)
    engine = service.propose_round(tid).boards
    swapped = [(engine[0][1], engine[0][0]), *engine[1:]]
    asked = None
    try:
        service.validate_pairings(tid, swapped)
    except ConfirmationNeeded as needed:
        asked = needed
    assert asked is not None
    service.validate_pairings(tid, swapped, confirm=asked.token)
    assert "### MPA @ Round 1:" in service.export_trf(tid)
    service.undo(tid)  # unpairing the round discards its MPA record, the phase is open again
    assert "### MPA" not in service.export_trf(tid)
    assert service.pairing_phase(tid)["state"] == "editing"


def test_q65_edits_of_the_details_keep_the_open_phase(service: Service) -> None:
    tid = swiss(service)
    service.edit_pairings(tid)
    service.edit_regulations(tid, details={"venue": "Hall", "initial_colour": "white"})
    assert service.pairing_phase(tid)["state"] == "editing"


def test_q65_the_phase_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'phase.db'}"
    for args in (
        ["new", "Phase", "--system", "dutch", "--rounds", "3", "--initial-colour", "white"],
        *[["player", "add", name, "--rating", str(2000 - i)] for i, name in enumerate("ABCDEF")],
        ["draw", "--by", "rating"],
        ["start"],
    ):
        assert cli(capsys, *args, "--db", db)[0] == 0, args
    code, out, _ = cli(capsys, "pair-round", "--edit", "--db", db)
    assert code == 0 and "round 1: pairings opened for editing" in out
    code, out, _ = cli(capsys, "pair-round", "--format", "json", "--db", db)
    assert json.loads(out)["phase"]["state"] == "editing"
    code, _, err = cli(capsys, "pair-round", "--publish", "--db", db)
    assert code == 2 and "validate them to publish" in err
    by_hand = ["pair-round", "--board", "1=4-1", "--validate", "--db", db]
    code, _, err = cli(capsys, *by_hand)
    assert code == 2 and "warning (level 3)" in err
    token = err.rsplit("--confirm ", 1)[1].split()[0]
    code, out, _ = cli(capsys, *by_hand, "--confirm", token)
    assert code == 0 and "pairings validated" in out
    assert "### MPA @ Round 1" in cli(capsys, "export", "--to", "trf2026", "--db", db)[1]
    code, out, _ = cli(capsys, "pair-round", "--edit", "--round", "1", "--db", db)
    assert code == 0 and "reopened for editing" in out
    code, out, _ = cli(capsys, "export", "--to", "trf2026", "--db", db)
    assert code == 0 and "XXR 3" in out and "### MPA" not in out
