"""The circle method (SPEC R-RR-6) and its colour allocation (docs/schedules.md)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.errors import ScheduleError
from crosstable.core.model import Colour
from crosstable.core.schedule import (
    circle_opponent,
    circle_round,
    circle_schedule,
    circle_table,
    verify_schedule,
)

# seed 004_da7eb776f358ec10.txt, "Վեց խաղացողի համար" (Tur / top row / bottom row / pairs)
SEED_004_WALK_THROUGH = """1	1 2 3	6 5 4	1–6, 2–5, 3–4
2	1 6 2	5 4 3	1–5, 6–4, 2–3
3	1 5 6	4 3 2	1–4, 5–3, 6–2
4	1 4 5	3 2 6	1–3, 4–2, 5–6
5	1 3 4	2 6 5	1–2, 3–6, 4–5"""


def walk_through() -> list[tuple[list[int], list[int], list[tuple[int, int]]]]:
    rows = []
    for number, line in enumerate(SEED_004_WALK_THROUGH.splitlines(), start=1):
        label, top, bottom, pairs = line.split("\t")
        assert int(label) == number
        listed = [tuple(map(int, p.split("–"))) for p in pairs.split(", ")]
        rows.append(([*map(int, top.split())], [*map(int, bottom.split())], listed))  # type: ignore[misc]
    return rows


def test_six_players_reproduce_the_seed_walk_through_board_by_board() -> None:
    table = circle_table(6)
    assert len(table.rounds) == 5
    for got, (top, bottom, pairs) in zip(table.rounds, walk_through(), strict=True):
        # each column of the seed is a board, in the seed's order
        assert [tuple(zip(top, bottom, strict=True))] == [tuple(pairs)]
        assert [frozenset(b) for b in got.boards] == [frozenset(p) for p in pairs]
        assert got.bye is None


def test_seed_rotation_one_fixed_the_rest_move_one_place() -> None:
    rows = walk_through()
    for (top, bottom, _), (next_top, next_bottom, _) in itertools.pairwise(rows):
        ring = top[1:] + bottom[::-1]
        next_ring = next_top[1:] + next_bottom[::-1]
        assert top[0] == next_top[0] == 1
        assert next_ring == [ring[-1], *ring[:-1]]


def test_colours_for_six_players() -> None:
    rounds = [r.boards for r in circle_table(6).rounds]
    assert rounds == [
        ((1, 6), (5, 2), (3, 4)),
        ((5, 1), (4, 6), (2, 3)),
        ((1, 4), (3, 5), (6, 2)),
        ((3, 1), (2, 4), (5, 6)),
        ((1, 2), (6, 3), (4, 5)),
    ]


def test_odd_field_ghost_gives_the_bye() -> None:
    # seven players: number 8 is the ghost; whoever sits opposite it has the free round
    table = circle_table(7)
    assert len(table.rounds) == 7
    even = circle_table(8)
    for got, full in zip(table.rounds, even.rounds, strict=True):
        pairs = [frozenset(b) for b in full.boards]
        (ghost_pair,) = [p for p in pairs if 8 in p]
        assert {got.bye} == ghost_pair - {8}
        assert [frozenset(b) for b in got.boards] == [p for p in pairs if 8 not in p]
    assert Counter(r.bye for r in table.rounds) == Counter(range(1, 8))


def fixed_player_colours(players: int) -> list[Colour]:
    colours = []
    for number in range(1, len(circle_table(players).rounds) + 1):
        colour = circle_opponent(players, number, 1)[1]
        if colour is not Colour.NONE:
            colours.append(colour)
    return colours


def check_allocation(players: int) -> None:
    report = verify_schedule(circle_table(players))
    assert report.ok, report.problems[:3]
    assert report.runs == ()  # never three of one colour in a row
    assert 1 in report.alternating  # the fixed player alternates
    for count in report.colours:
        if players % 2:
            assert count.whites == count.blacks and count.byes == 1
        else:
            assert abs(count.balance) == 1


@pytest.mark.parametrize("players", range(3, 101))
def test_allocation_facts_for_every_size_up_to_100(players: int) -> None:
    check_allocation(players)


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=101, max_value=300))
def test_allocation_facts_for_larger_sizes(players: int) -> None:
    check_allocation(players)


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=3, max_value=400), st.data())
def test_lookup_agrees_with_the_built_round(players: int, data: st.DataObject) -> None:
    rounds = players if players % 2 else players - 1
    number = data.draw(st.integers(1, rounds))
    round_ = circle_round(players, number)
    for white, black in round_.boards:
        assert circle_opponent(players, number, white) == (black, Colour.WHITE)
        assert circle_opponent(players, number, black) == (white, Colour.BLACK)
    if round_.bye is not None:
        assert circle_opponent(players, number, round_.bye) == (None, Colour.NONE)
    seen = [p for b in round_.boards for p in b] + ([round_.bye] if round_.bye else [])
    assert sorted(seen) == list(range(1, players + 1))


@pytest.mark.parametrize("players", [4, 6, 10, 16, 30])
def test_player_1_white_in_odd_rounds_for_an_even_field(players: int) -> None:
    colours = fixed_player_colours(players)
    assert colours == [Colour.WHITE, Colour.BLACK] * (players // 2 - 1) + [Colour.WHITE]


@pytest.mark.parametrize("players", range(4, 61, 2))
def test_even_double_with_exchange_has_no_run(players: int) -> None:
    assert verify_schedule(circle_schedule(players, cycles=2)).ok


@pytest.mark.parametrize("players", [5, 7, 9, 11])
def test_odd_double_junction_runs_are_reported(players: int) -> None:
    # the circle allocation of an odd field does not alternate everyone perfectly, so a
    # second cycle with reversed colours makes runs of three; verification says so.
    # docs/schedules.md recommends the Berger table for double round robins.
    report = verify_schedule(circle_schedule(players, cycles=2))
    assert any(p.kind == "colour-run" for p in report.problems)


@pytest.mark.parametrize(("players", "number"), [(6, 0), (6, 6), (7, 8), (2, 1)])
def test_bad_round_or_field_is_refused(players: int, number: int) -> None:
    with pytest.raises(ScheduleError):
        circle_round(players, number)


def test_bad_player_is_refused() -> None:
    with pytest.raises(ScheduleError, match="starting number"):
        circle_opponent(7, 1, 8)
