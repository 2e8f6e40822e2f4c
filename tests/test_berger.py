"""FIDE Berger tables (SPEC R-RR-5, R-RR-8; RULES.md §1.2).

Reference: ../shared/data/berger/berger_tables.json (FIDE C.05 Annex 1 for 4…16,
the same construction for 18…30) and the tables printed in seeds 000 and 004,
transcribed below word for word.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.errors import ScheduleError
from crosstable.core.model import Colour
from crosstable.core.schedule import (
    berger_opponent,
    berger_round,
    berger_table,
    rounds_per_cycle,
    table_size,
    verify_schedule,
)

REFERENCE_SIZES = list(range(4, 31, 2))


@pytest.fixture(scope="module")
def reference(data_dir: Path) -> dict[int, list[list[list[int]]]]:
    raw = json.loads((data_dir / "berger" / "berger_tables.json").read_text(encoding="utf-8"))
    return {int(size): rounds for size, rounds in raw.items()}


def boards(players: int) -> list[list[list[int]]]:
    return [[list(board) for board in r.boards] for r in berger_table(players).rounds]


def test_reference_file_has_every_even_size_4_to_30(reference: dict[int, object]) -> None:
    assert sorted(reference) == REFERENCE_SIZES


@pytest.mark.parametrize("size", REFERENCE_SIZES)
def test_even_table_is_the_reference_round_by_round_board_by_board(
    reference: dict[int, list[list[list[int]]]], size: int
) -> None:
    expected = reference[size]
    table = berger_table(size)
    assert table.players == size
    assert len(table.rounds) == size - 1 == len(expected)
    for number, (got, want) in enumerate(zip(table.rounds, expected, strict=True), start=1):
        assert got.number == number
        assert got.bye is None
        assert [list(board) for board in got.boards] == want, f"{size} players, round {number}"


@pytest.mark.parametrize("size", REFERENCE_SIZES)
def test_odd_table_is_the_next_even_table_without_the_highest_number(
    reference: dict[int, list[list[list[int]]]], size: int
) -> None:
    players = size - 1
    table = berger_table(players)
    assert len(table.rounds) == players
    for got, want in zip(table.rounds, reference[size], strict=True):
        ghost = [board for board in want if size in board]
        assert len(ghost) == 1 and want[0] == ghost[0], "board 1 is the game of the highest number"
        (opponent,) = [p for p in ghost[0] if p != size]
        assert got.bye == opponent
        assert [list(board) for board in got.boards] == want[1:]


@pytest.mark.parametrize("size", REFERENCE_SIZES)
def test_lookup_and_single_round_agree_with_the_reference(
    reference: dict[int, list[list[list[int]]]], size: int
) -> None:
    for players in (size, size - 1):
        for number, want in enumerate(reference[size], start=1):
            assert berger_round(players, number) == berger_table(players).rounds[number - 1]
            for white, black in want:
                if size in (white, black) and players < size:
                    free = black if white == size else white
                    assert berger_opponent(players, number, free) == (None, Colour.NONE)
                    continue
                assert berger_opponent(players, number, white) == (black, Colour.WHITE)
                assert berger_opponent(players, number, black) == (white, Colour.BLACK)


# --- the seeds' tables, transcribed word for word --------------------------------------

# seed 000_c798100e4c5e957a.txt, "Жеребьевка очереди игры в турнирах при … участниках"
SEED_000 = {
    4: "1 тур: 1 — (4), 2 — 3. 2 тур: (4) — 3, 1 — 2. 3 тур: 2 — (4) 3 — 1.",
    6: "1 тур: 1 — (6), 2 — 5, 3 — 4. 2 тур: (6) — 4, 5 — 3, 1 — 2. 3 тур: 2 — (6), 3 — 1, "
    "4 — 5. 4 тур: (6) — 5, 1 — 4, 2 — 3. 5 тур: 3 — (6), 4 — 2, 5 — 1",
    8: "1 тур: 1 — (8), 2 — 7, 3 — 6, 4 — 5. 2 тур: (8) — 5, 6 — 4, 7 — 3, 1 — 2. "
    "3 тур: 2 — (8), 3 — 1, 4 — 7, 5 — 6. 4 тур: (8) — 6, 7 — 5, 1 — 4, 2 — 3. "
    "5 тур: 3 — (8), 4 — 2, 5 — 1, 6 — 7. 6 тур: (8) — 7, 1 — 6, 2 — 5, 3 — 4. "
    "7 тур: 4 — (8), 5 — 3, 6 — 2, 7 — 1",
    10: "1 тур: 1 — (10), 2 — 9, 3 — 8, 4 — 7, 5 — 6. 2 тур: (10) — 6, 7 — 5, 8 — 4, 9 — 3, "
    "1 — 2. 3 тур: 2 — (10), 3 — 1, 4 — 9, 5 — 8, 6 — 7. 4 тур: (10) — 7, 8 — 6, 9 — 5, "
    "1 — 4, 2 — 3. 5 тур: 3 — (10), 4 — 2, 5 — 1, 6 — 9, 7 — 8. 6 тур: (10) — 8, 9 — 7, "
    "1 — 6, 2 — 5, 3 — 4. 7 тур: 4 — (10), 5 — 3, 6 — 2, 7 — 1, 8 — 9, 8 тур: (10) — 9, "
    "1 — 8, 2 — 7, 3 — 6, 4 — 5, 9 тур: 5 — (10), 6 — 4, 7 — 3, 8 — 2, 9 — 1.",
}

# seed 004_da7eb776f358ec10.txt, the two Berger tables ("Տուր / Զույգեր (սպիտակ–սև)")
SEED_004 = {
    6: """1	1–6	2–5	3–4
2	6–4	5–3	1–2
3	2–6	3–1	4–5
4	6–5	1–4	2–3
5	3–6	4–2	5–1""",
    8: """1	1–8	2–7	3–6	4–5
2	8–5	6–4	7–3	1–2
3	2–8	3–1	4–7	5–6
4	8–6	7–5	1–4	2–3
5	3–8	4–2	5–1	6–7
6	8–7	1–6	2–5	3–4
7	4–8	5–3	6–2	7–1""",
}

PAIR = re.compile(r"\(?(\d+)\)?\s*[—–-]\s*\(?(\d+)\)?")


def seed_000_rounds(text: str) -> list[list[list[int]]]:
    parts = re.split(r"(\d+) тур:", text)[1:]
    rounds = []
    for label, body in zip(parts[::2], parts[1::2], strict=True):
        assert int(label) == len(rounds) + 1
        rounds.append([[int(a), int(b)] for a, b in PAIR.findall(body)])
    return rounds


def seed_004_rounds(text: str) -> list[list[list[int]]]:
    rounds = []
    for line in text.splitlines():
        label, *pairs = line.split("\t")
        assert int(label) == len(rounds) + 1
        rounds.append([[int(a), int(b)] for a, b in (PAIR.fullmatch(p).groups() for p in pairs)])  # type: ignore[union-attr]
    return rounds


@pytest.mark.parametrize("size", sorted(SEED_000))
def test_seed_000_tables(size: int) -> None:
    expected = seed_000_rounds(SEED_000[size])
    assert len(expected) == size - 1
    assert boards(size) == expected
    # "при 3 или 4 участниках": for the odd field the bracketed number is the free round
    odd = berger_table(size - 1)
    for got, want in zip(odd.rounds, expected, strict=True):
        assert [list(b) for b in got.boards] == [p for p in want if size not in p]


@pytest.mark.parametrize("size", sorted(SEED_004))
def test_seed_004_tables(size: int) -> None:
    assert boards(size) == seed_004_rounds(SEED_004[size])


def test_seed_004_highest_number_alternates_black_white() -> None:
    # "8 has black, white, black, white, black, white, black: perfect alternation"
    colours = [berger_opponent(8, r, 8)[1] for r in range(1, 8)]
    assert colours == [Colour.BLACK, Colour.WHITE] * 3 + [Colour.BLACK]


# --- arithmetic and errors -------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "size", "rounds"), [(3, 4, 3), (4, 4, 3), (5, 6, 5), (16, 16, 15), (17, 18, 17)]
)
def test_rounds_per_cycle(players: int, size: int, rounds: int) -> None:
    assert table_size(players) == size
    assert rounds_per_cycle(players) == rounds
    assert len(berger_table(players).rounds) == rounds


@pytest.mark.parametrize("players", [-1, 0, 1, 2, True, 4.0, "6"])
def test_fewer_than_three_players_or_not_a_number_is_refused(players: object) -> None:
    with pytest.raises(ScheduleError):
        berger_table(players)  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "number", "player"), [(6, 0, 1), (6, 6, 1), (7, 8, 1)])
def test_round_out_of_range_is_refused(players: int, number: int, player: int) -> None:
    with pytest.raises(ScheduleError, match="does not exist"):
        berger_opponent(players, number, player)
    with pytest.raises(ScheduleError, match="does not exist"):
        berger_round(players, number)


@pytest.mark.parametrize(("players", "player"), [(6, 0), (6, 7), (7, 8)])
def test_player_out_of_range_is_refused(players: int, player: int) -> None:
    with pytest.raises(ScheduleError, match="starting number"):
        berger_opponent(players, 1, player)


# --- properties for any size (R-RR-1, R-RR-8) --------------------------------------------

sizes = st.integers(min_value=3, max_value=200)


@settings(max_examples=25, deadline=None)
@given(sizes)
def test_every_pair_once_and_the_colour_facts(players: int) -> None:
    table = berger_table(players)
    report = verify_schedule(table)
    assert report.ok, report.problems
    assert report.games == players * (players - 1) // 2
    pairs = Counter(frozenset(board) for r in table.rounds for board in r.boards)
    assert len(pairs) == players * (players - 1) // 2 and set(pairs.values()) == {1}
    assert report.runs == ()  # nobody three times running
    assert report.highest_alternates
    n = table_size(players)
    for count in report.colours:
        if players % 2:  # odd field: everyone balanced, one bye each
            assert (count.whites, count.blacks, count.byes) == (n // 2 - 1, n // 2 - 1, 1)
        else:  # even field: ±1; players 1…n/2 get n/2 Whites (RULES.md §1.2)
            whites = n // 2 if count.player <= n // 2 else n // 2 - 1
            assert (count.whites, count.blacks) == (whites, n - 1 - whites)


@settings(max_examples=200, deadline=None)
@given(sizes, st.data())
def test_lookup_agrees_with_the_built_round(players: int, data: st.DataObject) -> None:
    number = data.draw(st.integers(1, rounds_per_cycle(players)))
    round_ = berger_round(players, number)
    for white, black in round_.boards:
        assert berger_opponent(players, number, white) == (black, Colour.WHITE)
        assert berger_opponent(players, number, black) == (white, Colour.BLACK)
    if round_.bye is not None:
        assert berger_opponent(players, number, round_.bye) == (None, Colour.NONE)
    assert round_ == berger_table(players).rounds[number - 1]


def test_six_players_end_three_two_or_two_three() -> None:
    report = verify_schedule(berger_table(6))
    assert sorted((c.whites, c.blacks) for c in report.colours) == [(2, 3)] * 3 + [(3, 2)] * 3


def test_player_1_opens_with_two_whites_and_n_half_plus_1_with_two_blacks() -> None:
    for n in range(4, 31, 2):
        first_two = [berger_opponent(n, r, 1)[1] for r in (1, 2)]
        assert first_two == [Colour.WHITE, Colour.WHITE]
        first_two = [berger_opponent(n, r, n // 2 + 1)[1] for r in (1, 2)]
        assert first_two == [Colour.BLACK, Colour.BLACK]
