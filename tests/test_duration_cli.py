"""`crosstable duration` (DESIGN.md command-line contract; R-RR-16)."""

from __future__ import annotations

import json

import pytest

from crosstable.cli import main

KEYS = [
    "players",
    "rounds",
    "games",
    "boards",
    "double_rounds",
    "double_games",
    "minutes_per_player",
    "worst_case_game_minutes",
    "round_minutes",
    "total_minutes",
    "rounds_per_evening",
    "evenings",
]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_seed_004_row(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys,
        "duration",
        "--players",
        "8",
        "--time-control",
        "G/25 d5",
        "--evening",
        "180",
        "--format",
        "json",
    )
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert list(data) == [*KEYS, "advice"]  # the format advice (R-X-9) is an added key
    assert data.pop("advice")["kind"] == "round-robin-if-calendar"
    assert data == {
        "players": 8,
        "rounds": 7,
        "games": 28,
        "boards": 4,
        "double_rounds": 14,
        "double_games": 56,
        "minutes_per_player": 30,
        "worst_case_game_minutes": 60,
        "round_minutes": 75,
        "total_minutes": 525,
        "rounds_per_evening": 2,
        "evenings": 4,
    }


def test_json_double(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "duration", "-n", "6", "-t", "G/60;d5", "--double", "-f", "json")
    data = json.loads(out)
    assert code == 0
    assert (data["rounds"], data["games"], data["total_minutes"]) == (10, 30, 1450)
    assert (data["double_rounds"], data["double_games"]) == (10, 30)
    assert (data["rounds_per_evening"], data["evenings"]) == (1, 10)


def test_json_fractional_minutes_are_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "duration", "-n", "4", "-t", "90s+2", "-f", "json")
    data = json.loads(out)
    assert data["minutes_per_player"] == 3.5 and data["total_minutes"] == 66


def test_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "duration", "--players", "16", "--time-control", "G/60 d5")
    assert code == 0
    assert "2175 min" in out and "36¼ h" in out and "Evenings" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "2", "--time-control", "25+5"], "at least 3 players"),
        (["--players", "8", "--time-control", "G/25 x5"], "'x5' is not understood"),
        (["--players", "8", "--time-control", "25+5", "--evening", "0"], "evening"),
    ],
)
def test_errors_are_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, "duration", *args, "--format", "json")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_bad_format_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "duration", "-n", "8", "-t", "25+5", "--format", "xml")
    assert code == 2 and out == ""
