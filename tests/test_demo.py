"""`crosstable demo`: the shipped example prints its Berger schedule, results and crosstable."""

from __future__ import annotations

from pathlib import Path

import pytest

from crosstable.cli import main
from crosstable.cli.demo import example_text
from crosstable.core.schedule import berger_table
from crosstable.core.standings import compute_standings
from crosstable.formats.trf import parse_trf, write_trf


def test_example_follows_the_berger_table_for_six() -> None:
    tournament = parse_trf(example_text(), source="club_rr6.trf").tournament
    table = berger_table(6)
    for scheduled, played in zip(table.rounds, tournament.rounds, strict=True):
        # TRF carries no board numbers: a round robin's games take the Berger boards
        assert [(g.white, g.black) for g in played.games] == list(scheduled.boards)
        assert [g.board for g in played.games] == list(range(1, len(scheduled.boards) + 1))


def test_example_is_seed_003s_table() -> None:
    """Seed 003: scores 4, 2½, 2½, 2½, 2, 1½ and SB 9, 6½, 5¼, 4¾, 4, 4½ (R-RR-11)."""
    tournament = parse_trf(example_text(), source="club_rr6.trf").tournament
    standings = compute_standings(tournament, "SB")
    by_start = {row.start: row for row in standings.rows}
    assert [float(by_start[s].points) for s in range(1, 7)] == [4, 2.5, 2.5, 2.5, 2, 1.5]
    assert [float(by_start[s].values[0]) for s in range(1, 7)] == [9, 6.5, 5.25, 4.75, 4, 4.5]


def test_example_is_written_by_our_own_writer() -> None:
    """Files we write come back byte for byte."""
    text = example_text()
    assert write_trf(parse_trf(text, source="club_rr6.trf")) == text


def test_demo_prints_schedule_and_crosstable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--no-serve"]) == 0
    out = capsys.readouterr().out
    assert "Round 5" in out
    assert "1 Григорьев, Павел   —  6 Крылов, Иван       ½-½" in out
    assert "2.5 + 0.5 × (4 + 1.5 + 2.5) = 6.5" in out
    crosstable = out[out.index("No  Name") :].splitlines()
    assert crosstable[1].split()[-1] == "1"  # Григорьев first
    assert "direct encounter" in out


def test_demo_database_is_fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from crosstable.cli.demo import _demo_database

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    first = _demo_database(None)
    Path(first).write_text("old")
    assert _demo_database(None) == first
    assert not Path(first).exists()
