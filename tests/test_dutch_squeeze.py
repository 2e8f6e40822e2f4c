"""A bracket solved apart from the next scoregroup fits the compiled matcher.

The next scoregroup's fields (C8) take room in every weight of a bracket, but
the bracket's own graph holds at most one edge with them: the floater's
stand-in. ``Layout.squeezed`` moves the fields above them down to what that
graph can reach, so a wide bracket (a history with many half-point byes)
goes to rustworkx instead of networkx's pure-Python matcher. Such brackets
only come with thousands of players; here the squeeze is forced on every
bracket solved apart and must pair as without it.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.bench_dutch_shapes import ROUNDS, greedy_event
from crosstable.core.model import Colour
from crosstable.core.pairing.dutch import pair_round, request_for, state
from crosstable.core.pairing.dutch.matching import Layout, NoValidPairingError
from tests.conftest import DATA
from tests.dutch_data import document_before, load, reference_sets

SHAPES = {
    "plain": {},
    "byes": {"half_bye": 0.08, "absence": 0.08, "forfeit": 0.08},
    "withdrawn": {"withdraw": 0.05},
}
SETS = reference_sets(DATA)[2::7] if DATA.is_dir() else []


@settings(max_examples=200, deadline=None)
@given(
    bounds=st.lists(st.sampled_from([0, 1, 2, 3, 7, 40, 500]), min_size=1, max_size=6),
    cuts=st.lists(st.sampled_from([0, 1, 2, 5]), min_size=6, max_size=6),
    low_bound=st.sampled_from([0, 1, 5, 90, 70_000]),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_squeezed_weights_add_up_as_the_narrow_layout_packs(
    bounds: list[int], cuts: list[int], low_bound: int, seed: int
) -> None:
    """Edges whose field values stay within the tighter bounds: the squeezed
    weights of any set of them add up to the narrow packing of their sums, so
    matchings compare as before."""
    rng = random.Random(seed)
    wide_bounds = list(enumerate(bounds))
    tighter = {k: min(b, cut) for (k, b), cut in zip(wide_bounds, cuts, strict=False)}
    wide = Layout(wide_bounds, low_bound)
    squeeze = wide.squeezed(tighter)
    narrow = Layout([(k, min(b, tighter.get(k, b))) for k, b in wide_bounds], low_bound)
    if squeeze is None:
        assert narrow.shift == wide.shift
        return
    assert squeeze.bits == narrow.bits <= wide.bits

    def draw() -> tuple[dict[object, int], int]:
        # one edge, or a sum over a matching: within the tighter bounds
        fields: dict[object, int] = {k: rng.randint(-b, b) for k, b in tighter.items()}
        for k, b in wide_bounds:
            fields.setdefault(k, rng.randint(-b, b))
        return fields, rng.randint(-low_bound, low_bound)

    for _ in range(20):
        fields, low = draw()
        assert squeeze(wide.pack(fields, low)) == narrow.pack(fields, low)
        other, other_low = draw()
        before = wide.pack(fields, low) - wide.pack(other, other_low)
        after = squeeze(wide.pack(fields, low)) - squeeze(wide.pack(other, other_low))
        assert (before > 0) == (after > 0) and (before == 0) == (after == 0)


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
    players=st.integers(min_value=12, max_value=120),
    seed=st.integers(min_value=0, max_value=100_000),
    shape=st.sampled_from(sorted(SHAPES)),
)
def test_every_bracket_apart_pairs_the_same_squeezed(players: int, seed: int, shape: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(state, "SPLIT_SIZE", 0)
        monkeypatch.setattr(state, "SQUEEZE_FROM", 0)
        squeezed = _outcome(players, seed, shape)
        monkeypatch.setattr(state, "SQUEEZE_FROM", 1 << 20)
        wide = _outcome(players, seed, shape)
    assert squeezed == wide


def test_the_squeeze_is_taken_when_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    """(the property above compares something: forced, brackets are squeezed)"""
    seen: Counter[bool] = Counter()
    original = Layout.squeezed

    def spy(self: Layout, tighter: dict[object, int]) -> Any:
        result = original(self, tighter)
        seen[result is not None] += 1
        return result

    monkeypatch.setattr(Layout, "squeezed", spy)
    monkeypatch.setattr(state, "SPLIT_SIZE", 0)
    monkeypatch.setattr(state, "SQUEEZE_FROM", 0)
    for seed in range(3):
        _outcome(40, seed, "byes")
    assert seen[True], seen


@pytest.mark.parametrize("name", SETS)
def test_reference_rounds_squeezed(
    monkeypatch: pytest.MonkeyPatch, data_dir: Path, name: str
) -> None:
    monkeypatch.setattr(state, "SPLIT_SIZE", 0)
    monkeypatch.setattr(state, "SQUEEZE_FROM", 0)
    text, expected = load(data_dir, name)
    rounds = expected["rounds"]
    assert isinstance(rounds, dict)
    for number, boards in rounds.items():
        doc = document_before(text, int(number), name)
        request = request_for(
            doc.tournament, int(number), initial_colour=doc.initial_colour or Colour.WHITE
        )
        pairing = pair_round(request)
        got = [list(board) for board in pairing.boards]
        if pairing.bye is not None:
            got.append([pairing.bye, 0])
        assert got == boards, f"round {number}"
