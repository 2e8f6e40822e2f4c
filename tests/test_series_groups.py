"""A stage's groups (SPEC R-SE-4; issue 11): how many, how large, who plays where."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.series.groups import (
    DEFAULT_MAX_GROUP_SIZE,
    Entrant,
    deal_snake,
    group_sizes_for,
    seed_groups,
    seeding_order,
)


@settings(max_examples=300, deadline=None)
@given(st.integers(15, 2000), st.integers(3, 40))
def test_fewest_groups_equal_sizes_none_under_three(players: int, max_size: int) -> None:
    try:
        sizes = group_sizes_for(players, max_size)
    except RuleError:
        # refused only when no split into groups of 3…max_size within one of each other exists
        assert not any(3 * g <= players <= g * max_size for g in range(1, players + 1))
        return
    assert sum(sizes) == players
    assert max(sizes) <= max_size and min(sizes) >= 3
    assert max(sizes) - min(sizes) <= 1
    assert list(sizes) == sorted(sizes, reverse=True)  # largest first
    # the fewest: one group fewer could not hold everyone at max_size
    assert (len(sizes) - 1) * max_size < players


def test_default_size_every_count_15_to_2000() -> None:
    for players in range(15, 2001):
        sizes = group_sizes_for(players)
        assert sum(sizes) == players
        assert len(sizes) == -(-players // DEFAULT_MAX_GROUP_SIZE)
        assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 3 and max(sizes) <= 10


def test_examples_and_refusals() -> None:
    assert group_sizes_for(23) == (8, 8, 7)
    assert group_sizes_for(10) == (10,)
    assert group_sizes_for(11) == (6, 5)
    assert group_sizes_for(3) == (3,)
    assert group_sizes_for(10_000) == (10,) * 1000
    assert group_sizes_for(23, 4) == (4, 4, 4, 4, 4, 3)
    for players in (0, 1, 2):
        with pytest.raises(RuleError, match=f"{players} players: a group needs at least 3"):
            group_sizes_for(players)
    with pytest.raises(RuleError, match="5 players cannot be split into groups of 3 to 4"):
        group_sizes_for(5, 4)
    with pytest.raises(RuleError, match="4 players cannot be split into groups of 3 to 3"):
        group_sizes_for(4, 3)
    for size in (2, 101):
        with pytest.raises(RuleError, match=f"max group size {size}"):
            group_sizes_for(20, size)
    with pytest.raises(RuleError, match="at most 1000000 in one stage"):
        group_sizes_for(1_000_001)


@settings(max_examples=150, deadline=None)
@given(st.integers(15, 600), st.integers(3, 20), st.randoms(use_true_random=False))
def test_snake_spreads_the_strongest(players: int, max_size: int, rng: object) -> None:
    try:
        sizes = group_sizes_for(players, max_size)
    except RuleError:
        return
    ratings = list(range(1000, 1000 + 7 * players, 7))
    rng.shuffle(ratings)  # type: ignore[attr-defined]
    entrants = [Entrant(key, rating) for key, rating in enumerate(ratings, 1)]
    groups = seed_groups(entrants, max_size)
    assert tuple(len(g) for g in groups) == sizes
    assert sorted(k for g in groups for k in g) == list(range(1, players + 1))
    rank = {e.key: r for r, e in enumerate(seeding_order(entrants))}
    g = len(sizes)
    # row by row, every group gets exactly one of each g consecutive seeds
    for row in range(min(sizes)):
        seeds = sorted(rank[group[row]] for group in groups)
        assert seeds == list(range(row * g, row * g + g))
    # the top g seeds are in g different groups, each group's first is its best
    assert sorted(rank[group[0]] for group in groups) == list(range(g))
    for group in groups:
        assert [rank[k] for k in group] == sorted(rank[k] for k in group)


def test_seeding_order_by_place_then_rating() -> None:
    entrants = [
        Entrant(1, 1500, place=2, group=0),
        Entrant(2, 1400, place=1, group=1),
        Entrant(3, None, place=1, group=0),
        Entrant(4, 1600, place=1, group=2),
        Entrant(5, 1400, place=1, group=0),
        Entrant(6, 2000),  # no previous stage: after every qualifier
    ]
    assert [e.key for e in seeding_order(entrants)] == [4, 5, 2, 3, 1, 6]
    with pytest.raises(RuleError, match="enters the stage twice"):
        seeding_order([Entrant(1), Entrant(1)])


def test_deal_snake() -> None:
    assert deal_snake(range(1, 9), (4, 4)) == ((1, 4, 5, 8), (2, 3, 6, 7))
    assert deal_snake(range(1, 8), (3, 2, 2)) == ((1, 6, 7), (2, 5), (3, 4))
    with pytest.raises(RuleError, match="do not fill groups"):
        deal_snake(range(5), (3, 3))
