"""A round robin round paired by hand and the cycle completed around it (core)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.checker.findings import RoundVerdict
from crosstable.core.checker.hand_rounds import hand_rounds_from_comments, hand_verdicts
from crosstable.core.errors import RuleError
from crosstable.core.schedule import berger_schedule
from crosstable.core.schedule import hand_round as hand_round_module
from crosstable.core.schedule.hand_round import CycleRound, hand_round


def cycle(players: int, played: int = 0) -> tuple[CycleRound, ...]:
    return tuple(
        CycleRound(r.number, tuple(r.boards), r.bye, r.number <= played)
        for r in berger_schedule(players, 1).rounds
    )


def assert_complete(players: int, rounds: tuple[CycleRound, ...]) -> None:
    met: list[frozenset[int]] = []
    for r in rounds:
        seated = [s for b in r.boards for s in b] + ([r.bye] if r.bye is not None else [])
        assert sorted(seated) == list(range(1, players + 1))
        met += [frozenset(b) for b in r.boards]
    every = combinations(range(1, players + 1), 2)
    assert sorted(tuple(sorted(p)) for p in met) == sorted(every)


def test_r_b_1_q100_q101_a_hand_round_replans_the_cycle_so_every_pair_meets_once() -> None:
    before = cycle(6, played=1)
    assert before[0].boards == ((1, 6), (2, 5), (3, 4))
    after = hand_round(range(1, 7), before, 2, [(1, 2), (3, 5), (4, 6)])
    assert after[0] == before[0]
    assert after[1].boards == ((1, 2), (3, 5), (4, 6))
    assert_complete(6, after)
    # a pair that stays keeps its scheduled colours
    scheduled = {frozenset(b): b for r in before for b in r.boards}
    for r in after[2:]:
        for board in r.boards:
            assert board == scheduled[frozenset(board)]


def test_r_b_1_q101_a_rematch_of_a_played_round_is_refused() -> None:
    before = cycle(6, played=1)
    first = before[0].boards[0]
    others = [s for s in range(1, 7) if s not in first]
    with pytest.raises(RuleError, match="met in round 1"):
        hand_round(range(1, 7), before, 2, [first, (others[0], others[1]), (others[2], others[3])])


@pytest.mark.parametrize(
    ("boards", "bye", "said"),
    [
        ([(1, 2), (3, 4)], None, "player 5 is not given"),
        ([(1, 2), (3, 4), (5, 1)], None, "given twice"),
        ([(1, 2), (3, 4), (5, 9)], None, "not in this round robin"),
        ([(1, 1), (3, 4), (5, 6)], None, "themselves"),
        ([(1, 2), (3, 4), (5, 6)], 1, "given twice"),
    ],
)
def test_r_b_1_q100_a_round_that_does_not_seat_the_field_once_is_refused(
    boards: list[tuple[int, int]], bye: int | None, said: str
) -> None:
    with pytest.raises(RuleError, match=said):
        hand_round(range(1, 7), cycle(6), 1, boards, bye)


def test_r_b_1_q100_an_odd_field_gives_the_free_round_and_a_second_one_is_refused() -> None:
    before = cycle(5, played=1)
    had = before[0].bye
    assert had is not None
    rest = [s for s in range(1, 6) if s != had]
    with pytest.raises(RuleError, match="free round in round 1"):
        hand_round(range(1, 6), before, 2, [(rest[0], rest[1]), (rest[2], rest[3])], had)


def test_r_b_1_q100_a_played_round_cannot_be_paired_by_hand() -> None:
    with pytest.raises(RuleError, match="has begun"):
        hand_round(range(1, 5), cycle(4, played=1), 1, [(1, 2), (3, 4)])


def test_r_b_1_q101_a_round_the_table_cannot_be_completed_with_is_refused() -> None:
    # 4 players after round 1 (1-4, 2-3 in Berger): a round 2 of 1-3, 2-4 leaves 1-2 and 3-4
    before = cycle(4, played=1)
    after = hand_round(range(1, 5), before, 2, [(1, 3), (2, 4)])
    assert_complete(4, after)
    # two played rounds: the last round is forced; anything else cannot be completed
    two = cycle(6, played=3)
    last = [r for r in two if not r.played]
    bad = [b for b in last[0].boards[:1]] + [b for b in last[1].boards[1:]]
    with pytest.raises(RuleError):
        hand_round(range(1, 7), two, last[0].number, bad)


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 10), st.data())
def test_r_b_1_q101_after_any_accepted_hand_round_every_pair_meets_once(
    players: int, data: st.DataObject
) -> None:
    rounds = len(cycle(players))
    played = data.draw(st.integers(0, rounds - 1))
    before = cycle(players, played)
    number = data.draw(st.integers(played + 1, rounds))
    order = data.draw(st.permutations(list(range(1, players + 1))))
    bye = order[-1] if players % 2 else None
    seated = order[:-1] if players % 2 else order
    boards = [(seated[i], seated[i + 1]) for i in range(0, len(seated), 2)]
    kept = tuple(before)
    try:
        after = hand_round(range(1, players + 1), before, number, boards, bye)
    except RuleError:
        assert before == kept
        return
    assert_complete(players, after)
    assert [r for r in after if r.played] == [r for r in before if r.played]
    assert after[number - 1].boards == tuple(boards)


def test_r_b_1_q101_a_round_that_still_fits_is_kept_as_it_was() -> None:
    before = cycle(6, played=1)
    # round 3's pairs played in round 2: round 2's pairs move to round 3, 4 and 5 stay
    after = hand_round(range(1, 7), before, 2, [(1, 3), (2, 6), (4, 5)])
    assert after[2].boards == ((6, 4), (5, 3), (1, 2))  # with the scheduled colours
    assert after[3:] == before[3:]
    assert_complete(6, after)


def test_r_b_1_q100_the_free_round_goes_to_the_player_left_out() -> None:
    after = hand_round(range(1, 6), cycle(5), 1, [(1, 2), (3, 4)])
    assert after[0].bye == 5
    assert_complete(5, after)


def test_r_b_1_q101_the_check_reports_a_hand_round_that_repeats_a_pair_of_its_cycle() -> None:
    verdicts = [
        RoundVerdict(1, ((1, 2), (3, 4)), None, ((1, 2), (3, 4)), None),
        RoundVerdict(2, ((2, 1), (3, 4)), None, ((1, 3), (2, 4)), None),
        RoundVerdict(4, ((1, 2), (3, 4)), None, ((1, 2), (3, 4)), None),  # cycle 2
    ]
    rounds, notes = hand_verdicts(verdicts, frozenset({2, 4}), 3)
    assert [f.message for f in rounds[1].findings] == [
        "2-1 met in round 1 of this cycle already",
        "3-4 met in round 1 of this cycle already",
    ]
    assert rounds[2].agrees and rounds[2].expected is None  # a cycle counts apart
    assert rounds[0] == verdicts[0] and "paired by hand" in notes[0]
    assert hand_rounds_from_comments(["Pairing @ Round 4: round 4 paired by hand (1-2)"]) == {4}
    assert hand_rounds_from_comments(["Schedule: circle", "Pairing @ Round x: y"]) == set()


def test_r_b_1_q101_the_search_is_bounded_and_refuses_past_its_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = cycle(6, played=1)
    monkeypatch.setattr(hand_round_module, "STEP_LIMIT", 3)
    with pytest.raises(RuleError, match="the search gave up"):
        hand_round(range(1, 7), before, 2, [(1, 2), (3, 6), (4, 5)])


def completable(field: list[int], left: set[frozenset[int]], rounds: int) -> bool:
    """The definition, by brute force: ``left`` splits into ``rounds`` perfect matchings
    of ``field``."""
    if not left:
        return rounds == 0
    first = min(left, key=sorted)

    def matchings(free: list[int], chosen: set[frozenset[int]]):  # type: ignore[no-untyped-def]
        if not free:
            yield chosen
            return
        for other in free[1:]:
            pair = frozenset((free[0], other))
            if pair in left:
                rest = [v for v in free[1:] if v != other]
                yield from matchings(rest, chosen | {pair})

    return any(
        completable(field, left - m, rounds - 1)
        for m in matchings(field, set())
        if first in m and rounds > 0
    )


@settings(max_examples=80, deadline=None)
@given(st.integers(3, 8), st.data())
def test_r_b_1_q101_a_hand_round_is_refused_exactly_when_no_completion_exists(
    players: int, data: st.DataObject
) -> None:
    # the kept rounds and the rounds taken over are shortcuts before the search: whatever
    # they give is a completion, and they never refuse what the definition accepts
    rounds = len(cycle(players))
    played = data.draw(st.integers(0, rounds - 1))
    before = cycle(players, played)
    number = data.draw(st.integers(played + 1, rounds))
    order = data.draw(st.permutations(list(range(1, players + 1))))
    bye = order[-1] if players % 2 else None
    seated = order[:-1] if players % 2 else order
    boards = [(seated[i], seated[i + 1]) for i in range(0, len(seated), 2)]
    new = CycleRound(number, tuple(boards), bye).pairs()
    met = {pair for r in before if r.played for pair in r.pairs()}
    field = list(range(0 if players % 2 else 1, players + 1))
    every = {frozenset(p) for p in combinations(field, 2)}
    others = rounds - played - 1
    possible = not (new & met) and completable(field, every - met - new, others)
    try:
        after = hand_round(range(1, players + 1), before, number, boards, bye)
    except RuleError:
        assert not possible
        return
    assert possible
    assert_complete(players, after)
