"""Verification of schedules entered by hand (SPEC R-RR-6, R-RR-8)."""

from __future__ import annotations

import pytest

from crosstable.core.errors import ScheduleError
from crosstable.core.model import Colour
from crosstable.core.schedule import (
    Schedule,
    ScheduledRound,
    berger_schedule,
    verify_schedule,
)
from crosstable.core.schedule.verify import LIMIT_PER_KIND


def by_hand(players: int, *rounds: str) -> Schedule:
    """``"1-6 2-5 3-4"`` per round, optional ``/7`` for the bye."""
    built = []
    for number, text in enumerate(rounds, start=1):
        games, _, bye = text.partition("/")
        boards = tuple(tuple(map(int, pair.split("-"))) for pair in games.split())
        built.append(ScheduledRound(number, boards, int(bye) if bye else None))  # type: ignore[arg-type]
    return Schedule(players, tuple(built))


SIX = ("1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1")


def kinds(schedule: Schedule) -> list[str]:
    return [p.kind for p in verify_schedule(schedule).problems]


def test_the_fide_six_table_by_hand_is_sound() -> None:
    report = verify_schedule(by_hand(6, *SIX))
    assert report.ok
    assert (report.rounds, report.cycles, report.rounds_per_cycle, report.games) == (5, 1, 5, 15)
    assert report.alternating == (3, 6)  # 3: W B W B W; 6: B W B W B
    assert report.highest_alternates
    assert [(c.whites, c.blacks) for c in report.colours] == [
        (3, 2),
        (3, 2),
        (3, 2),
        (2, 3),
        (2, 3),
        (2, 3),
    ]


def test_odd_field_bye_may_be_left_out_or_given() -> None:
    given = by_hand(3, "2-3/1", "1-2/3", "3-1/2")
    left_out = by_hand(3, "2-3", "1-2", "3-1")
    for schedule in (given, left_out):
        report = verify_schedule(schedule)
        assert report.ok
        assert [c.byes for c in report.colours] == [1, 1, 1]


def test_repeated_and_missing_pairs() -> None:
    schedule = by_hand(4, "1-4 2-3", "4-3 1-2", "1-4 3-2")
    report = verify_schedule(schedule)
    messages = [p.message for p in report.problems]
    assert "cycle 1: 1 and 4 meet 2 times (rounds 1, 3)" in messages
    assert "cycle 1: 2 and 3 meet 2 times (rounds 1, 3)" in messages
    assert "cycle 1: 1 and 3 never meet" in messages
    assert "cycle 1: 2 and 4 never meet" in messages
    repeated = [p for p in report.problems if p.kind == "pair-repeated"]
    assert repeated[0].players == (1, 4) and repeated[0].round == 1


def test_nobody_twice_in_a_round_and_nobody_missing() -> None:
    schedule = by_hand(4, "1-4 1-3", "4-3 1-2", "2-4 3-1")
    report = verify_schedule(schedule)
    problems = {(p.kind, p.round, p.players) for p in report.problems}
    assert ("twice-in-round", 1, (1,)) in problems
    assert ("missing", 1, (2,)) in problems


def test_numbers_outside_the_field_and_self_pairing() -> None:
    assert "player-number" in kinds(by_hand(4, "1-5 2-3", "4-3 1-2", "2-4 3-1"))
    assert "player-number" in kinds(by_hand(4, "1-0 2-3", "4-3 1-2", "2-4 3-1"))
    assert "twice-in-round" in kinds(by_hand(4, "1-1 2-3", "4-3 1-2", "2-4 3-1"))
    bad_bye = by_hand(5, "2-5 3-4/9", "5-3 1-2/4", "3-1 4-5/2", "1-4 2-3/5", "4-2 5-1/3")
    assert "player-number" in kinds(bad_bye)


def test_bye_rules() -> None:
    assert "bye" in kinds(by_hand(4, "1-4 2-3/1", "4-3 1-2", "2-4 3-1"))
    # the declared bye plays: twice in the round, and 1 has neither game nor bye
    wrong = by_hand(5, "2-5 3-4/2", "5-3 1-2/4", "3-1 4-5/2", "1-4 2-3/5", "4-2 5-1/3")
    problems = {(p.kind, p.players) for p in verify_schedule(wrong).problems}
    assert ("twice-in-round", (2,)) in problems and ("missing", (1,)) in problems


def test_rounds_not_a_whole_cycle() -> None:
    report = verify_schedule(by_hand(6, *SIX[:4]))
    assert report.problems[0].kind == "rounds"
    assert report.problems[0].message == (
        "4 rounds is not a whole number of cycles: 6 players play 5 rounds a cycle"
    )
    assert "pair-missing" in {p.kind for p in report.problems}


def test_three_in_a_row_is_reported_with_player_and_rounds() -> None:
    # 1 gets White in rounds 1-3, 3 gets Black in rounds 1-3
    report = verify_schedule(by_hand(4, "1-4 2-3", "4-3 1-2", "2-4 1-3"))
    runs = [(r.player, r.colour, r.first, r.last, r.length) for r in report.runs]
    assert runs == [(1, Colour.WHITE, 1, 3, 3), (3, Colour.BLACK, 1, 3, 3)]
    messages = [p.message for p in report.problems if p.kind == "colour-run"]
    assert messages == [
        "player 1 has White 3 times running, rounds 1–3",
        "player 3 has Black 3 times running, rounds 1–3",
    ]
    balance = [p.message for p in report.problems if p.kind == "colour-balance"]
    assert balance == [
        "player 1 has 3 more Whites than Blacks in cycle 1",
        "player 3 has 3 more Blacks than Whites in cycle 1",
    ]


def test_byes_do_not_break_a_run() -> None:
    # 5 players: player 1 plays White, has the bye, then White twice
    rounds = ("1-4 2-3/5", "5-2 3-4/1", "1-3 4-5/2", "1-5 2-4/3", "2-1 3-5/4")
    report = verify_schedule(by_hand(5, *rounds))
    first = report.runs[0]
    assert (first.player, first.first, first.last, first.length) == (1, 1, 4, 3)


def test_whole_schedule_balance_over_cycles() -> None:
    # the same single table twice (colours not reversed): everyone is off by 2 overall
    once = by_hand(6, *SIX)
    twice = Schedule(
        6, once.rounds + tuple(ScheduledRound(r.number + 5, r.boards) for r in once.rounds)
    )
    messages = [p.message for p in verify_schedule(twice).problems if p.kind == "colour-balance"]
    assert "player 1 has 6 Whites and 4 Blacks over the schedule" in messages


def test_problem_list_is_capped_per_kind() -> None:
    players = 40
    empty = Schedule(players, tuple(ScheduledRound(n, ((1, 2),)) for n in range(1, players)))
    report = verify_schedule(empty)
    counted = [p for p in report.problems if p.kind == "missing"]
    assert len(counted) == LIMIT_PER_KIND
    assert any(p.kind == "more" and "of kind missing" in p.message for p in report.problems)


def test_pivot_must_alternate() -> None:
    assert verify_schedule(by_hand(6, *SIX), pivot=6).ok
    report = verify_schedule(by_hand(6, *SIX), pivot=1)
    assert [p.kind for p in report.problems] == ["not-alternating"]


def test_double_schedule_report() -> None:
    report = verify_schedule(berger_schedule(6, cycles=2))
    assert report.ok and report.cycles == 2 and report.games == 30
    assert all(c.whites == c.blacks == 5 for c in report.colours)
    data = report.to_json()
    assert data["ok"] is True and data["cycles"] == 2 and data["problems"] == []
    assert data["colours"][0] == {"player": 1, "whites": 5, "blacks": 5, "byes": 0}  # type: ignore[index]


def test_not_a_field_is_refused() -> None:
    with pytest.raises(ScheduleError):
        verify_schedule(Schedule(1, ()))
