"""Swiss, knockout and Scheveningen events from the terminal (the real command line)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from crosstable.cli import main

PLAYERS = (
    ("Anna", 2210),
    ("Boris", 2185),
    ("Clara", 2150),
    ("Dmitri", 2120),
    ("Eva", 2080),
    ("Fyodor", 2050),
    ("Gayane", 2010),
)


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("CROSSTABLE_ACTOR", "arbiter")
    monkeypatch.setenv("COLUMNS", "120")
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


def fails(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one-line error of a refused command (exit status 2)."""
    code, _, err = run(capsys, *args)
    assert code == 2
    assert err.startswith("crosstable: ") and err.count("\n") == 1, err
    return err


def swiss(capsys: pytest.CaptureFixture[str], db: str, *options: str) -> None:
    ok(capsys, "new", "Autumn Swiss", "--system", "dutch", *options, "--db", db)
    for name, rating in PLAYERS:
        ok(capsys, "player", "add", name, "--rating", str(rating), "--db", db)
    ok(capsys, "draw", "--by", "rating", "--db", db)
    out = ok(capsys, "start", "--db", db)
    assert "#1 Autumn Swiss (running)" in out and "crosstable pair-round" in out


def proposal(capsys: pytest.CaptureFixture[str], db: str) -> dict[str, object]:
    data: dict[str, object] = json.loads(ok(capsys, "pair-round", "--format", "json", "--db", db))
    return data


def enter_results(capsys: pytest.CaptureFixture[str], db: str, source: random.Random) -> None:
    export = json.loads(ok(capsys, "export", "--to", "json", "--db", db))
    for game in export["games"]:
        if game["result"] is None:
            value = source.choice(["1-0", "½-½", "0-1"])
            ok(capsys, "result", str(game["round"]), str(game["board"]), value, "--db", db)


def test_a_swiss_from_the_terminal(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    swiss(capsys, db, "--rounds", "4", "--initial-colour", "black")
    export = json.loads(ok(capsys, "export", "--to", "json", "--db", db))
    assert export["tournament"]["regulations"] == {"initial_colour": "black"}
    assert export["tournament"]["rounds_planned"] == 4
    out = ok(capsys, "bye", "4", "2", "--db", db)
    assert "player 4 Dmitri: half-point bye (H) in round 2" in out

    out = ok(capsys, "pair-round", "--db", db)
    assert "round 1: the Dutch system's pairing, not published" in out
    assert "crosstable pair-round --publish" in out
    first = proposal(capsys, db)
    assert first["round"] == 1 and first["bye"] == 7 and first["manual"] is False
    # initial colour black: player 1 has Black on board 1
    assert first["boards"] == [[4, 1], [2, 5], [6, 3]]
    out = ok(capsys, "pair-round", "--publish", "--db", db)
    assert "round 1 paired: 3 boards, PAB 7 Gayane" in out
    assert "4 Dmitri" in out and "PAB" in out
    # results missing: publishing would adjourn them, after a level-2 warning
    code, _, err = run(capsys, "pair-round", "--publish", "--db", db)
    assert code == 2 and "warning (level 2)" in err and "recorded as adjourned" in err

    source = random.Random(11)
    for number in range(2, 5):
        enter_results(capsys, db, source)
        shown = proposal(capsys, db)
        assert shown["round"] == number
        if number == 2:
            assert shown["absent"] == [[4, "H"]]
            out = ok(capsys, "pair-round", "--db", db)
            assert "half-point bye" in out
        out = ok(capsys, "pair-round", "--publish", "--db", db)
        assert f"round {number} paired" in out and "manual" not in out
    enter_results(capsys, db, source)
    err = fails(capsys, "pair-round", "--db", db)  # the last result finished it (issue 15.7)
    assert "the tournament is finished: no more rounds are paired" in err
    out = ok(capsys, "show", "--db", db)
    assert "round 4" in out and "standings" in out and "BH/C1" in out

    # the exported TRF passes `crosstable check`: every round as the Dutch system pairs it
    trf = tmp_path / "autumn.trf"
    ok(capsys, "export", "--to", "trf2026", "-o", str(trf), "--db", db)
    out = ok(capsys, "check", str(trf))
    assert "4 of 4 rounds agree" in out
    out = ok(capsys, "finish", "--db", db)
    assert "places are final" in out


def test_a_manual_pairing_from_the_terminal(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    swiss(capsys, db, "--rounds", "3", "--initial-colour", "white")
    assert proposal(capsys, db)["boards"] == [[1, 4], [5, 2], [3, 6]]
    out = ok(capsys, "pair-round", "--board", "1=4-1", "--db", db)
    assert "round 1: manual pairing, not published" in out
    assert "warning: board 1: 4 – 1 has the colours reversed" in out
    err = fails(capsys, "pair-round", "--board", "1=1-5", "--db", db)
    assert "players 2, 4 are not paired" in err
    err = fails(capsys, "pair-round", "--board", "1:1-4", "--db", db)
    assert "write BOARD=WHITE-BLACK" in err
    err = fails(capsys, "pair-round", "--board", "9=1-4", "--db", db)
    assert "has boards 1–3" in err
    by_hand = ["pair-round", "--board", "1=1-5", "--board", "2=4-2", "--bye", "6"]
    by_hand += ["--board", "3=3-7", "--publish", "--key", "r1", "--db", db]
    code, _, err = run(capsys, *by_hand)  # FIDE mode: a hand pairing is a level-3 warning
    assert code == 2
    assert "warning (level 3)" in err and "differs from the Dutch system's pairing" in err
    token = err.rsplit("--confirm ", 1)[1].split()[0]
    out = ok(capsys, *by_hand, "--confirm", token)
    assert "manual pairing, differs from the Dutch system's" in out
    assert "PAB 6 Fyodor" in out
    again = ok(capsys, "pair-round", "--publish", "--key", "r1", "--db", db)
    assert "unchanged: round 1 paired" in again
    history = ok(capsys, "history", "--db", db)
    assert "manual pairing" in history
    # a rematch by hand is refused unless allowed
    export = json.loads(ok(capsys, "export", "--to", "json", "--db", db))
    for game in export["games"]:
        ok(capsys, "result", "1", str(game["board"]), "1-0", "--db", db)
    err = fails(capsys, "pair-round", "--board", "1=1-5", "--db", db)
    assert "met in round 1 already" in err
    full = ("--board", "1=1-5", "--board", "2=2-3", "--board", "3=4-6", "--bye", "7")
    assert "met in round 1 already" in fails(capsys, "pair-round", *full, "--db", db)
    out = ok(capsys, "pair-round", *full, "--allow-rematch", "--db", db)
    assert "rematch allowed by the organiser" in out


def test_byes_from_the_terminal(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    swiss(capsys, db, "--rounds", "3")
    out = ok(capsys, "bye", "2", "1", "--kind", "Z", "--db", db)
    assert "zero-point bye (Z) in round 1" in out
    assert proposal(capsys, db)["absent"] == [[2, "Z"]]
    out = ok(capsys, "bye", "2", "1", "--kind", "z", "--db", db)
    assert "unchanged: " in out
    out = ok(capsys, "bye", "2", "1", "--cancel", "--db", db)
    assert "cancelled" in out
    assert proposal(capsys, db)["absent"] == []
    assert "bye kind 'Q'" in fails(capsys, "bye", "2", "1", "--kind", "Q", "--db", db)
    assert "no round 5" in fails(capsys, "bye", "2", "5", "--db", db)
    ok(capsys, "pair-round", "--publish", "--db", db)
    assert "round 1 is paired already" in fails(capsys, "bye", "2", "1", "--db", db)
    out = ok(capsys, "undo", "--db", db)
    assert "undo #" in out and "round 1 paired" in out
    ok(capsys, "bye", "2", "1", "--db", db)


def test_system_options_are_checked(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    err = fails(capsys, "new", "RR", "--initial-colour", "black", "--db", db)
    assert err == (
        "crosstable: --initial-colour is for Swiss tournaments (--system dutch), "
        "not a round-robin\n"
    )
    err = fails(capsys, "new", "S", "--system", "dutch", "--match-format", "2", "--db", db)
    assert "--match-format is for knockout tournaments" in err
    err = fails(capsys, "new", "S", "--system", "chess960", "--db", db)
    assert "system 'chess960': use one of" in err
    err = fails(capsys, "new", "S", "--system", "swiss", "--initial-colour", "red", "--db", db)
    assert "--initial-colour 'red': use white or black" in err
    err = fails(capsys, "new", "S", "--system", "dutch", "--forbidden", "1-", "--db", db)
    assert "forbidden pairs '1-'" in err
    err = fails(capsys, "new", "K", "--system", "knockout", "--tie-rule", "coin", "--db", db)
    assert "tie rule 'coin'" in err
    err = fails(capsys, "new", "K", "--system", "knockout", "--bracket", "swiss", "--db", db)
    assert "--bracket 'swiss': use seeded or random" in err
    assert "S" not in ok(capsys, "tournaments", "--db", db).split()


def test_knockout_regulations_from_the_terminal(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = ok(
        capsys,
        "new",
        "Cup",
        "--system",
        "knockout",
        "--match-format",
        "2",
        "--tie-rule",
        "playoff",
        "--bracket",
        "random",
        "--db",
        db,
    )
    assert "#1 Cup (registration)" in out and "knockout" in out
    export = json.loads(ok(capsys, "export", "--to", "json", "--db", db))
    assert export["tournament"]["regulations"] == {
        "match_format": "2",
        "tie_rule": "rapid:2,blitz:2,armageddon",
        "bracket": "random",
    }
    ok(capsys, "new", "Plain cup", "--system", "knockout", "--db", db)
    export = json.loads(ok(capsys, "export", "--to", "json", "--db", db))
    assert export["tournament"]["regulations"] == {
        "match_format": "1",
        "tie_rule": "lower-rated",
        "bracket": "seeded",
    }
    err = fails(capsys, "pair-round", "--board", "1=1-2", "--db", db)
    assert "are for Swiss tournaments" in err


def test_other_systems_are_paired_at_the_start(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    ok(capsys, "new", "Match", "--system", "scheveningen", "--db", db)
    for index, name in enumerate(("Anna", "Boris", "Clara", "Dmitri")):
        team = "Yerevan" if index < 2 else "Tbilisi"
        ok(capsys, "player", "add", name, "--team", team, "--db", db)
    export = json.loads(ok(capsys, "export", "--to", "json", "--db", db))
    assert [p["team"] for p in export["players"]] == ["Yerevan", "Yerevan", "Tbilisi", "Tbilisi"]
    ok(capsys, "draw", "--seed", "3", "--db", db)
    out = ok(capsys, "start", "--db", db)
    assert "round 1" in out
    err = fails(capsys, "pair-round", "--db", db)
    assert err == (
        "crosstable: a scheveningen is paired at the start: every round is in `crosstable show`\n"
    )
    assert "only in a Swiss" in fails(capsys, "bye", "1", "2", "--db", db)


def test_pair_round_before_the_start(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    ok(capsys, "new", "Open", "--system", "dutch", "--db", db)
    err = fails(capsys, "pair-round", "--db", db)
    assert "has not started" in err
    assert "--format 'xml'" in fails(capsys, "pair-round", "--format", "xml", "--db", db)


def test_a_knockout_from_the_terminal(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    ok(capsys, "new", "Club cup", "--system", "knockout", "--tie-rule", "lower-rated", "--db", db)
    for name, rating in PLAYERS[:4]:
        ok(capsys, "player", "add", name, "--rating", str(rating), "--db", db)
    ok(capsys, "draw", "--by", "rating", "--db", db)
    out = ok(capsys, "start", "--db", db)
    assert "round 1" in out and "4 Dmitri" in out and "1 Anna" in out
    err = fails(capsys, "pair-round", "--db", db)
    assert "enter the results of round 1 boards 1 and 2 first" in err
    export = json.loads(ok(capsys, "export", "--to", "json", "--db", db))
    first = {g["board"]: (g["white"], g["black"]) for g in export["games"]}
    assert sorted(map(sorted, first.values())) == [[1, 4], [2, 3]]
    # board 1: the lower seed wins; board 2: a draw, which the lower-rated player survives
    ok(capsys, "result", "1", "1", "1-0" if first[1][0] == 4 else "0-1", "--db", db)
    ok(capsys, "result", "1", "2", "½-½", "--db", db)
    out = ok(capsys, "pair-round", "--db", db)
    assert "round 2" in out and "4 Dmitri" in out and "3 Clara" in out
    export = json.loads(ok(capsys, "export", "--to", "json", "--db", db))
    final = next(g for g in export["games"] if g["round"] == 2)
    ok(capsys, "result", "2", "1", "1-0" if final["white"] == 4 else "0-1", "--db", db)
    err = fails(capsys, "pair-round", "--db", db)
    assert "the knockout is finished" in err  # by the final's result (issue 15.7)
    out = ok(capsys, "finish", "--db", db)
    assert "places are final; first: Dmitri" in out
    assert "places" in out and "standings" not in out  # the bracket decides, not points
