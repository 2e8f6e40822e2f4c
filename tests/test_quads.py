"""Quads (R-RR-17; seeds 001 and 004; RULES.md §6.3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.model import Player
from crosstable.core.schedule.quads import (
    group_rounds,
    quad_sizes,
    quads,
    quads_of,
    rating_rank,
)


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (3, (3,)),
        (4, (4,)),
        (5, (5,)),
        (6, (6,)),
        (7, (7,)),  # one round robin of seven, not 4 + 3
        (8, (4, 4)),
        (9, (4, 5)),
        (10, (4, 6)),
        (11, (5, 6)),  # the bottom eleven: a five above a six
        (12, (4, 4, 4)),
        (13, (4, 4, 5)),
        (14, (4, 4, 6)),
        (15, (4, 5, 6)),
        (16, (4, 4, 4, 4)),  # seed 001: sixteen players — three rounds
        (19, (4, 4, 5, 6)),
        (40, (4,) * 10),  # seed 001: forty players — three rounds
    ],
)
def test_quad_sizes(players: int, sizes: tuple[int, ...]) -> None:
    assert quad_sizes(players) == sizes


def test_groups_are_rating_ranks_from_the_top() -> None:
    # seeds 001 and 004: "numbers 1–4, 5–8, 9–12 and so on"
    assert quads(12) == ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12))
    assert quads(11) == ((1, 2, 3, 4, 5), (6, 7, 8, 9, 10, 11))
    assert quads(15)[-2:] == ((5, 6, 7, 8, 9), (10, 11, 12, 13, 14, 15))


def test_seed_quads_always_three_rounds() -> None:
    # seed 001: "sixteen players — three rounds, forty players — three rounds"
    for players in (16, 40):
        assert {group_rounds(size) for size in quad_sizes(players)} == {3}


@pytest.mark.parametrize("players", [-4, 0, 1, 2])
def test_too_few_players(players: int) -> None:
    with pytest.raises(RuleError, match="at least 3 players"):
        quad_sizes(players)


@given(st.integers(min_value=3, max_value=400))
def test_quads_properties(players: int) -> None:
    sizes = quad_sizes(players)
    groups = quads(players)
    assert [len(g) for g in groups] == list(sizes)
    # every player once, in rating order from the top
    assert [p for g in groups for p in g] == list(range(1, players + 1))
    assert 3 not in sizes or players == 3  # never a group of three left over
    if players in (3, 5, 6, 7):
        assert sizes == (players,)
    else:
        bottom = {0: (), 1: (5,), 2: (6,), 3: (5, 6)}[players % 4]
        assert sizes[len(sizes) - len(bottom) :] == bottom
        assert set(sizes[: len(sizes) - len(bottom)]) <= {4}
    assert list(sizes) == sorted(sizes)  # groups never get smaller down the field


def test_rating_rank_order() -> None:
    field = [
        Player(1, "Dora", None),
        Player(2, "bea", 1500),
        Player(3, "Abe", 1500),
        Player(4, "Carl", 2000),
        Player(5, "Abe", 1500),
        Player(6, "Zed", 0),
    ]
    ranked = rating_rank(field)
    # highest first; equal ratings by name (case-insensitive), then input order;
    # unrated (no rating at all) last, after a rating of 0
    assert [p.start for p in ranked] == [4, 3, 5, 2, 6, 1]


def test_quads_of_real_players() -> None:
    field = [Player(i, f"P{i:02d}", 1000 + 10 * i) for i in range(1, 10)]
    groups = quads_of(field)
    assert [[p.start for p in g] for g in groups] == [[9, 8, 7, 6], [5, 4, 3, 2, 1]]
