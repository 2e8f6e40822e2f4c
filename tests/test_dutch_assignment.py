"""The one-shot S1/S2 choice (crosstable.core.pairing.dutch.assignment)
against brute force: among the maximum-weight perfect matchings, the first
rows take the earliest columns possible, one after the other."""

from __future__ import annotations

from itertools import permutations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.pairing.dutch.assignment import first_optimal_assignment, fits


@st.composite
def problems(draw: st.DrawFn) -> tuple[list[list[int]], list[list[bool]], int]:
    size = draw(st.integers(1, 6))
    weight = [[draw(st.integers(0, 4)) for _ in range(size)] for _ in range(size)]
    edge = [[draw(st.booleans()) or r == c for c in range(size)] for r in range(size)]
    settle = draw(st.integers(0, size))
    for r in range(settle, size):  # floater slots: anyone, weight 0
        edge[r] = [True] * size
        weight[r] = [0] * size
    return weight, edge, settle


def _brute_force(weight: list[list[int]], edge: list[list[bool]], settle: int) -> list[int]:
    size = len(weight)
    best: tuple[int, tuple[int, ...]] | None = None
    for perm in permutations(range(size)):
        if not all(edge[r][perm[r]] for r in range(size)):
            continue
        total = sum(weight[r][perm[r]] for r in range(size))
        key = (-total, perm[:settle])
        if best is None or key < best:
            best = key
    assert best is not None
    return list(best[1])


def _some_optimum(weight: list[list[int]], edge: list[list[bool]]) -> list[int]:
    size = len(weight)
    found = max(
        (p for p in permutations(range(size)) if all(edge[r][p[r]] for r in range(size))),
        key=lambda p: (sum(weight[r][p[r]] for r in range(size)), p),
    )
    return list(found)


@settings(max_examples=300, deadline=None)
@given(problems())
def test_first_optimal_assignment_matches_brute_force(
    problem: tuple[list[list[int]], list[list[bool]], int],
) -> None:
    weight, edge, settle = problem
    start = _some_optimum(weight, edge)  # the largest optimal permutation: far from the answer
    got = first_optimal_assignment(
        np.array(weight, dtype=np.int64),
        np.array(edge, dtype=np.bool_),
        np.array(start, dtype=np.int64),
        settle,
    )
    assert got == _brute_force(weight, edge, settle)


def test_a_start_that_is_not_optimal_is_refused() -> None:
    weight = np.array([[5, 0], [0, 5]], dtype=np.int64)
    edge = np.ones((2, 2), dtype=np.bool_)
    assert first_optimal_assignment(weight, edge, np.array([1, 0]), 2) is None


def test_width_limit() -> None:
    assert fits(40, 1000)
    assert not fits(50, 1000)
