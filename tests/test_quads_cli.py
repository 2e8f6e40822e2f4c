"""`crosstable schedule quads` (DESIGN.md command-line contract; R-RR-17)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crosstable.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``crosstable …`` through the real command line (errors: one line, exit 2)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_quads_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schedule", "quads", "--players", "11", "--format", "json")
    assert code == 0
    assert json.loads(out) == {"groups": [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]]}


def test_quads_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schedule", "quads", "--players", "9")
    assert code == 0 and "Quads" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "2"], "at least 3 players"),
        ([], "give --players N or --players-file FILE"),
    ],
)
def test_quads_errors(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = run(capsys, "schedule", "quads", *args, "--format", "json")
    assert code == 2 and out == "" and message in err


CSV = """Name,Rating,Club
Ann,1500,A
Bob,1900,B
Cy,,C
Dee,1900,D
Eve,2100,E
"""


def test_quads_from_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.csv"
    path.write_text(CSV, encoding="utf-8")
    code, out, _ = run(capsys, "schedule", "quads", "--players-file", str(path), "-f", "json")
    assert code == 0
    # Eve 2100, Bob 1900, Dee 1900 (ties by name), Ann 1500, Cy unrated — one group of 5
    assert json.loads(out) == {"groups": [[5, 2, 4, 1, 3]]}
    code, out, _ = run(capsys, "schedule", "quads", "--players-file", str(path))
    assert code == 0 and "Eve" in out


@pytest.mark.parametrize(
    ("text", "location", "message"),
    [
        ("name,rating\nAnn,15x0\n", ":2:5:", "rating '15x0' is not a whole number"),
        ("name,elo\nAnn,1500\n", ":1:", "no 'rating' column"),
        ("name,rating\n,1500\n", ":2:1:", "the name is empty"),
        ("name,rating\nAnn\n", ":2:", "the row has 1 fields"),
        ("", "", "empty file"),
        ("name,rating\n", ":2:", "no players"),
    ],
)
def test_quads_csv_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, location: str, message: str
) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "schedule", "quads", "--players-file", str(path), "-f", "json")
    assert code == 2 and out == ""
    assert message in err and f"{path}{location}" in err
    assert err.count("\n") == 1


def test_quads_players_must_match_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.csv"
    path.write_text(CSV, encoding="utf-8")
    code, _, err = run(capsys, "schedule", "quads", "--players", "9", "--players-file", str(path))
    assert code == 2 and "lists 5 players" in err


TRF = "".join(
    f"001 {start:4d}      {name:<33} {rating:4d}" + "\n"
    for start, name, rating in [
        (1, "Alpha", 1800),
        (2, "Bravo", 2200),
        (3, "Charlie", 2000),
        (4, "Delta", 1600),
    ]
)


def test_quads_from_trf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.trf"
    path.write_text("012 Club quads\n" + TRF, encoding="utf-8")
    code, out, err = run(capsys, "schedule", "quads", "--players-file", str(path), "-f", "json")
    assert (code, err) == (0, "")
    assert json.loads(out) == {"groups": [[2, 3, 1, 4]]}
