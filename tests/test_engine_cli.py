"""`crosstable engine --dutch`, `crosstable check` and `crosstable generate`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crosstable.cli import main
from tests.dutch_data import cut_before, load

SET = "p05_n011_r05_mixed"


def test_engine_pairing_file(data_dir: Path, tmp_path: Path) -> None:
    text, expected = load(data_dir, SET)
    rounds = expected["rounds"]
    assert isinstance(rounds, dict)
    trf = tmp_path / "in.trf"
    trf.write_text(cut_before(text, 4))
    out = tmp_path / "out.txt"
    assert main(["engine", "--dutch", str(trf), "-p", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert int(lines[0]) == len(lines) - 1 == len(rounds["4"])
    assert [list(map(int, line.split())) for line in lines[1:]] == rounds["4"]


def test_engine_pairing_to_stdout(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, _ = load(data_dir, SET)
    trf = tmp_path / "in.trf"
    trf.write_text(cut_before(text, 1))
    assert main(["engine", "--dutch", str(trf), "-p"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "6" and lines[-1].endswith(" 0")


def test_engine_check_and_check_command(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = data_dir / "swiss-dutch" / f"{SET}.trf"
    assert main(["engine", "--dutch", str(path), "-c"]) == 0
    assert capsys.readouterr().out.strip().endswith("5 of 5 rounds agree")
    assert main(["check", str(path), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["differing"] == [] and len(report["rounds"]) == 5


def test_check_reports_a_changed_round(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # swap the colours of round 1's first game: the rules give the other colours
    lines = (data_dir / "swiss-dutch" / f"{SET}.trf").read_text().splitlines()
    first = next(line for line in lines if line.startswith("001") and int(line[4:8]) == 1)
    players = (1, int(first[91:95]))
    out = []
    for line in lines:
        if line.startswith("001") and int(line[4:8]) in players:
            colour = line[96]
            line = line[:96] + ("b" if colour == "w" else "w") + line[97:]
        out.append(line)
    path = tmp_path / "changed.trf"
    path.write_text("\n".join(out) + "\n")
    assert main(["check", str(path)]) == 1
    report = capsys.readouterr().out
    assert "Round 1: differs" in report


def test_generate_is_reproducible_and_checks_clean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "a.trf", tmp_path / "b.trf"
    args = ["--players", "19", "--rounds", "6", "--seed", "7", "--byes", "0.05"]
    assert main(["generate", *args, "--forfeits", "0.05", "-o", str(first)]) == 0
    assert main(["generate", *args, "--forfeits", "0.05", "-o", str(second)]) == 0
    assert first.read_text() == second.read_text()
    assert main(["check", str(first)]) == 0
    assert "6 of 6 rounds agree" in capsys.readouterr().out


def test_engine_generate_with_config(tmp_path: Path) -> None:
    config = tmp_path / "gen.cfg"
    config.write_text("PlayersNumber=12\nRoundsNumber=4\nDrawPercentage=20\n")
    out = tmp_path / "gen.trf"
    assert main(["engine", "--dutch", "-g", str(config), "-o", str(out), "-s", "3"]) == 0
    players = [line for line in out.read_text().splitlines() if line.startswith("001")]
    assert len(players) == 12


def test_engine_bad_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["engine", "--burstein", "x.trf", "-p"]) == 2
    config = tmp_path / "gen.cfg"
    config.write_text("Players=12\n")
    assert main(["engine", "--dutch", "-g", str(config), "-o", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert "gen.cfg:1:1" in err and not (tmp_path / "x").exists()


def test_generate_rejects_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--players", "1", "--rounds", "3", "-o", str(tmp_path / "g")]) == 2
    assert main(["generate", "--players", "9", "--rounds", "3", "--byes", "2", "-o", "g"]) == 2
    assert "rate" in capsys.readouterr().err


def test_engine_config_takes_ascii_digits_and_bounded_sizes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 13.4: `int()` read a full-width ６ as 6, and 10⁹ players would never finish."""
    config = tmp_path / "gen.cfg"
    out = tmp_path / "out.trf"
    for text, message in (
        ("PlayersNumber=６\n", "gen.cfg:1:15: PlayersNumber: '６' is not a whole number"),
        ("PlayersNumber=1000000000\n", "gen.cfg:1:15: PlayersNumber: 1000000000: at most 9999"),
        ("RoundsNumber=1000\n", "gen.cfg:1:14: RoundsNumber: 1000: at most 999"),
    ):
        config.write_text(text, encoding="utf-8")
        assert main(["engine", "--dutch", "-g", str(config), "-o", str(out)]) == 2
        assert message in capsys.readouterr().err
    assert main(["engine", "--dutch", "-g", "-o", str(out), "-s", "３"]) == 2
    assert "-s '３': not a whole number" in capsys.readouterr().err
    assert not out.exists()
