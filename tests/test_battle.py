"""Battle chess: colours drawn just before each game (R-RR-9)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from crosstable.core.battle import BattleColours, draw_colours
from crosstable.core.schedule.scheveningen import scheveningen
from crosstable.core.schedule.types import Schedule, ScheduledRound


def test_injected_random_source_is_reproducible() -> None:
    first = [draw_colours(1, 2, random.Random(99)) for _ in range(3)]
    assert first == [draw_colours(2, 1, random.Random(99))] * 3
    rng_a, rng_b = random.Random(7), random.Random(7)
    assert [draw_colours(3, 4, rng_a) for _ in range(20)] == [
        draw_colours(4, 3, rng_b) for _ in range(20)
    ]


def test_both_colours_happen_and_fairly() -> None:
    rng = random.Random(2026)
    whites = Counter(draw_colours(1, 2, rng)[0] for _ in range(2000))
    assert set(whites) == {1, 2}
    assert 900 < whites[1] < 1100  # a fair coin: 1000 ± 3.5 standard deviations


def test_game_draws_do_not_depend_on_the_order_of_set_up() -> None:
    colours = BattleColours(seed=5)
    games = [(1, 1, 2), (1, 3, 4), (2, 1, 3), (2, 2, 4)]
    forward = {g: colours.colours(*g) for g in games}
    backward = {g: BattleColours(seed=5).colours(*g) for g in reversed(games)}
    assert forward == backward
    assert colours.colours(1, 2, 1) == forward[(1, 1, 2)]


def test_a_different_seed_gives_other_colours() -> None:
    pairs = [(r, a, a + 1) for r in range(1, 9) for a in range(1, 20, 2)]
    one = [BattleColours(1).colours(*g) for g in pairs]
    two = [BattleColours(2).colours(*g) for g in pairs]
    assert one != two


def test_draw_schedule_keeps_the_pairings() -> None:
    schedule = scheveningen(4)
    drawn = BattleColours(seed=11).draw_schedule(schedule)
    assert drawn.players == schedule.players
    for before, after in zip(schedule.rounds, drawn.rounds, strict=True):
        assert [frozenset(b) for b in before.boards] == [frozenset(b) for b in after.boards]
        assert after.number == before.number
    assert drawn == BattleColours(seed=11).draw_schedule(schedule)


@given(
    st.integers(), st.integers(min_value=1, max_value=30), st.integers(1, 500), st.integers(1, 500)
)
def test_colours_are_the_two_players(seed: int, round_number: int, a: int, b: int) -> None:
    if a == b:
        b += 1
    white, black = BattleColours(seed).colours(round_number, a, b)
    assert {white, black} == {a, b}
    assert BattleColours(seed).colours(round_number, b, a) == (white, black)


def test_round_with_a_bye() -> None:
    rnd = ScheduledRound(3, ((1, 4), (2, 3)), bye=5)
    drawn = BattleColours(0).draw_round(rnd)
    assert drawn.bye == 5 and drawn.number == 3
    assert Schedule(5, (drawn,)).rounds[0].cycle == 1


_GAMES = st.lists(
    st.tuples(st.integers(1, 30), st.integers(1, 200), st.integers(1, 200)).filter(
        lambda g: g[1] != g[2]
    ),
    min_size=1,
    max_size=25,
)


@given(st.integers(0, 2**53), _GAMES, st.randoms(use_true_random=False))
def test_property_a_game_s_colours_are_its_own(
    seed: int, games: list[tuple[int, int, int]], rng: random.Random
) -> None:
    """What docs/battle.md says the draw guarantees: a game's colours depend on the seed,
    the round and its two players only — not on which other games are drawn, nor in
    which order (so an undo and a new draw, or a round drawn early, change nothing)."""
    alone = {g: BattleColours(seed).colours(*g) for g in games}
    shuffled = list(games)
    rng.shuffle(shuffled)
    together = BattleColours(seed)
    assert {g: together.colours(*g) for g in shuffled} == alone
    some = shuffled[: max(1, len(shuffled) // 2)]
    assert {g: BattleColours(seed).colours(*g) for g in some} == {g: alone[g] for g in some}
