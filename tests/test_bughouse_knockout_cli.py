"""`crosstable bughouse new --knockout …`: a knockout of pairs from the terminal on a
SQLite file, to its winner; bad input is one line and exit status 2, and changes
nothing."""

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


def test_r_x_6_a_knockout_of_pairs_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "cup.db"
    made = ok(capsys, db, "bughouse", "new", "Cup", "--knockout", "--tie-rule", "playoff")
    assert "Cup" in made
    for number, rating in ((1, 1800), (2, 2000), (3, 1900)):
        ok(capsys, db, "team", "add", f"Pair {number}")
        for name in ("A", "B"):
            ok(
                capsys,
                db,
                "team",
                "member",
                str(number),
                f"{name}{number}",
                "--rating",
                str(rating),
            )
    assert "knockout of pairs started: 3 pairs, 2 rounds" in ok(capsys, db, "start")
    view = json.loads(ok(capsys, db, "bughouse", "bracket", "--format", "json"))
    assert view["rounds"][0]["byes"][0]["name"] == "Pair 2"  # the best-rated pair: the bye
    assert view["tie_rule"] == "rapid:2,blitz:2,armageddon"
    ok(capsys, db, "result", "1", "1", "½-½")
    ok(capsys, db, "result", "1", "2", "½-½")
    added = json.loads(ok(capsys, db, "bughouse", "pair", "--format", "json"))
    assert [m["kind"] for m in added["matches"]] == ["rapid", "rapid"]
    for rnd in (2, 3):
        cards = json.loads(
            ok(capsys, db, "bughouse", "matches", "--round", str(rnd), "--format", "json")
        )
        for board in cards["matches"][0]["boards"]:  # the White player wins each board
            ok(capsys, db, "result", str(rnd), str(board["board"]), "1-0")
    text = ok(capsys, db, "bughouse", "pair")  # 2-2 over the rapid matches: blitz next
    assert "blitz match: " in text
    for rnd in (4, 5):
        cards = json.loads(
            ok(capsys, db, "bughouse", "matches", "--round", str(rnd), "--format", "json")
        )
        first = cards["matches"][0]
        for board in first["boards"]:  # Pair 3's players (numbered 3 and 4) win
            white_is_3 = board["white"] in (3, 4)
            ok(capsys, db, "result", str(rnd), str(board["board"]), "1-0" if white_is_3 else "0-1")
    assert "final paired" in ok(capsys, db, "bughouse", "pair")
    view = json.loads(ok(capsys, db, "bughouse", "bracket", "--format", "json"))
    assert [p["name"] for p in view["rounds"][1]["matches"][0]["players"]] == ["Pair 2", "Pair 3"]
    assert "Pair 3" in ok(capsys, db, "bughouse", "bracket")
    before = ok(capsys, db, "bughouse", "bracket", "--format", "json")
    for args, words in (
        (("bughouse", "new", "Odd", "--tie-rule", "lots"), "are for a knockout of pairs"),
        (("bughouse", "new", "Odd", "--knockout", "--swiss"), "choose one"),
        (("bughouse", "new", "Odd", "--knockout", "--tie-rule", "coin"), "tie_rule"),
        (("bughouse", "pair"), "is not over"),
        (("pair-round",), ""),
    ):
        code, _out, err = run(capsys, db, *args)
        assert code == 2 and words in err and "Traceback" not in err, (args, err)
    assert ok(capsys, db, "bughouse", "bracket", "--format", "json") == before
