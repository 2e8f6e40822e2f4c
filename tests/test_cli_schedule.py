"""`crosstable schedule berger|circle|verify` (DESIGN.md command-line contract)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crosstable.cli import main
from crosstable.core.schedule import berger_schedule, circle_schedule


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code = main([*argv, "--format", "json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)  # type: ignore[no-any-return]


def test_berger_json_shape_six_players(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "schedule", "berger", "6")
    assert data == {
        "players": 6,
        "rounds": [
            {"round": 1, "boards": [[1, 6], [2, 5], [3, 4]], "bye": None},
            {"round": 2, "boards": [[6, 4], [5, 3], [1, 2]], "bye": None},
            {"round": 3, "boards": [[2, 6], [3, 1], [4, 5]], "bye": None},
            {"round": 4, "boards": [[6, 5], [1, 4], [2, 3]], "bye": None},
            {"round": 5, "boards": [[3, 6], [4, 2], [5, 1]], "bye": None},
        ],
    }


def test_berger_odd_field_has_the_bye(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "schedule", "berger", "5")
    rounds = data["rounds"]
    assert isinstance(rounds, list)
    assert [r["bye"] for r in rounds] == [1, 4, 2, 5, 3]
    assert rounds[1]["boards"] == [[5, 3], [1, 2]]


@pytest.mark.parametrize(
    ("argv", "cycles", "swap"),
    [
        (["--double"], 2, True),
        (["--double", "--no-swap"], 2, False),
        (["--cycles", "3"], 3, True),
        (["--cycles", "4", "--no-swap"], 4, False),
        (["--double", "--cycles", "2"], 2, True),
    ],
)
def test_berger_cycles_options(
    capsys: pytest.CaptureFixture[str], argv: list[str], cycles: int, swap: bool
) -> None:
    data = run_json(capsys, "schedule", "berger", "8", *argv)
    assert data == berger_schedule(8, cycles, swap_last_rounds=swap).to_json()
    rounds = data["rounds"]
    assert isinstance(rounds, list)
    assert [r["round"] for r in rounds] == list(range(1, 7 * cycles + 1))


def test_circle_json_is_the_circle_schedule(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(capsys, "schedule", "circle", "7") == circle_schedule(7).to_json()
    assert run_json(capsys, "schedule", "circle", "6", "--double") == (
        circle_schedule(6, 2).to_json()
    )


def test_default_format_is_a_readable_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schedule", "berger", "5"]) == 0
    out = capsys.readouterr().out
    assert "Berger table, 5 players" in out
    assert "2 — 5, 3 — 4" in out  # round 1, the seeds' way of writing it
    assert "Bye" in out


def test_table_for_double_shows_cycles(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schedule", "circle", "6", "--double", "--format", "table"]) == 0
    out = capsys.readouterr().out
    assert "Cycle" in out and "1 — 6, 5 — 2, 3 — 4" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["schedule", "berger", "2"],
        ["schedule", "berger", "0"],
        ["schedule", "berger", "-4"],
        ["schedule", "berger", "100000"],
        ["schedule", "berger", "six"],
        ["schedule", "berger", "6", "--cycles", "0"],
        ["schedule", "berger", "6", "--cycles", "1000"],
        ["schedule", "berger", "6", "--double", "--cycles", "3"],
        ["schedule", "berger", "6", "--format", "xml"],
        ["schedule", "circle", "1"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert main(argv) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert "Traceback" not in out.err


def test_too_few_players_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schedule", "berger", "2"]) == 2
    assert capsys.readouterr().err == "crosstable: a round robin needs 3 to 9999 players, not 2\n"


# --- verify ------------------------------------------------------------------------------


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_verify_accepts_our_own_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the exchange of the last two rounds breaks the alternation of the highest number
    # of an even field in cycle 1; an odd field alternates over the games played
    for players, cycles, alternates in ((6, 1, True), (7, 2, True), (10, 2, False)):
        path = write(tmp_path, "s.json", json.dumps(berger_schedule(players, cycles).to_json()))
        report = run_json(capsys, "schedule", "verify", str(path))
        assert report["ok"] is True
        assert report["problems"] == []
        assert report["games"] == players * (players - 1) // 2 * cycles
        assert report["highest_alternates"] is alternates


def test_verify_text_seed_style(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # seed 000's 7/8 table with the ghost in brackets, for seven players
    text = """# seed 000, seven players: (8) is the free round
players: 7
1: 1 — (8), 2 — 7, 3 — 6, 4 — 5
2: (8) — 5, 6 — 4, 7 — 3, 1 — 2
3: 2 — (8), 3 — 1, 4 — 7, 5 — 6
4: (8) — 6, 7 — 5, 1 — 4, 2 — 3
5: 3 — (8), 4 — 2, 5 — 1, 6 — 7
6: (8) — 7, 1 — 6, 2 — 5, 3 — 4
7: 4 — (8), 5 — 3, 6 — 2, 7 — 1
"""
    path = write(tmp_path, "seven.txt", text)
    report = run_json(capsys, "schedule", "verify", str(path))
    assert report["ok"] is True and report["players"] == 7
    colours = report["colours"]
    assert isinstance(colours, list)
    assert all(c["whites"] == c["blacks"] == 3 and c["byes"] == 1 for c in colours)
    assert main(["schedule", "verify", str(path)]) == 0
    assert "sound" in capsys.readouterr().out


def test_verify_reports_problems_with_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "1-4 2-3\n4-3 1-2\n2-4 1-3\n"  # 1-3 instead of 3-1: 1 gets W W W, 3 gets B B B
    path = write(tmp_path, "four.txt", text)
    assert main(["schedule", "verify", str(path), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    kinds = [p["kind"] for p in report["problems"]]
    assert kinds == ["colour-run", "colour-run", "colour-balance", "colour-balance"]
    assert main(["schedule", "verify", str(path)]) == 1
    assert "player 1 has White 3 times running, rounds 1–3" in capsys.readouterr().out


def test_verify_pair_problems(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "bad.txt", "1-4 2-3\n4-3 1-2\n1-4 3-2\n")
    assert main(["schedule", "verify", str(path), "--format", "json"]) == 1
    kinds = {p["kind"] for p in json.loads(capsys.readouterr().out)["problems"]}
    assert {"pair-repeated", "pair-missing"} <= kinds


def test_verify_pivot_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "c.json", json.dumps(circle_schedule(6).to_json()))
    assert main(["schedule", "verify", str(path), "--pivot", "1"]) == 0
    capsys.readouterr()
    assert main(["schedule", "verify", str(path), "--pivot", "6", "-f", "json"]) == 1
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert [p["kind"] for p in problems] == ["not-alternating"]


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("1-4 2-3\n4-3 x 1-2\n", ":2:5:", "expected a pair like 1-6 or 'bye 7', found 'x'"),
        ("1-4 2-3\n3: 4-3 1-2\n", ":2:1:", "this is round 2, but the line says 3"),
        ("1-4 2-3\nplayers: 4\n", ":2:", "'players' must come once, before the first round"),
        ("players: 5\nbye 3 1-6 2-5 4-3\n", ":2:7:", "round 1 has two byes"),
        ("# nothing\n", ":", "no rounds"),
        ('{"players": 4, "rounds": [}', ":1:27:", "Expecting value"),
        ('{"players": 4,\n "rounds": [{"boards": [[1, 2, 3]]}]}', ":2:25:", "[white, black]"),
        ('{"players": "4", "rounds": []}', ":1:13:", "'players' must be a whole number"),
        ('{"players": 4, "rounds": [{"round": 2, "boards": []}]}', ":1:37:", "expected 1"),
        ('{"players": 4, "rounds": [], "extra": 1}', ":1:39:", "unknown key 'extra'"),
        ('{"players": 4, "rounds": [{"boards": [[1, 2.5]]}]}', ":1:43:", "starting number"),
        ("[1, 2]", ":1:1:", "must be an object"),
    ],
)
def test_verify_bad_file_names_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, where: str, message: str
) -> None:
    path = write(tmp_path, "bad.txt", text)
    assert main(["schedule", "verify", str(path)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    lines = out.err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"crosstable: {path}{where}"), lines[0]
    assert message in lines[0]


def test_verify_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schedule", "verify", str(tmp_path / "none.txt")]) == 2
    assert "none.txt" in capsys.readouterr().err


def test_verify_players_option_must_agree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "s.txt", "players: 4\n1-4 2-3\n4-3 1-2\n2-4 3-1\n")
    assert main(["schedule", "verify", str(path), "--players", "4"]) == 0
    capsys.readouterr()
    assert main(["schedule", "verify", str(path), "--players", "5"]) == 2
    assert ":1: the file says 4 players, --players says 5" in capsys.readouterr().err
