"""Impossible data in an imported TRF is refused with file, line and column: a player paired
twice in one round, results that disagree between the two players' lines, a points
column that does not match the results under the file's points table; a TRF-06 file (no
XX records) reads with every assumption said (FIDE checklist Q47–53)."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import pytest

from crosstable.core.errors import InputError
from crosstable.formats.trf_read import parse_trf
from crosstable.service import Service
from crosstable.service.trf_import import check_trf_import, import_notes, import_trf
from tests.test_service_support import db_url, service, store  # noqa: F401
from tests.test_trf_import_recheck import SWISS

LINES = SWISS.splitlines()


def with_line(start: int, old: str, new: str) -> str:
    """SWISS with ``old`` replaced by ``new`` on player ``start``'s line (line start + 1)."""
    lines = list(LINES)
    assert old in lines[start], (lines[start], old)
    lines[start] = lines[start].replace(old, new, 1)
    return "\n".join(lines) + "\n"


def refused(text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        parse_trf(text, "bad.trf")
    return caught.value


def test_a_player_paired_twice_in_a_round_is_refused_at_the_entry() -> None:
    # player 2's round 1 names player 4, who already plays player 1
    error = refused(with_line(2, "    5 w 1", "    4 w 1"))
    assert (error.source, error.line, error.column) == ("bad.trf", 3, 92)
    assert "player 4 would be paired twice: with player 2 here and with player 1 (line 2)" in str(
        error
    )


def test_results_that_disagree_between_the_two_lines_are_refused() -> None:
    error = refused(with_line(4, "    1 w 0", "    1 w 1"))  # both players won
    assert (error.line, error.column) == (2, 99)
    assert "results do not match: player 1 has '1', player 4 has '1'" in str(error)
    assert "more than one game is worth" in str(error)


def test_a_points_column_against_the_files_points_table_is_refused() -> None:
    three = SWISS.replace("092 FIDE_DUTCH_2025\n", "092 FIDE_DUTCH_2025\n162 W 3.0 D 1.0 L 0.0\n")
    error = refused(three)
    assert (error.line, error.column) == (2, 81)
    assert "the points column (81–84) says 4, the games give 12 (scoring 3-1-0)" in str(error)
    lenient = parse_trf(three, lenient=True)
    assert lenient.file_points[1] == 12 and any("games' score" in w for w in lenient.warnings)


def test_r_or_5_a_trf_06_file_reads_with_each_assumption_said_and_imports(
    service: Service,
) -> None:
    bare = "\n".join(line for line in LINES if line[:3] not in ("092", "XXR", "XXC")) + "\n"
    doc = parse_trf(bare, "old.trf")
    said = " | ".join(doc.warnings)
    assert "names no system: read as dutch from the games" in said
    assert "does not say its number of rounds (no XXR or 142): 5" in said
    assert import_notes(doc) == [
        "no initial colour (152 or XXC): black for player 1, as round 1 shows, "
        "is what the rounds are re-checked with",
        "the file declares no tie-break order (202 or 212): its places are not re-checked",
    ]
    assert check_trf_import(doc).warnings == ()  # re-paired with that colour: clean
    change = import_trf(service, doc, source="old.trf")
    assert service.tournament(change.tournament_id).settings.rounds == 5
