"""`crosstable bracket` (issue 6 command line; R-KO-1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crosstable.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["bracket", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_seeded_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--players", "6", "--seeded", "--format", "json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["players"] == 6 and data["size"] == 8 and data["rounds"] == 3
    assert data["order"] == "seeded" and data["seed"] is None
    assert data["matches"] == [[4, 5], [3, 6]]
    assert data["byes"] == [1, 2]
    assert [r["name"] for r in data["bracket"]] == ["quarter-final", "semi-final", "final"]
    assert data["bracket"][0]["slots"][0] == {"slot": 1, "players": [1, None], "bye": 1, "next": 5}
    assert data["bracket"][1]["slots"] == [
        {"slot": 5, "from": [1, 2], "next": 7},
        {"slot": 6, "from": [3, 4], "next": 7},
    ]
    assert data["bracket"][2]["slots"] == [{"slot": 7, "from": [5, 6], "next": None}]


def test_random_json_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run(capsys, "--players", "8", "--seed", "42", "--format", "json")
    _, again, _ = run(capsys, "--players", "8", "--seed", "42", "--format", "json")
    assert first == again
    data = json.loads(first)
    assert data["order"] == "random" and data["seed"] == 42
    drawn = data["seeding"]
    assert sorted(drawn) == list(range(1, 9))
    assert data["matches"] == [drawn[k : k + 2] for k in range(0, 8, 2)]


def test_random_without_seed_records_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "--players", "5", "--format", "json")
    data = json.loads(out)
    _, again, _ = run(capsys, "--players", "5", "--seed", str(data["seed"]), "--format", "json")
    assert json.loads(again) == data


def test_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--players", "6", "--seeded")
    assert code == 0
    assert "Quarter-final" in out and "Final" in out
    assert "1 — bye" in out and "4 v 5" in out and "7. W5 v W6" in out


def test_players_file_seeded_by_rating(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "club.csv"
    path.write_text("name,rating\nAnn,1500\nBob,2100\nCy,1800\nDee,1900\n", encoding="utf-8")
    code, out, _ = run(capsys, "--players-file", str(path), "--seeded", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["seeding"] == [2, 4, 3, 1]
    assert data["matches"] == [[2, 1], [4, 3]]
    code, out, _ = run(capsys, "--players-file", str(path), "--seeded")
    assert "Bob 2100" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "1"], "--players 1: a knockout has 2 to 65536 players"),
        (["--players", "x"], "--players 'x': not a whole number"),
        (["--players", "4", "--seed", "1.5"], "--seed '1.5': not a whole number"),
        (["--players", "4", "--seeded", "--seed", "3"], "a seeded bracket draws nothing"),
        (["--players", "4", "--format", "xml"], "--format 'xml': use json or table"),
        ([], "give --players N or --players-file FILE"),
    ],
)
def test_bad_input(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("crosstable: ") and message in err


def test_bad_players_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "club.csv"
    path.write_text("name,rating\nAnn,15x0\n", encoding="utf-8")
    code, out, err = run(capsys, "--players-file", str(path), "--seeded")
    assert code == 2 and out == "" and f"{path}:2:" in err
    path.write_text("name,rating\nAnn,1500\nBob,1600\n", encoding="utf-8")
    code, out, err = run(capsys, "--players-file", str(path), "--players", "3")
    assert code == 2 and "lists 2 players" in err
