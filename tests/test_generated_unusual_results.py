"""`crosstable generate` with unusual results (FIDE checklist Q24): each ½-0, 0-½ and 0-0
is written with the ``### Arbiter's decision`` line the export writes, so the generated
file reads strictly — `crosstable check --strict` finds it clean, `crosstable import`
takes it without --lenient — and the imported tournament's export, imported and exported
again, is the same file."""

from __future__ import annotations

from pathlib import Path

import pytest

from crosstable.cli import main
from crosstable.core.model import GameResult, Outcome
from crosstable.formats.trf_read import parse_trf

UNUSUAL = ("--half-zero", "1@4", "--zero-half", "1@4", "--zero-zero", "1@2")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_q24_a_generated_file_with_unusual_results_imports_strictly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = tmp_path / "generated.trf"
    code, _, err = run(
        capsys,
        "generate",
        "--players",
        "12",
        "--rounds",
        "4",
        "--seed",
        "5",
        "--tiebreaks",
        "BH/C1,BH,SB",
        "-o",
        str(made),
        *UNUSUAL,
    )
    assert code == 0, err
    text = made.read_text(encoding="utf-8")
    marks = [line for line in text.splitlines() if line.startswith("###")]
    assert len(marks) == 3 and all(m.startswith("### Arbiter's decision @ Round ") for m in marks)
    assert sorted(m.rsplit(" ", 1)[1] for m in marks) == ["0-0", "0-0.5", "0.5-0"]
    doc = parse_trf(text, source="generated")  # strict: the decided games as written
    results = [g.result for r in doc.tournament.rounds for g in r.games]
    assert GameResult(Outcome.LOSS, Outcome.LOSS) in results
    assert GameResult(Outcome.DRAW, Outcome.LOSS) in results
    assert GameResult(Outcome.LOSS, Outcome.DRAW) in results
    code, out, err = run(capsys, "check", str(made), "--strict")
    assert code == 0, out + err
    assert "4 of 4 rounds agree" in out and "warning" not in err
    db = str(tmp_path / "generated.db")
    code, _, err = run(capsys, "import", str(made), "--db", db)
    assert code == 0, err
    first, second = tmp_path / "first.trf", tmp_path / "second.trf"
    assert run(capsys, "export", "--to", "trf2026", "-o", str(first), "--db", db)[0] == 0
    exported = first.read_text(encoding="utf-8")
    assert sorted(line for line in exported.splitlines() if line.startswith("###")) == sorted(marks)
    code, _, err = run(capsys, "import", str(first), "--db", db)
    assert code == 0, err
    assert run(capsys, "export", "--to", "trf2026", "-o", str(second), "--db", db)[0] == 0
    assert second.read_text(encoding="utf-8") == exported


def test_q24_without_its_decision_lines_the_generated_file_needs_lenient(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = tmp_path / "generated.trf"
    args = ("--players", "10", "--rounds", "3", "--seed", "2", "-o", str(made))
    assert run(capsys, "generate", *args, "--zero-zero", "1@1")[0] == 0
    bare = tmp_path / "bare.trf"
    lines = made.read_text(encoding="utf-8").splitlines()
    assert sum(line.startswith("### Arbiter's decision @ Round 1: ") for line in lines) == 1
    bare.write_text(
        "\n".join(line for line in lines if not line.startswith("###")) + "\n", encoding="utf-8"
    )
    code, _, err = run(capsys, "import", str(bare), "--db", str(tmp_path / "bare.db"))
    assert code == 2 and "--lenient" in err
    code, _, err = run(capsys, "import", str(made), "--db", str(tmp_path / "made.db"))
    assert code == 0, err
