"""`crosstable schedule scheveningen` (DESIGN.md command-line contract; R-RR-17)."""

from __future__ import annotations

import json

import pytest

from crosstable.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``crosstable …`` through the real command line (errors: one line, exit 2)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_scheveningen_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schedule", "scheveningen", "--team-size", "4", "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert data["players"] == 8
    assert data["rounds"][0] == {
        "round": 1,
        "boards": [[1, 5], [2, 6], [7, 3], [8, 4]],
        "bye": None,
    }
    assert len(data["rounds"]) == 4


def test_scheveningen_double_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schedule", "scheveningen", "-n", "6", "--double", "-f", "json")
    data = json.loads(out)
    assert code == 0 and len(data["rounds"]) == 12
    assert sum(len(r["boards"]) for r in data["rounds"]) == 72


def test_scheveningen_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schedule", "scheveningen", "--team-size", "2")
    assert code == 0 and "A1–B1" in out and "B2–A1" in out


def test_scheveningen_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "schedule", "scheveningen", "--team-size", "0", "-f", "json")
    assert code == 2 and out == "" and "at least one player" in err and err.count("\n") == 1
