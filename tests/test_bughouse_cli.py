"""`crosstable bughouse …`: a Bughouse evening from the terminal on a SQLite file; bad
input is one line and exit status 2, and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crosstable.cli import main


def run(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str, str]:
    code = main([*args, "--db", str(db)])
    out, err = capsys.readouterr()
    return code, out, err


def ok(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> str:
    code, out, err = run(capsys, db, *args)
    assert code == 0, err
    return out


def test_r_x_6_a_bughouse_evening_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "bughouse.db"
    ok(capsys, db, "bughouse", "new", "Friday Bughouse", "--rule", "first")
    for number in (1, 2, 3, 4):
        ok(capsys, db, "team", "add", f"Pair {number}")
        for name in ("A", "B"):
            ok(capsys, db, "team", "member", str(number), f"{name}{number}", "--rating", "2000")
    ok(capsys, db, "start")
    ok(capsys, db, "result", "1", "1", "1-0")
    ok(capsys, db, "result", "1", "2", "1-0")
    assert "board 2 finished first" in ok(capsys, db, "bughouse", "first", "1", "2")
    cards = json.loads(ok(capsys, db, "bughouse", "matches", "--round", "1", "--format", "json"))
    first = cards["matches"][0]
    assert first["first"] == 2 and first["match_points"] == [0, 2]
    assert cards["matches"][1]["match_points"] is None
    assert "finished first" in ok(capsys, db, "bughouse", "matches")
    table = json.loads(ok(capsys, db, "bughouse", "standings", "--format", "json"))
    assert table["rows"][0] == {
        "pair": first["black"],
        "name": table["rows"][0]["name"],
        "place": 1,
        "MP": 2,
        "GP": 1,
        "tiebreaks": [1, None, 0],
    }
    assert "Pair" in ok(capsys, db, "bughouse", "standings")
    before = ok(capsys, db, "bughouse", "matches", "--format", "json")
    for args, words in (
        (("bughouse", "first", "1", "9"), "round 1 has no board 9"),
        (("bughouse", "standings", "--format", "xml"), "use table or json"),
        (("bughouse", "new", "Odd", "--rule", "most"), "Bughouse rule"),
    ):
        code, _out, err = run(capsys, db, *args)
        assert code == 2 and words in err and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1
    code, _out, err = run(capsys, db, "bughouse", "first", "x", "1")
    assert code == 2 and "ROUND" in err and "Traceback" not in err
    assert ok(capsys, db, "bughouse", "matches", "--format", "json") == before


def test_r_x_6_a_team_league_is_not_read_as_bughouse(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    ok(capsys, db, "team", "new", "League", "--boards", "2")
    code, _out, err = run(capsys, db, "bughouse", "standings")
    assert code == 2 and "not a Bughouse event" in err


def test_r_x_6_a_swiss_of_pairs_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "swiss.db"
    ok(capsys, db, "bughouse", "new", "Bughouse Swiss", "--swiss", "--rounds", "2")
    for number in (1, 2, 3):
        ok(capsys, db, "team", "add", f"Pair {number}")
        for name in ("A", "B"):
            ok(capsys, db, "team", "member", str(number), f"{name}{number}", "--rating", "1900")
    ok(capsys, db, "start")
    out = ok(capsys, db, "bughouse", "pair")
    assert "round 1 paired: 1 matches; pair 3 has the bye" in out
    code, _out, err = run(capsys, db, "bughouse", "pair")
    assert code == 2 and "not decided yet" in err
    ok(capsys, db, "result", "1", "1", "1-0")
    ok(capsys, db, "result", "1", "2", "½-½")
    paired = json.loads(ok(capsys, db, "bughouse", "pair", "--format", "json"))
    assert paired["round"] == 2 and len(paired["matches"]) == 1 and paired["bye"] != 3
    code, _out, err = run(capsys, db, "bughouse", "new", "Odd", "--rounds", "3")
    assert code == 2 and "--swiss" in err
