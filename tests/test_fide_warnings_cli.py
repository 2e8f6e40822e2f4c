"""FIDE mode and the warning levels on the command line: a warning to confirm is printed
with its level, consequences and token, exits 2 and changes nothing; ``--confirm TOKEN``
goes on (twice for level 4); the TRF export then carries the ### lines."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import re

import pytest

from crosstable.cli import main
from crosstable.core.model import System
from crosstable.service import Service
from tests.test_service_support import db_url, started, store  # noqa: F401


def _token(said: str) -> str:
    found = re.search(r"--confirm ([0-9a-f]+)", said)
    assert found, said
    return found.group(1)


def test_r_rr_10_tiebreaks_after_the_start_need_two_confirmations_on_the_command_line(
    db_url: str, store: object, capsys: pytest.CaptureFixture[str]
) -> None:
    service = Service(store)  # type: ignore[arg-type]
    tid = started(service, 4, tiebreaks=("DE", "SB"))
    service.record_result(tid, 1, 1, "1-0")
    where = ["--db", db_url, "--tournament", str(tid)]
    assert main(["tiebreaks", "SB,KS", *where]) == 2
    first = capsys.readouterr().err
    assert "warning (level 4, step 1 of 2)" in first and "from DE,SB to SB,KS" in first
    assert "equal points" in first and "nothing changed" in first
    assert service.tournament(tid).settings.tiebreaks == ("DE", "SB")
    assert main(["tiebreaks", "SB,KS", *where, "--confirm", "0" * 20]) == 2  # a wrong token
    assert "read it again" in capsys.readouterr().err
    assert main(["tiebreaks", "SB,KS", *where, "--confirm", _token(first)]) == 2
    second = capsys.readouterr().err
    assert "step 2 of 2" in second
    assert main(["tiebreaks", "SB,KS", *where, "--confirm", _token(second)]) == 0
    assert "confirmed warning, level 4" in capsys.readouterr().out
    assert service.tournament(tid).settings.tiebreaks == ("SB", "KS")


def test_leaving_fide_mode_on_the_command_line(
    db_url: str, store: object, capsys: pytest.CaptureFixture[str]
) -> None:
    service = Service(store)  # type: ignore[arg-type]
    tid = started(service, 4)
    where = ["--db", db_url, "--tournament", str(tid)]
    assert main(["fide-mode", *where]) == 0
    assert "in FIDE mode" in capsys.readouterr().out
    assert main(["fide-mode", "--leave", *where]) == 2
    first = capsys.readouterr().err
    assert "permanent" in first and "rating officer" in first
    assert main(["fide-mode", "--leave", *where, "--confirm", _token(first)]) == 2
    second = capsys.readouterr().err
    assert main(["fide-mode", "--leave", *where, "--confirm", _token(second)]) == 0
    capsys.readouterr()
    assert main(["fide-mode", *where]) == 0
    assert "not in FIDE mode: left in round 1, for good" in capsys.readouterr().out
    assert main(["fide-mode", "--leave", *where]) == 2
    assert "not in FIDE mode" in capsys.readouterr().err
    assert "### FIDE mode @ Round 1: left" in service.export_trf(tid)


def test_a_full_point_bye_on_the_command_line_is_acknowledged_with_confirm(
    db_url: str, store: object, capsys: pytest.CaptureFixture[str]
) -> None:
    service = Service(store)  # type: ignore[arg-type]
    tid = started(service, 6, system=System.SWISS_DUTCH, rounds=4)
    where = ["--db", db_url, "--tournament", str(tid)]
    assert main(["bye", "2", "3", "--kind", "F", *where]) == 2
    said = capsys.readouterr().err
    assert "warning (level 2)" in said and "no longer recommends" in said
    assert service.byes(tid) == []
    assert main(["bye", "2", "3", "--kind", "F", *where, "--confirm", _token(said)]) == 0
    assert [b.kind for b in service.byes(tid)] == ["F"]
