"""`crosstable team swiss` and `crosstable team pair`: a team Swiss from the terminal, on
a SQLite file; bad input is one line and exit status 2, and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crosstable.cli import main

TEAMS = {"Ararat": 2100, "Sevan": 2000, "Masis": 2300, "Aragats": 2200, "Hrazdan": 1900}


def run(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str, str]:
    code = main([*args, "--db", str(db)])
    out, err = capsys.readouterr()
    return code, out, err


def ok(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> str:
    code, out, err = run(capsys, db, *args)
    assert code == 0, err
    return out


def test_r_b_3_team_swiss_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "olympiad.db"
    ok(capsys, db, "team", "swiss", "Olympiad", "--boards", "2", "--rounds", "3")
    for number, (team, rating) in enumerate(TEAMS.items(), 1):
        ok(capsys, db, "team", "add", team)
        for board in range(2):
            ok(
                capsys,
                db,
                "team",
                "member",
                str(number),
                f"{team} {board}",
                "--rating",
                str(rating),
            )
    assert "team Swiss started (olympiad)" in ok(capsys, db, "start")
    teams = json.loads(ok(capsys, db, "team", "list", "--format", "json"))["teams"]
    assert [t["name"] for t in teams] == ["Masis", "Aragats", "Ararat", "Sevan", "Hrazdan"]
    out = ok(capsys, db, "team", "pair")
    assert "round 1 paired: 2 matches; team 5 has the bye" in out
    assert "Masis" in out and "Ararat" in out
    code, _, err = run(capsys, db, "team", "pair")
    assert code == 2 and "without a result" in err and "Traceback" not in err
    for board in (1, 2, 3, 4):
        ok(capsys, db, "result", "1", str(board), "1-0")
    paired = json.loads(ok(capsys, db, "team", "pair", "--format", "json"))
    assert paired["round"] == 2 and len(paired["matches"]) == 2 and paired["bye"] != 5
    standings = json.loads(ok(capsys, db, "team", "standings", "--format", "json"))
    assert standings["tiebreaks"] == ["MPVGP", "EDE", "BH:MP-C1", "BH:MP", "EMGSB"]


def test_r_b_3_team_swiss_bad_settings_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "bad.db"
    code, _, err = run(capsys, db, "team", "swiss", "X", "--pairing", "lim")
    assert code == 2 and "olympiad or dutch" in err and "Traceback" not in err
    code, _, err = run(capsys, db, "team", "swiss", "X", "--bye", "two")
    assert code == 2 and "team bye" in err
    assert run(capsys, db, "tournaments")[1].count("X") == 0
