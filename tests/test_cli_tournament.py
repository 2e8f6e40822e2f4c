"""A whole club round robin from the terminal, on a SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crosstable.cli import main


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("CROSSTABLE_ACTOR", "arbiter")
    monkeypatch.delenv("CROSSTABLE_DB", raising=False)
    return str(tmp_path / "club.db")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def ok(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = run(capsys, *args)
    assert code == 0, err
    return out


def test_a_club_round_robin_from_start_to_finish(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = ok(capsys, "new", "Club championship", "--tiebreaks", "DE,SB", "--db", db)
    assert "#1 Club championship" in out
    for name in ("Anna", "Boris", "Clara", "Dmitri"):
        ok(capsys, "player", "add", name, "--rating", "1900", "--db", db)
    out = ok(capsys, "draw", "--by", "hand", "--order", "1,2,3,4", "--db", db)
    assert "1. Anna, 2. Boris, 3. Clara, 4. Dmitri" in out
    out = ok(capsys, "start", "--db", db)
    assert "tournament started: 3 rounds" in out and "round 1" in out
    spellings = iter(["1-0", "½-½", "1/2-1/2", "0.5-0.5", "=", "0-1"])
    export = json.loads(ok(capsys, "export", "--to", "json", "--db", db))
    for game in export["games"]:
        out = ok(
            capsys, "result", str(game["round"]), str(game["board"]), next(spellings), "--db", db
        )
        assert "#1 Club championship (running)" in out
    out = ok(capsys, "finish", "--db", db)
    assert "places are final" in out and "standings" in out
    out = ok(capsys, "history", "--db", db)
    assert "arbiter" in out and "finished" in out
    out = ok(capsys, "player", "list", "--db", db)
    assert "place 1" in out

    # the whole tournament moves to another database, history and all
    target = tmp_path / "copy.json"
    ok(capsys, "export", "--to", "json", "-o", str(target), "--db", db)
    other = str(tmp_path / "other.db")
    out = ok(capsys, "import", str(target), "--db", other)
    assert "with its history" in out
    again = json.loads(ok(capsys, "export", "--to", "json", "--db", other))
    assert again == json.loads(target.read_text())
    trf = ok(capsys, "export", "--to", "trf2026", "--db", db)
    assert trf.startswith("012 Club championship")


def test_result_errors_are_one_line_and_exit_2(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    ok(capsys, "new", "Blitz", "--db", db)
    code, _, err = run(capsys, "result", "1", "1", "1-0", "--db", db)
    assert code == 2
    assert err == "crosstable: round 1 board 1 is not scheduled: the tournament has not started\n"
    for name in ("A", "B", "C"):
        ok(capsys, "player", "add", name, "--db", db)
    ok(capsys, "draw", "--seed", "7", "--db", db)
    ok(capsys, "start", "--db", db)
    ok(capsys, "result", "1", "1", "1-0", "--db", db)
    code, _, err = run(capsys, "result", "1", "1", "0-1", "--db", db)
    assert code == 2 and "already has 1-0" in err and err.count("\n") == 1
    out = ok(capsys, "result", "1", "1", "0-1", "--correct", "--db", db)
    assert "1-0 corrected to 0-1" in out
    code, _, err = run(capsys, "result", "1", "1", "2-0", "--db", db)
    assert code == 2 and "not understood" in err
    code, _, err = run(capsys, "withdraw", "9", "--db", db)
    assert code == 2 and "starting number 9" in err
    code, _, err = run(capsys, "new", "X", "--points", "1-1-1", "--db", db)
    assert code == 2 and "a win must be worth more" in err
    code, _, err = run(capsys, "draw", "--by", "dice", "--db", db)
    assert code == 2 and "use lot, rating or hand" in err


def test_undo_and_revert(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    ok(capsys, "new", "Rapid", "--db", db)
    for name in ("A", "B", "C", "D"):
        ok(capsys, "player", "add", name, "--db", db)
    ok(capsys, "draw", "--by", "rating", "--db", db)
    ok(capsys, "start", "--db", db)
    ok(capsys, "result", "1", "1", "1-0", "--db", db)
    ok(capsys, "result", "1", "2", "0-1", "--db", db)
    out = ok(capsys, "undo", "--db", db)
    assert "undo #" in out and "round 1 board 2" in out
    out = ok(capsys, "undo", "--to", "6", "--db", db)
    assert "reverted to #6" in out
    out = ok(capsys, "show", "--db", db)
    assert "1-0" not in out
    code, _, err = run(capsys, "undo", "--to", "99", "--db", db)
    assert code == 2 and "no event #99" in err


def test_several_tournaments_and_the_current_one(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ok(capsys, "new", "First", "--db", db)
    ok(capsys, "new", "Second", "--db", db)
    out = ok(capsys, "player", "add", "Anna", "--db", db)
    assert out.startswith("#2 Second")
    out = ok(capsys, "player", "add", "Boris", "--tournament", "1", "--db", db)
    assert out.startswith("#1 First")
    ok(capsys, "use", "1", "--db", db)
    out = ok(capsys, "player", "list", "--db", db)
    assert out.startswith("#1 First") and "Boris" in out and "Anna" not in out
    out = ok(capsys, "tournaments", "--db", db)
    assert "First" in out and "Second" in out
    code, _, err = run(capsys, "use", "7", "--db", db)
    assert code == 2 and "no tournament 7" in err


def test_the_database_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CROSSTABLE_DB", str(tmp_path / "env.db"))
    ok(capsys, "new", "From the environment")
    assert (tmp_path / "env.db").exists()
    monkeypatch.delenv("CROSSTABLE_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    ok(capsys, "new", "Default file")
    assert (tmp_path / "xdg" / "crosstable" / "crosstable.db").exists()


def test_import_of_a_trf_file_and_bad_files(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trf = tmp_path / "club.trf"
    trf.write_text(
        "012 Imported club\n"
        "001    1      Alpha" + " " * 64 + "1.0        2 w 1\n"
        "001    2      Beta" + " " * 65 + "0.0        1 b 0\n"
    )
    out = ok(capsys, "import", str(trf), "--db", db)
    assert "Imported club" in out and "2 players, 1 rounds" in out
    out = ok(capsys, "show", "--db", db)
    assert "1-0" in out
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "crosstable.tournament",\n "version": 1,,}')
    code, _, err = run(capsys, "import", str(broken), "--db", db)
    assert code == 2 and err.startswith(f"crosstable: {broken}:2:") and err.count("\n") == 1
    future = tmp_path / "future.json"
    future.write_text('{"format": "crosstable.tournament", "version": 99}')
    code, _, err = run(capsys, "import", str(future), "--db", db)
    assert code == 2 and "version 99 is not supported" in err
