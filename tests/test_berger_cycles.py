"""Double and multiple round robins (SPEC R-RR-7, RULES.md §1.3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.errors import ScheduleError
from crosstable.core.schedule import (
    berger_schedule,
    berger_table,
    circle_table,
    repeat_cycles,
    verify_schedule,
)


def flipped(boards: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    return tuple((black, white) for white, black in boards)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 9, 10, 17, 30])
def test_double_round_robin_shape(players: int) -> None:
    single = berger_table(players).rounds
    count = len(single)
    double = berger_schedule(players, cycles=2).rounds
    assert [r.number for r in double] == list(range(1, 2 * count + 1))
    assert [r.cycle for r in double] == [1] * count + [2] * count
    # cycle 1: the table with its last two rounds exchanged, colours as printed
    order = [*range(count - 2), count - 1, count - 2]
    assert [(r.boards, r.bye) for r in double[:count]] == [
        (single[i].boards, single[i].bye) for i in order
    ]
    # cycle 2: FIDE round order, every colour reversed, same byes
    assert [(r.boards, r.bye) for r in double[count:]] == [
        (flipped(r.boards), r.bye) for r in single
    ]


def test_no_swap_keeps_the_fide_order_in_cycle_1() -> None:
    single = berger_table(8).rounds
    double = berger_schedule(8, cycles=2, swap_last_rounds=False).rounds
    assert [r.boards for r in double[:7]] == [r.boards for r in single]


def test_more_cycles_repeat_the_pattern() -> None:
    players = 6
    double = berger_schedule(players, cycles=2).rounds
    four = berger_schedule(players, cycles=4).rounds
    assert len(four) == 20
    assert [r.number for r in four] == list(range(1, 21))
    assert [r.cycle for r in four] == [c for c in (1, 2, 3, 4) for _ in range(5)]
    assert [r.boards for r in four[10:]] == [r.boards for r in double]


def test_one_cycle_is_the_table_itself() -> None:
    assert berger_schedule(7) == berger_table(7)
    assert berger_schedule(7, swap_last_rounds=False) == berger_table(7)


@pytest.mark.parametrize("cycles", [0, -1, True, 1.5])
def test_bad_number_of_cycles_is_refused(cycles: object) -> None:
    with pytest.raises(ScheduleError, match="cycles"):
        berger_schedule(6, cycles=cycles)  # type: ignore[arg-type]


def test_only_a_single_cycle_can_be_repeated() -> None:
    with pytest.raises(ScheduleError, match="one cycle"):
        repeat_cycles(berger_schedule(6, cycles=2))


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=3, max_value=200))
def test_double_with_the_exchange_has_no_run_of_three(players: int) -> None:
    report = verify_schedule(berger_schedule(players, cycles=2))
    assert report.ok, report.problems
    assert report.runs == ()
    assert report.games == players * (players - 1)
    assert all(c.whites == c.blacks for c in report.colours)  # a double evens everyone out
    plain = verify_schedule(berger_schedule(players, cycles=2, swap_last_rounds=False))
    expected = [] if players % 2 else [1, players // 2 + 1]
    assert sorted(r.player for r in plain.runs) == expected


@pytest.mark.parametrize("players", range(3, 31))
def test_double_exchange_facts_for_every_size_3_to_30(players: int) -> None:
    assert verify_schedule(berger_schedule(players, cycles=2)).runs == ()
    runs = verify_schedule(berger_schedule(players, cycles=2, swap_last_rounds=False)).runs
    if players % 2:
        assert runs == ()  # an odd field alternates perfectly over the games played
    else:
        # without the exchange players 1 and n/2+1 get three in a row at the junction
        assert sorted(r.player for r in runs) == [1, players // 2 + 1]
        count = players - 1
        assert all(r.length == 3 and r.cycles == (1, 2) for r in runs)
        assert all(r.first == count and r.last == count + 2 for r in runs)


@pytest.mark.parametrize("players", [6, 8, 12, 20])
def test_third_cycle_junction_run_is_reported_not_hidden(players: int) -> None:
    # cycle 2 ends with the reversed last round, cycle 3 opens like cycle 1: player 1
    # (two Whites in rounds 1-2) and n/2+1 (two Blacks) get three in a row. With four
    # players the exchange reaches round 2 and the run does not happen.
    report = verify_schedule(berger_schedule(players, cycles=3))
    junction = 2 * (players - 1)
    runs = [(r.player, r.first, r.length, r.cycles) for r in report.runs]
    assert runs == [
        (1, junction, 3, (2, 3)),
        (players // 2 + 1, junction, 3, (2, 3)),
    ]
    assert not report.ok
    assert {p.kind for p in report.problems} == {"colour-run"}


def test_four_players_three_cycles_have_no_run() -> None:
    assert verify_schedule(berger_schedule(4, cycles=3)).ok


def test_circle_schedule_cycles_use_the_same_rule() -> None:
    single = circle_table(6).rounds
    double = repeat_cycles(circle_table(6), 2).rounds
    assert [r.boards for r in double[5:]] == [flipped(r.boards) for r in single]
