"""Events longer than 30 days from the command line: ``crosstable new --long-event yes
--tiebreak-ratings per-round`` and ``crosstable player rating`` (FIDE checklist Q210–215)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crosstable.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_r_fide_q210_q212_cli_flag_and_later_ratings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "club.db")
    new = ("new", "Club", "--long-event", "yes", "--tiebreak-ratings", "per-round")
    assert run(capsys, *new, "--db", db)[0] == 0
    for index in range(4):
        assert run(capsys, "player", "add", f"P{index + 1}", "--rating", "2000", "--db", db)[0] == 0
    code, out, err = run(capsys, "player", "rating", "2", "2150", "--from-round", "3", "--db", db)
    assert code == 0 and "rated 2150 from round 3" in out, err
    code, out, _ = run(capsys, "player", "rating", "2", "--db", db)
    assert "P2: 2000 from round 1" in out and "P2: 2150 from round 3" in out
    code, out, err = run(capsys, "player", "rating", "2", "none", "--from-round", "3", "--db", db)
    assert code == 0 and "no new rating from round 3" in out
    code, _, err = run(capsys, "player", "rating", "2", "2150", "--from-round", "1", "--db", db)
    assert code == 2 and "round 2 or later" in err
    code, _, err = run(capsys, "player", "rating", "2", "2150", "--db", db)
    assert code == 2 and "--from-round" in err


def test_r_fide_q210_cli_refuses_bad_values_and_short_events(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "club.db")
    code, _, err = run(capsys, "new", "X", "--long-event", "maybe", "--db", db)
    assert code == 2 and "more than 30 days is yes or no" in err
    code, _, err = run(capsys, "new", "X", "--tiebreak-ratings", "last", "--db", db)
    assert code == 2 and "first or per round" in err
    assert run(capsys, "new", "Short", "--db", db)[0] == 0
    assert run(capsys, "player", "add", "A", "--db", db)[0] == 0
    code, _, err = run(capsys, "player", "rating", "1", "2100", "--from-round", "2", "--db", db)
    assert code == 2 and "longer than 30 days" in err
