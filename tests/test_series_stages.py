"""A series' stages: qualification (R-SE-5, R-SE-6) and the plan groups → final → super-final."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.model import (
    Game,
    GameResult,
    Player,
    Reason,
    Round,
    Settings,
    StageKind,
    Tournament,
)
from crosstable.core.schedule.cycles import berger_schedule
from crosstable.core.series.groups import Entrant, group_sizes_for, seed_groups
from crosstable.core.series.plan import SeriesFormat, next_stage, plan_series
from crosstable.core.series.qualification import (
    GroupOutcome,
    left_out,
    outcome_of,
    stage_entrants,
)


def round_robin(size: int, rng: random.Random, no_show: int | None = None) -> Tournament:
    """A finished round robin; ``no_show`` (a starting number) wins every game by forfeit
    when given (its opponents never came), every other game is played."""
    players = tuple(Player(j, f"P{j}", 2000 - j) for j in range(1, size + 1))
    rounds = []
    for rnd in berger_schedule(size).rounds:
        games = []
        for board, (white, black) in enumerate(rnd.boards, 1):
            if no_show in (white, black):
                text, reason = ("+-" if white == no_show else "-+"), Reason.NO_SHOW
            else:
                text, reason = rng.choice(["1-0", "0-1", "1/2-1/2"]), Reason.NORMAL
            games.append(Game(rnd.number, board, white, black, GameResult.parse(text), reason))
        rounds.append(Round(rnd.number, tuple(games)))
    return Tournament(Settings(), players, tuple(rounds))


def test_group_outcome_skips_who_played_no_game() -> None:
    outcome = GroupOutcome((17, 4, 9, 12), frozenset({4, 9, 12}))
    assert outcome.qualifiers(2) == (4, 9)
    assert outcome.qualifiers(9) == (4, 9, 12)  # fewer who played: those it has
    with pytest.raises(RuleError, match="ranked twice"):
        GroupOutcome((1, 1), frozenset())
    with pytest.raises(RuleError, match="not in the group's ranking"):
        GroupOutcome((1, 2), frozenset({3}))


def test_a_forfeit_only_winner_does_not_go_on_the_next_moves_up() -> None:
    rng = random.Random(11)
    group = round_robin(6, rng, no_show=1)
    keys = [101, 102, 103, 104, 105, 106]
    outcome = outcome_of(group, keys, 2, lots_seed=5, label="group A")
    assert outcome.ranking[0] == 101  # five forfeit wins: first on points
    assert 101 not in outcome.played and len(outcome.played) == 5
    entrants = stage_entrants([outcome], 2, {k: 2000 - k for k in keys})
    assert [e.key for e in entrants] == list(outcome.ranking[1:3])
    # the one who moved up from 3rd is seeded as a runner-up
    assert [(e.place, e.group) for e in entrants] == [(1, 0), (2, 0)]
    assert left_out([outcome]) == (101,)


def test_stage_entrants_feed_the_next_stage_seeding() -> None:
    rng = random.Random(3)
    outcomes = []
    for index, size in enumerate(group_sizes_for(40)):
        keys = [100 * (index + 1) + j for j in range(1, size + 1)]
        outcomes.append(outcome_of(round_robin(size, rng), keys, 2, lots_seed=index))
    entrants = stage_entrants(outcomes, 2)
    assert len(entrants) == 8
    groups = seed_groups(entrants, 10)
    assert groups == (tuple(e.key for e in sorted(entrants, key=lambda e: (e.place, e.group))),)
    # stage 2 of 30 qualifiers in groups of at most 4: every group winner heads a group
    many = [Entrant(k, None, place=1 + k % 2, group=k // 2) for k in range(30)]
    heads = {g[0] for g in seed_groups(many, 4)}
    assert all(next(e for e in many if e.key == h).place == 1 for h in heads)
    with pytest.raises(RuleError, match="qualifies twice"):
        stage_entrants([GroupOutcome((1, 2), frozenset({1, 2}))] * 2, 1)


def test_an_unbroken_tie_at_the_cut_is_refused() -> None:
    players = tuple(Player(j, f"P{j}") for j in range(1, 5))
    rounds = []
    for rnd in berger_schedule(4).rounds:
        games = [
            Game(rnd.number, b, w, k, GameResult.DRAW()) for b, (w, k) in enumerate(rnd.boards, 1)
        ]
        rounds.append(Round(rnd.number, tuple(games)))
    drawn = Tournament(Settings(), players, tuple(rounds))
    with pytest.raises(RuleError, match="group B: places 1 and 2 are tied"):
        outcome_of(drawn, [1, 2, 3, 4], 1, label="group B")
    assert len(outcome_of(drawn, [1, 2, 3, 4], 1, lots_seed=1).ranking) == 4
    with pytest.raises(RuleError, match="3 keys for a group of 4"):
        outcome_of(drawn, [1, 2, 3], 1, lots_seed=1)


def test_plans() -> None:
    kinds = [(s.kind, s.group_sizes, s.qualifiers) for s in plan_series(40)]
    assert kinds == [
        (StageKind.GROUPS, (10, 10, 10, 10), 8),
        (StageKind.FINAL, (8,), 4),
        (StageKind.SUPER_FINAL, (4,), 0),
    ]
    # two groups of 8 and 7 send three each so that the final has six
    assert [(s.group_sizes, s.qualifiers_per_group) for s in plan_series(15)][:2] == [
        ((8, 7), 3),
        ((6,), 4),
    ]
    # a field that fits one group plays the final at once
    assert [s.kind for s in plan_series(9)] == [StageKind.FINAL, StageKind.SUPER_FINAL]
    assert [s.kind for s in plan_series(4)] == [StageKind.FINAL]  # no larger than the super-final
    no_super = SeriesFormat(super_final_players=0)
    assert [s.kind for s in plan_series(40, no_super)][-1] is StageKind.FINAL
    match = SeriesFormat(super_final_players=2, super_final_cycles=2)
    last = plan_series(40, match)[-1]
    assert (last.kind, last.group_sizes, last.games, last.rounds) == (
        StageKind.SUPER_FINAL,
        (2,),
        2,
        2,
    )
    stages = plan_series(10_000)
    assert [len(s.group_sizes) for s in stages] == [1000, 200, 40, 8, 2, 1, 1]
    assert stages[0].games == 1000 * 45 and stages[0].rounds == 9
    assert stages[0].to_json()["groups"] == [10] * 1000


def test_bad_formats_are_refused() -> None:
    for bad, message in [
        ({"qualifiers_per_group": 0}, "at least one"),
        ({"qualifiers_per_group": 6}, "at most half of the largest group"),
        ({"final_min": 2}, "final of at least 2"),
        ({"final_min": 11}, "final of at least 11"),
        ({"group_cycles": 0}, "group cycles: 0"),
        ({"super_final_players": 1}, "super-final of 1"),
        ({"max_group_size": 2}, "max group size 2"),
    ]:
        with pytest.raises(RuleError, match=message):
            SeriesFormat(**bad)  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="no super-final"):
        next_stage(4, 3, SeriesFormat(super_final_players=0), after_final=True)
    with pytest.raises(RuleError, match="a group needs at least 3"):
        plan_series(2)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(3, 20_000),
    st.integers(3, 30),
    st.integers(1, 15),
    st.integers(3, 30),
    st.sampled_from([0, 2, 3, 4, 6]),
)
def test_every_plan_ends_in_one_final(
    players: int, size: int, per_group: int, final_min: int, super_final: int
) -> None:
    try:
        fmt = SeriesFormat(
            max_group_size=size,
            qualifiers_per_group=per_group,
            final_min=final_min,
            super_final_players=super_final,
        )
        stages = plan_series(players, fmt)
    except RuleError:
        return
    finals = [s for s in stages if s.kind is StageKind.FINAL]
    assert len(finals) == 1 and len(finals[0].group_sizes) == 1
    for before, after in itertools.pairwise(stages):
        assert after.players == before.qualifiers < before.players
        assert before.qualifiers_per_group < min(before.group_sizes)
    for s in stages:
        assert sum(s.group_sizes) == s.players
    assert stages[-1].qualifiers == 0
    assert [s.number for s in stages] == list(range(1, len(stages) + 1))
    assert replace(fmt) == fmt
