"""`crosstable trf validate` and `crosstable trf convert`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crosstable.cli import main
from crosstable.formats.trf import read_trf, write_trf
from tests.conftest import DATA

GONZAGA = DATA / "tiebreaks/real/icu_gonzaga_classic_2008.trf"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_validate_ok(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "trf", "validate", str(GONZAGA))
    assert status == 0
    assert out == f"{GONZAGA}: ok — 12 players, 5 rounds, system Swiss, scoring 1-0.5-0\n"
    assert err == ""


def test_validate_round_robin_summary(capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / "tiebreaks/real/tcec_season_12_division_4.trf"
    status, out, _ = run(capsys, "trf", "validate", str(path))
    assert status == 0
    assert "8 players, 28 rounds, system round robin (4 cycles)" in out


def test_validate_error_is_one_line_with_position(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = GONZAGA.read_text(encoding="latin-1").splitlines()
    index = next(i for i, line in enumerate(text) if line.startswith("001    2"))
    third = index + 1  # player 3 (round 1: "2 b 1") now says "2 w 1": both white
    text[third] = text[third][:96] + "w" + text[third][97:]
    bad = tmp_path / "bad.trf"
    bad.write_text("\n".join(text) + "\n", encoding="latin-1")
    status, out, err = run(capsys, "trf", "validate", str(bad))
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"crosstable: {bad}:{index + 1}:97: round 1: players 2 and 3 both have")


def test_validate_warns_about_points_and_counts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = GONZAGA.read_text(encoding="latin-1")
    text = text.replace("062 12", "062 13").replace(
        "   4.0    1  0000 - H", "   4.5    1  0000 - H"
    )
    path = tmp_path / "w.trf"
    path.write_text(text, encoding="latin-1")
    # a points column that does not add up is an error (issue 15 item 4) …
    status, out, err = run(capsys, "trf", "validate", str(path))
    line = 1 + text.splitlines().index(next(x for x in text.splitlines() if "   4.5    1" in x))
    assert status == 2 and out == ""
    assert err == (
        f"crosstable: {path}:{line}:81: player 1: the points column (81–84) says 4.5, "
        "the games give 4 (scoring 1-0.5-0) (--lenient reads it with a warning)\n"
    )
    # … and a warning with --lenient, which takes the games' score
    status, out, err = run(capsys, "trf", "validate", "--lenient", str(path))
    assert status == 0 and ": ok — " in out
    assert "player 1: the points column (81–84) says 4.5, the games give 4" in err
    assert "062 says 13 players, the file has 12" in err


def test_convert_to_stdout_and_back(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run(capsys, "trf", "convert", str(GONZAGA), "--to", "trf2026")
    assert status == 0
    assert out == write_trf(read_trf(GONZAGA))
    status, out, _ = run(capsys, "trf", "convert", str(GONZAGA), "--to", "json")
    assert json.loads(out)["format"] == "crosstable-tournament"
    saved = tmp_path / "g.json"
    saved.write_text(out, encoding="utf-8")
    status, back, _ = run(capsys, "trf", "convert", str(saved), "--to", "trf2026")
    assert back == write_trf(read_trf(GONZAGA))


def test_convert_to_file_and_trf16_warnings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = GONZAGA.read_text(encoding="latin-1").replace("142 5\n", "142 5\n202 DE, BH/C1\n")
    source = tmp_path / "in.trf"
    source.write_text(text, encoding="latin-1")
    target = tmp_path / "out.trf"
    status, out, err = run(
        capsys, "trf", "convert", str(source), "--to", "trf16", "-o", str(target)
    )
    assert status == 0 and out == ""
    assert "TRF-16 cannot carry the tie-break list (202/212)" in err
    assert target.read_text(encoding="utf-8").startswith("012 Gonzaga Classic\n")


def test_convert_bad_input_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.trf"
    bad.write_text("001    1      A" + " " * 33 + "x\n", encoding="utf-8")
    target = tmp_path / "out.json"
    status, out, err = run(capsys, "trf", "convert", str(bad), "--to", "json", "-o", str(target))
    assert status == 2 and out == ""
    assert err.startswith(f"crosstable: {bad}:1:49: rating")
    assert list(tmp_path.iterdir()) == [bad]


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "trf", "validate", str(tmp_path / "none.trf"))
    assert status == 2 and "none.trf" in err and "Traceback" not in err
