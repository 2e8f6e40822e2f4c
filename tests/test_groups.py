"""Group stage + knockout plans (R-RR-17, R-KO-1; seed 001)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.schedule.groups import (
    group_sizes,
    plan_group_stage,
    round_robin_counts,
    snake_groups,
)


def test_seed_001_grand_prix_format() -> None:
    # seed 001: sixteen players, four groups of four, double round robin, winners to
    # semi-finals and final: six group rounds, 51 games, six games each.
    plan = plan_group_stage(16, groups=4, cycles=2, qualifiers_per_group=1)
    assert plan.group_sizes == (4, 4, 4, 4)
    assert plan.group_rounds == 6
    assert plan.group_games == 48
    assert (plan.qualifiers, plan.knockout_rounds, plan.knockout_games) == (4, 2, 3)
    assert plan.total_games == 51
    assert plan.total_rounds == 8
    assert plan.knockout_round_names == ("semi-final", "final")
    assert round_robin_counts(4, 2) == (6, 12)  # six games for each player's group
    # seed 001: the straight round robin of sixteen is fifteen rounds and 120 games
    assert round_robin_counts(16) == (15, 120)


def test_snake_seeding() -> None:
    assert snake_groups(16, 4) == (
        (1, 8, 9, 16),
        (2, 7, 10, 15),
        (3, 6, 11, 14),
        (4, 5, 12, 13),
    )
    assert snake_groups(10, 4) == ((1, 8, 9), (2, 7, 10), (3, 6), (4, 5))
    assert snake_groups(7, 3) == ((1, 6, 7), (2, 5), (3, 4))


def test_knockout_with_byes_and_extras() -> None:
    plan = plan_group_stage(18, groups=3, qualifiers_per_group=2)
    assert plan.group_sizes == (6, 6, 6)
    assert (plan.group_rounds, plan.group_games) == (5, 45)
    assert (plan.qualifiers, plan.knockout_rounds, plan.knockout_byes) == (6, 3, 2)
    assert plan.knockout_games == 5
    two_games = plan_group_stage(16, groups=4, cycles=2, games_per_match=2, third_place_match=True)
    assert two_games.knockout_matches == 4
    assert two_games.knockout_games == 8
    assert two_games.total_rounds == 6 + 2 * 2
    one_group = plan_group_stage(6, groups=1, qualifiers_per_group=1)
    assert (one_group.knockout_rounds, one_group.knockout_games) == (0, 0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 8, "groups": 0}, "at least one group"),
        ({"players": 3, "groups": 4}, "cannot fill"),
        ({"players": 8, "groups": 4}, "group of 2"),
        ({"players": 16, "groups": 4, "qualifiers_per_group": 4}, "qualifiers per group"),
        ({"players": 16, "groups": 4, "cycles": 0}, "cycle"),
        ({"players": 16, "groups": 4, "games_per_match": 0}, "games per match"),
        ({"players": 6, "groups": 2, "third_place_match": True}, "third place"),
    ],
)
def test_bad_plans(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        plan_group_stage(**kwargs)  # type: ignore[arg-type]


@given(
    groups=st.integers(min_value=1, max_value=16),
    per_group=st.integers(min_value=3, max_value=12),
    extra=st.integers(min_value=0, max_value=15),
    cycles=st.integers(min_value=1, max_value=2),
    qualifiers=st.integers(min_value=1, max_value=2),
)
def test_plan_properties(
    groups: int, per_group: int, extra: int, cycles: int, qualifiers: int
) -> None:
    players = groups * per_group + extra % groups
    plan = plan_group_stage(players, groups=groups, cycles=cycles, qualifiers_per_group=qualifiers)
    sizes = plan.group_sizes
    assert sum(sizes) == players and max(sizes) - min(sizes) <= 1
    assert sizes == group_sizes(players, groups)
    ranks = sorted(p for g in snake_groups(players, groups) for p in g)
    assert ranks == list(range(1, players + 1))
    assert plan.group_games == sum(cycles * s * (s - 1) // 2 for s in sizes)
    q = plan.qualifiers
    assert q == groups * qualifiers
    assert 2 ** (plan.knockout_rounds - 1) < q <= 2**plan.knockout_rounds or q == 1
    assert plan.knockout_games == q - 1
    assert plan.total_games == plan.group_games + q - 1
    # the snake spreads the strength: the top seeds are in different groups
    top = [g[0] for g in snake_groups(players, groups)]
    assert top == list(range(1, groups + 1))
