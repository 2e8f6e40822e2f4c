"""`crosstable standings`: the JSON contract of DESIGN.md, the other formats, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crosstable.cli import main
from tests.conftest import DATA

SEED = DATA / "tiebreaks/seed-examples/vibe_chess_rr6.trf"
SWISS = DATA / "tiebreaks/real/icu_gonzaga_classic_2008.trf"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["standings", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(SEED), "--tiebreaks", "PTS,DE,SB", "--format", "json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["tiebreaks"] == ["PTS", "DE", "SB"]
    first = data["rows"][0]
    assert {k: first[k] for k in ("start", "rank", "points", "SB")} == {
        "start": 1,
        "rank": 1,
        "points": 4.0,
        "SB": 9.0,
    }
    assert [row["SB"] for row in data["rows"]] == [9.0, 6.5, 5.25, 4.75, 4.0, 4.5]
    assert [row["start"] for row in data["rows"]] == [1, 2, 3, 4, 5, 6]


def test_codes_as_given_and_null_when_not_applying(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, str(SEED), "--tiebreaks", "BH/C1,ARO", "--rules", "2026", "--format", "json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["rules"] == "2026"
    assert all(row["BH/C1"] is None and row["ARO"] is None for row in data["rows"])
    assert any("round robins" in note for note in data["notes"])
    assert any("art. 10" in note for note in data["notes"])


def test_default_list_and_system_from_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, str(SWISS), "--format", "json")
    data = json.loads(out)
    assert data["system"] == "swiss"
    assert data["tiebreaks"] == ["BH/C1", "BH", "SB", "DE", "WIN"]
    _, out, _ = run(capsys, str(SWISS), "--system", "round-robin", "--format", "json")
    assert json.loads(out)["tiebreaks"] == ["DE", "WIN", "SB", "KS"]


def test_presets_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, str(SEED), "--tiebreaks", "portal-doubled", "--format", "json")
    data = json.loads(out)
    assert data["tiebreaks"] == ["DSB", "ARO_RATED"]
    assert data["rows"][1]["DSB"] == 13.0


def test_final_leaves_excluded_players_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = SEED.read_text().splitlines()
    # player 6 forfeits rounds 2-5 (opponents 4, 2, 5, 3 get +): 1 game of 5 played
    out_lines = []
    for line in lines:
        if line.startswith("001"):
            start = int(line[4:8])
            cells = [line[91 + 10 * r : 99 + 10 * r] for r in range(5)]
            for r, cell in enumerate(cells):
                opponent = int(cell[:4])
                if r >= 1 and (start == 6 or opponent == 6):
                    result = "-" if start == 6 else "+"
                    cells[r] = cell[:7] + result
            line = line[:91] + "  ".join(cells)
        out_lines.append(line)
    path = tmp_path / "withdrawn.trf"
    path.write_text("\n".join(out_lines) + "\n")
    # the points column is left as it was: --lenient reads the games' score (issue 15.4)
    code, out, err = run(capsys, str(path), "--final", "--format", "json", "--lenient")
    assert code == 0, err
    data = json.loads(out)
    assert 6 not in [row["start"] for row in data["rows"]]
    assert data["final"] is True
    code, out, _ = run(capsys, str(path), "--format", "json", "--lenient")
    assert 6 in [row["start"] for row in json.loads(out)["rows"]]


def test_withdrawn_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(SEED), "--withdrawn", "6", "--format", "json")
    assert code == 0
    row = json.loads(out)["rows"][-1]
    assert row["start"] == 6 and row["withdrawn"] == "explicit"


def test_table_crosstable_and_explain(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(SEED), "--tiebreaks", "DE,SB")
    assert code == 0 and out.splitlines()[0].split()[:4] == ["Rank", "No", "Name", "Pts"]
    code, out, _ = run(capsys, str(SEED), "--format", "crosstable", "--explain", "2")
    assert code == 0
    assert "SB of player 2 = 6.5" in out and "2.5 + 0.5 × (4 + 1.5 + 2.5)" in out
    assert out.splitlines()[1].split()[:4] == ["1", "Player", "A", "×"]
    code, out, _ = run(capsys, str(SEED), "--format", "json", "--explain", "3,2")
    assert "direct encounter" in json.loads(out)["explain"]["why"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tiebreaks", "XYZ"], "unknown code"),
        (["--tiebreaks", "BH/L-1"], "no /L modifier"),
        (["--rules", "2025"], "--rules"),
        (["--system", "knockout"], "--system"),
        (["--withdrawn", "9"], "no player 9"),
        (["--explain", "x"], "not a starting number"),
        (["--format", "xml"], "--format"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, str(SEED), *args)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_bad_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.trf"
    bad.write_text("001    1      A" + " " * 68 + "1.0        2 w x\n")
    code, out, err = run(capsys, str(bad))
    assert code == 2 and out == ""
    assert "bad.trf" in err and "Traceback" not in err
    code, _, err = run(capsys, str(tmp_path / "missing.trf"))
    assert code == 2 and "missing.trf" in err
