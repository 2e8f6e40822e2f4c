"""Battle chess from the terminal (issue 12 item 1): battle, colours, set-up results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crosstable.cli import main


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("CROSSTABLE_ACTOR", "arbiter")
    monkeypatch.delenv("CROSSTABLE_DB", raising=False)
    return str(tmp_path / "battle.db")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def ok(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = run(capsys, *args)
    assert code == 0, err
    return out


def test_a_battle_chess_round_from_the_terminal(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ok(capsys, "new", "Battle", "--db", db)
    out = ok(capsys, "battle", "--setup-minutes", "5", "--seed", "42", "--db", db)
    assert "battle chess" in out and "5 min" in out and "42" in out
    for name in ("Anna", "Boris", "Clara", "Dmitri"):
        ok(capsys, "player", "add", name, "--db", db)
    ok(capsys, "draw", "--by", "hand", "--order", "1,2,3,4", "--db", db)
    ok(capsys, "start", "--db", db)
    code, _, err = run(capsys, "result", "2", "1", "1-0", "--db", db)
    assert code == 2 and "colours of round 2 are not drawn yet" in err
    assert "Traceback" not in err
    ok(capsys, "result", "1", "1", "setup-white", "--db", db)
    ok(capsys, "result", "1", "2", "setup-draw", "--db", db)
    out = ok(capsys, "battle", "--db", db)
    assert "colours drawn for round 1, 2" in out  # round 2 drawn when round 1 completed
    out = ok(capsys, "colours", "3", "--db", db)
    assert "round 3: colours drawn by the computer" in out
    code, _, err = run(capsys, "colours", "3", "--db", db)
    assert code == 2 and "already drawn" in err
    document = json.loads(ok(capsys, "export", "--to", "json", "--db", db))
    reasons = [g["reason"] for g in document["games"] if g["round"] == 1]
    assert reasons == ["setup-timeout", "setup-timeout"]
    assert [r["colours_drawn"] for r in document["rounds"]] == [True, True, True]


def test_bad_battle_options(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    ok(capsys, "new", "Battle", "--db", db)
    code, _, err = run(capsys, "battle", "--setup-minutes", "500", "--db", db)
    assert code == 2 and "1 to 120 minutes" in err
    code, _, err = run(capsys, "battle", "--off", "--seed", "3", "--db", db)
    assert code == 2 and "--off" in err
    code, _, err = run(capsys, "result", "1", "1", "setup-white", "--db", db)
    assert code == 2 and "Traceback" not in err


def test_new_makes_a_battle_chess_tournament(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    ok(capsys, "new", "Battle", "--battle", "--setup-minutes", "7", "--db", db)
    out = ok(capsys, "battle", "--db", db)
    assert "battle chess" in out and "7 min" in out
    code, _, err = run(capsys, "new", "Open", "--system", "dutch", "--battle", "--db", db)
    assert code == 2 and "round robin" in err
    code, _, err = run(capsys, "new", "Club", "--setup-minutes", "5", "--db", db)
    assert code == 2 and "add --battle" in err
