"""`crosstable team …`: a team round robin from the terminal, on a SQLite file; bad
input is one line and exit status 2, and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crosstable.cli import main

TEAMS = {
    "Ararat": ["Aram", "Anahit", "Arsen"],
    "Sevan": ["Sargis", "Siran"],
    "Masis": ["Mher", "Mariam"],
    "Aragats": ["Armen", "Arpi"],
}


def run(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str, str]:
    code = main([*args, "--db", str(db)])
    out, err = capsys.readouterr()
    return code, out, err


def ok(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> str:
    code, out, err = run(capsys, db, *args)
    assert code == 0, err
    return out


@pytest.fixture
def league(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    db = tmp_path / "league.db"
    ok(capsys, db, "team", "new", "League", "--boards", "2", "--tiebreaks", "GP,EMGSB,BC")
    for number, (team, players) in enumerate(TEAMS.items(), 1):
        ok(capsys, db, "team", "add", team)
        for board, name in enumerate(players):
            extra = ["--captain"] if board == 0 else []
            ok(capsys, db, "team", "member", str(number), name, "--rating", "2000", *extra)
    ok(capsys, db, "start")
    return db


def test_r_b_3_team_league_from_the_command_line(
    league: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    teams = json.loads(ok(capsys, league, "team", "list", "--format", "json"))["teams"]
    assert [t["start"] for t in teams] == [1, 2, 3, 4]
    assert sorted(t["name"] for t in teams) == sorted(TEAMS)
    cards = json.loads(ok(capsys, league, "team", "matches", "--format", "json"))["matches"]
    assert len(cards) == 6 and all(len(c["boards"]) == 2 for c in cards)
    ararat = next(t for t in teams if t["name"] == "Ararat")
    starts = [m["start"] for m in ararat["members"]]
    card = next(c for c in cards if ararat["start"] in (c["white"], c["black"]))
    ok(
        capsys,
        league,
        "team",
        "lineup",
        str(card["round"]),
        str(ararat["start"]),
        str(starts[0]),
        str(starts[2]),
    )
    for c in cards:
        for board in c["boards"]:
            ok(capsys, league, "result", str(c["round"]), str(board["board"]), "1-0")
    table = json.loads(
        ok(capsys, league, "team", "standings", "--format", "json", "--explain", "1")
    )
    assert table["tiebreaks"] == ["GP", "EMGSB", "BC"]
    assert sum(r["MP"] for r in table["rows"]) == 6 * 2 == sum(r["GP"] for r in table["rows"])
    assert [r["place"] for r in table["rows"]] == sorted(r["place"] for r in table["rows"])
    assert [e["code"] for e in table["explain"]] == ["GP", "EMGSB", "BC"]
    shown = ok(capsys, league, "team", "standings", "--explain", "1")
    assert "EMGSB of team 1 =" in shown
    scores = json.loads(ok(capsys, league, "team", "players", "--format", "json"))["players"]
    assert sum(p["points"] for p in scores) == 12
    prizes = json.loads(
        ok(capsys, league, "team", "prizes", "--min-games", "1", "--format", "json")
    )
    assert {p["board"] for p in prizes["prizes"]} == {1, 2}
    first = cards[0]
    assert "the boards agree" in ok(
        capsys, league, "team", "check", "1", str(first["white"]), "1-1"
    )


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("team", "lineup", "1", "1", "2", "1"), "the board order does not allow it"),
        (("team", "check", "1", "1", "2-0"), "by the score given, but its boards give"),
        (("team", "check", "1", "1", "two"), "score 'two': write it as WHITE-BLACK"),
        (("team", "add", "Late"), "teams and their players are added before the start"),
        (("team", "standings", "--format", "xml"), "--format 'xml': use table or json"),
    ],
)
def test_r_b_3_bad_input_is_one_line_and_exit_2(
    league: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], words: str
) -> None:
    before = ok(capsys, league, "history")
    code, _out, err = run(capsys, league, *args)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err
    assert ok(capsys, league, "history") == before


def test_r_b_3_bad_settings_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "bad.db"
    code, _out, err = run(capsys, db, "team", "new", "X", "--boards", "0")
    assert code == 2 and "team boards '0': a whole number from 1 to 20" in err
    code, _out, err = run(capsys, db, "team", "new", "X", "--tiebreaks", "GP,XX")
    assert code == 2 and "unknown team tie-break 'XX'" in err
    code, _out, err = run(capsys, db, "team", "new", "X", "--primary", "BP")
    assert code == 2 and "MP (match points) or GP" in err
