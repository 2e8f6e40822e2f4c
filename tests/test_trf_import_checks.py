"""A tournament report that says something impossible is refused with its line and
column; a Swiss round that breaks the Dutch system's absolute rules is read with a
warning naming the round (FIDE checklist: files outside programs read; Q47–56)."""

from __future__ import annotations

import pytest

from crosstable.core.errors import InputError
from crosstable.core.model import Outcome
from crosstable.formats.trf_read import parse_trf
from crosstable.formats.trf_write import write_trf
from tests.conftest import DATA as SHARED

DATA = SHARED / "swiss-dutch"
CLEAN = (DATA / "p01_n007_r05_clean.trf").read_text(encoding="utf-8").splitlines()


def player_line(start: int, rounds: list[str], *, rank: int | str = "", extra: str = "") -> str:
    """A ``001`` line: ``rounds`` are the 8-character blocks after the blank."""
    text = f"001 {start:4d}      {'Player ' + str(start):<33}{1500 + start:4d}"
    text = text.ljust(53) + extra.ljust(27)
    text = text.ljust(80) + f"{'':>4} {rank!s:>4}"
    return text + "".join(f"  {block}" for block in rounds)


def swiss(lines: list[str], rounds: int) -> str:
    return "\n".join(["012 Probe", *lines, "092 FIDE_DUTCH_2025", f"XXR {rounds}"]) + "\n"


def replace_columns(line: str, first: int, text: str) -> str:
    """``line`` with ``text`` written from column ``first`` (1-based)."""
    return line[: first - 1] + text + line[first - 1 + len(text) :]


def test_the_reference_file_reads_without_a_warning() -> None:
    assert parse_trf("\n".join(CLEAN) + "\n").warnings == ()


def test_two_players_with_one_rank_are_refused_with_line_and_column() -> None:
    lines = list(CLEAN)
    lines[1] = replace_columns(lines[1], 86, "   1")  # player 1 ranked 1 like player 2
    with pytest.raises(InputError) as refused:
        parse_trf("\n".join(lines) + "\n", "ranks.trf")
    assert refused.value.line == 3 and refused.value.column == 86
    assert "player 2 has rank 1, as player 1 has" in str(refused.value)
    lenient = parse_trf("\n".join(lines) + "\n", lenient=True)
    assert any("rank 1" in warning for warning in lenient.warnings)


@pytest.mark.parametrize("date", ["2020/13/45", "2021/02/29", "20/1/1", "born 1990"])
def test_a_birth_date_that_is_no_date_is_kept_with_a_warning(date: str) -> None:
    lines = list(CLEAN)
    lines[1] = replace_columns(lines[1], 70, f"{date:<10}")
    document = parse_trf("\n".join(lines) + "\n", "birth.trf")
    assert document.tournament.players[0].birth_date == date
    assert document.warnings == (
        f"line 2: birth date {date!r} in columns 70–79 is not a date (YYYY/MM/DD): kept as written",
    )


@pytest.mark.parametrize(
    "date",
    [
        "1990/05/17",
        "1990",
        "1990/00/00",
        "2020/02/29",
        "1990.05.17",
        "    .  .",
        "/  /",
        "1975.  .",
    ],
)
def test_birth_dates_as_programs_write_them_are_read_without_a_warning(date: str) -> None:
    lines = list(CLEAN)
    lines[1] = replace_columns(lines[1], 70, f"{date:<10}")
    document = parse_trf("\n".join(lines) + "\n")
    assert document.tournament.players[0].birth_date == date.strip()
    assert document.warnings == ()


@pytest.mark.parametrize("federation", ["rus", "R1S", "?x?"])
def test_a_federation_that_is_no_fide_code_is_kept_with_a_warning(federation: str) -> None:
    lines = list(CLEAN)
    lines[1] = replace_columns(lines[1], 54, federation)
    document = parse_trf("\n".join(lines) + "\n")
    assert document.tournament.players[0].federation == federation
    assert document.warnings == (
        f"line 2: federation {federation!r} in columns 54–56 is not a FIDE code "
        "(three capital letters): kept as written",
    )


def test_more_rounds_played_than_declared_are_refused_at_the_declaration() -> None:
    lines = [line if not line.startswith("XXR") else "XXR 4" for line in CLEAN]
    with pytest.raises(InputError) as refused:
        parse_trf("\n".join(lines) + "\n", "rounds.trf")
    assert refused.value.line == 10
    assert "declares 4 rounds but the players' lines hold round 5" in str(refused.value)


def test_two_pairing_allocated_byes_in_one_round_are_refused() -> None:
    text = swiss(
        [
            player_line(1, ["   2 w 1"]),
            player_line(2, ["   1 b 0"]),
            player_line(3, ["0000 - U"]),
            player_line(4, ["0000 - U"]),
        ],
        3,
    )
    with pytest.raises(InputError) as refused:
        parse_trf(text, "byes.trf")
    assert refused.value.line == 5 and refused.value.column == 92
    assert "round 1: player 4 has a pairing-allocated bye, as player 3 has" in str(refused.value)


def test_a_second_pairing_allocated_bye_is_read_with_a_warning() -> None:
    text = swiss(
        [
            player_line(1, ["   2 w 1", "   3 w 1"]),
            player_line(2, ["   1 b 0", "0000 - U"]),
            player_line(3, ["0000 - U", "   1 b 0"]),
        ],
        2,
    )
    assert parse_trf(text).warnings == ()
    again = swiss(
        [
            player_line(1, ["   2 w 1", "   2 b 1"]),
            player_line(2, ["   1 b 0", "   1 w 0"]),
            player_line(3, ["0000 - U", "0000 - U"]),
        ],
        2,
    )
    warnings = parse_trf(again).warnings
    assert any("round 2: player 3 gets a second pairing-allocated bye" in w for w in warnings)
    assert any(
        "round 2: players 2 and 1 meet again (they played in round 1)" in w for w in warnings
    )


def test_a_pairing_allocated_bye_after_a_forfeit_win_is_read_with_a_warning() -> None:
    text = swiss(
        [
            player_line(1, ["   2 w +", "   3 w 1"]),
            player_line(2, ["   1 b -", "0000 - U"]),
            player_line(3, ["0000 - U", "   1 b 0"]),
        ],
        2,
    )
    assert parse_trf(text).warnings == ()
    text = swiss(
        [
            player_line(1, ["   2 w +", "0000 - U"]),
            player_line(2, ["   1 b -", "   3 w 1"]),
            player_line(3, ["0000 - U", "   2 b 0"]),
        ],
        2,
    )
    warnings = parse_trf(text).warnings
    assert any(
        "round 2: player 1 gets a pairing-allocated bye after a forfeit win" in w for w in warnings
    )


def test_a_forfeited_game_may_be_paired_again_and_a_round_robin_meets_each_cycle() -> None:
    forfeited_then_played = swiss(
        [
            player_line(1, ["   2 w +", "   2 b 1"]),
            player_line(2, ["   1 b -", "   1 w 0"]),
        ],
        2,
    )
    assert not any("meet again" in w for w in parse_trf(forfeited_then_played).warnings)
    double = (
        forfeited_then_played.replace("FIDE_DUTCH_2025", "Double round robin")
        .replace(" +", " 1")
        .replace(" -", " 0")
    )
    assert not any("meet again" in w for w in parse_trf(double).warnings)


def test_an_adjourned_game_is_read_from_the_trf_2026_code_and_written_back_as_it() -> None:
    text = swiss(
        [
            player_line(1, ["   2 w 1", "   3 b ?"]),
            player_line(2, ["   1 b 0", "0000 - U"]),
            player_line(3, ["0000 - U", "   1 w ?"]),
        ],
        2,
    )
    document = parse_trf(text)
    game = document.tournament.rounds[1].games[0]
    assert (game.result.white, game.result.black) == (Outcome.UNKNOWN, Outcome.UNKNOWN)
    assert document.warnings == ()
    written = write_trf(document)
    assert "   3 b ?" in written and "   1 w ?" in written
    assert parse_trf(written) == document
    assert "   3 b *" in write_trf(document, "trf16")  # TRF-16 has no code for it


def test_a_result_symbol_no_edition_defines_is_read_as_not_known_yet_with_a_warning() -> None:
    text = swiss([player_line(1, ["   2 w !"]), player_line(2, ["   1 b !"])], 1)
    document = parse_trf(text)
    game = document.tournament.rounds[0].games[0]
    assert game.result is not None and game.result.white is Outcome.UNKNOWN
    assert document.warnings[0] == (
        "line 2: round 1: result '!' in column 99 is not a TRF result code: "
        "read as a result not known yet (?)"
    )


def test_a_result_without_an_opponent_that_is_no_code_is_still_refused() -> None:
    with pytest.raises(InputError) as refused:
        parse_trf(swiss([player_line(1, ["     - !"]), player_line(2, ["        "])], 1))
    assert refused.value.column == 99


def test_rank_zero_ranks_nobody() -> None:
    lines = list(CLEAN)
    lines[1] = replace_columns(lines[1], 86, "   0")
    lines[2] = replace_columns(lines[2], 86, "   0")
    assert parse_trf("\n".join(lines) + "\n").warnings == ()
