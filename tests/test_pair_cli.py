"""`crosstable pair`: the next round of a Swiss as JSON or a table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crosstable.cli import main
from tests.dutch_data import cut_before, load

SET = "p03_n009_r06_byes"


def _cut(data_dir: Path, tmp_path: Path, round_number: int, name: str = SET) -> Path:
    text, _ = load(data_dir, name)
    path = tmp_path / f"{name}-r{round_number}.trf"
    path.write_text(cut_before(text, round_number))
    return path


def test_pair_json_matches_reference(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, expected = load(data_dir, SET)
    rounds = expected["rounds"]
    assert isinstance(rounds, dict)
    for number in ("2", "5"):
        path = _cut(data_dir, tmp_path, int(number))
        assert main(["pair", str(path), "--system", "dutch", "--format", "json"]) == 0
        out = json.loads(capsys.readouterr().out)
        boards = [b for b in rounds[number] if b[1] != 0]
        byes = [b[0] for b in rounds[number] if b[1] == 0]
        assert out == {"round": int(number), "boards": boards, "bye": byes[0] if byes else None}


def test_pair_leaves_out_players_with_a_bye_entered(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # round 2 of this set: player 6 has a half-point bye entered beforehand
    path = _cut(data_dir, tmp_path, 2)
    assert main(["pair", str(path), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    paired = {s for board in out["boards"] for s in board}
    assert 6 not in paired and out["bye"] is None and len(paired) == 8


def test_pair_xxz_absent(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _cut(data_dir, tmp_path, 3)
    path.write_text(path.read_text() + "XXZ 1 2\n")
    assert main(["pair", str(path), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    paired = {s for board in out["boards"] for s in board}
    assert len(out["boards"]) == 3 and out["bye"] is not None
    assert paired | {out["bye"]} == set(range(3, 10))


def test_pair_forbidden_pairs(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _cut(data_dir, tmp_path, 3)
    assert main(["pair", str(path), "--format", "json"]) == 0
    first = json.loads(capsys.readouterr().out)["boards"][0]
    path.write_text(path.read_text() + f"XXP {first[0]} {first[1]}\n")
    assert main(["pair", str(path), "--format", "json"]) == 0
    boards = json.loads(capsys.readouterr().out)["boards"]
    assert sorted(first) not in [sorted(b) for b in boards]


def test_pair_table(data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _cut(data_dir, tmp_path, 3)
    assert main(["pair", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Round 3\nBoard  White  Black\n") and "PAB: 4" in out


def test_pair_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.trf"
    path.write_text("001    1      Player One                        2x00\n")
    assert main(["pair", str(path), "--format", "json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.trf" in err and "Traceback" not in err


def test_pair_rejects_unknown_system_and_format(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _cut(data_dir, tmp_path, 2)
    assert main(["pair", str(path), "--system", "burstein"]) == 2
    assert main(["pair", str(path), "--format", "xml"]) == 2
    assert "--format" in capsys.readouterr().err


def test_pair_after_last_round_is_an_error(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = data_dir / "swiss-dutch" / f"{SET}.trf"
    assert main(["pair", str(path)]) == 2
    assert "6 rounds" in capsys.readouterr().err
