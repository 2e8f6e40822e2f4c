"""S1/S2 choices at once even when the criteria are wider than int64.

With thousands of players and many half-point byes the criteria of a
bracket's S1/S2 pairs span more than 60 bits, and the one-shot choice
(``assignment.first_optimal_assignment``) used to give up: every S1 player
then cost a matching of the whole bracket. The criteria are now cut at field
boundaries into levels compared in order (``first_optimal_by_levels``). Here
the levels are checked against one wide weight by brute force, and narrow
levels forced on every bracket must pair as one level does.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.bench_dutch_shapes import ROUNDS, greedy_event
from crosstable.core.pairing.dutch import pair_round, remainder, request_for
from crosstable.core.pairing.dutch.assignment import (
    first_optimal_assignment,
    first_optimal_by_levels,
)
from crosstable.core.pairing.dutch.matching import NoValidPairingError

SHAPES = {
    "plain": {},
    "byes": {"half_bye": 0.08, "absence": 0.08, "forfeit": 0.08},
    "withdrawn": {"withdraw": 0.05},
}


@st.composite
def layered(draw: st.DrawFn) -> tuple[list[np.ndarray[Any, Any]], np.ndarray[Any, Any], int]:
    """Two or three levels of small weights, an edge mask and the rows to settle."""
    size = draw(st.integers(1, 6))
    count = draw(st.integers(2, 3))
    levels = [
        np.array(
            [[draw(st.integers(-3, 3)) for _ in range(size)] for _ in range(size)], dtype=np.int64
        )
        for _ in range(count)
    ]
    edge = np.array(
        [[draw(st.booleans()) or r == c for c in range(size)] for r in range(size)], dtype=np.bool_
    )
    settle = draw(st.integers(0, size))
    for level in levels:
        level[settle:] = 0  # floater slots: anyone, weight 0
    edge[settle:] = True
    return levels, edge, settle


def _optimum(weight: np.ndarray[Any, Any], edge: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    size = len(weight)
    found = max(
        (p for p in permutations(range(size)) if all(edge[r][p[r]] for r in range(size))),
        key=lambda p: (sum(int(weight[r][p[r]]) for r in range(size)), p),
    )
    return np.array(found, dtype=np.int64)


@settings(max_examples=300, deadline=None)
@given(layered())
def test_levels_choose_as_the_combined_weight(
    problem: tuple[list[np.ndarray[Any, Any]], np.ndarray[Any, Any], int],
) -> None:
    levels, edge, settle = problem
    size = len(edge)
    # each level weighs more than any sum of the levels below it can differ
    unit = 2 * 3 * size + 1
    combined = np.zeros_like(levels[0])
    for level in levels:
        combined = combined * unit + level
    start = _optimum(combined, edge)
    expected = first_optimal_assignment(combined, edge, start, settle)
    assert expected is not None
    assert first_optimal_by_levels(levels, edge, start, settle) == expected


def _outcome(players: int, seed: int, shape: str) -> object:
    tournament, absent = greedy_event(players, seed, **SHAPES[shape])
    request = request_for(tournament, ROUNDS + 1, absent=absent, total_rounds=9)
    try:
        pairing = pair_round(request)
    except NoValidPairingError as refused:
        return str(refused)
    return (pairing.boards, pairing.bye)


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(min_value=12, max_value=150),
    seed=st.integers(min_value=0, max_value=100_000),
    shape=st.sampled_from(sorted(SHAPES)),
    width=st.sampled_from([6, 10, 16]),
)
def test_narrow_levels_pair_as_one_level(players: int, seed: int, shape: str, width: int) -> None:
    one = _outcome(players, seed, shape)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(remainder, "LEVEL_BITS", width)
        levels = _outcome(players, seed, shape)
    assert levels == one


def test_narrow_levels_are_used_when_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    """(the property above compares something: the criteria are cut in levels)"""
    seen: Counter[int] = Counter()
    original = remainder.RemainderPairing._levels

    def spy(self: Any, *args: Any) -> Any:
        result = original(self, *args)
        seen[0 if result is None else len(result)] += 1
        return result

    monkeypatch.setattr(remainder.RemainderPairing, "_levels", spy)
    monkeypatch.setattr(remainder, "LEVEL_BITS", 10)
    for seed in range(3):
        _outcome(60, seed, "byes")
    assert any(count > 1 for count in seen), seen
