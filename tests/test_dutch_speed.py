"""The Dutch engine's fast paths give the pairings of the step-by-step ones.

Large brackets take two shortcuts (see docs/benchmarks.md, "Swiss pairing on
every kind of history"): the S1 players' choices settled at once even when who
floats is not free, and a bracket that pairs fully solved apart from the next
scoregroup. The reference rounds of the endorsed engine cover the first; the
second applies to large brackets only, so here it is switched on for every
bracket. The field layout is checked to order sums as the criteria do.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from crosstable.cli.pair import request_from_document
from crosstable.core.model import Colour
from crosstable.core.pairing.dutch import pair_round, request_for, state
from crosstable.core.pairing.dutch.engine import _Pairer
from crosstable.core.pairing.dutch.generator import GeneratorSettings, generate
from crosstable.core.pairing.dutch.matching import Layout, NoValidPairingError
from crosstable.core.pairing.dutch.remainder import RemainderPairing
from crosstable.formats.trf import read_trf
from tests.conftest import DATA
from tests.dutch_data import document_before, load, reference_sets

# 31 players, five rounds paired by a simple greedy pairer (none of the
# engines; bench/bench_dutch_shapes.py), with half-point byes, absences and
# forfeits: in round 6 a bracket's floater may not meet every player of the
# next scoregroup
NEUTRAL = Path(__file__).parent / "data" / "dutch" / "neutral_floaters.trf"
NEUTRAL_BOARDS = [
    [15, 5],
    [2, 19],
    [18, 4],
    [6, 27],
    [28, 12],
    [1, 21],
    [17, 3],
    [9, 25],
    [7, 14],
    [8, 23],
    [10, 29],
    [31, 13],
    [20, 30],
    [11, 24],
    [22, 26],
]
NEUTRAL_BYE = 16

SETS = reference_sets(DATA)[::5] if DATA.is_dir() else []


def _spy(monkeypatch: pytest.MonkeyPatch, owner: type, name: str, seen: Counter[str]) -> None:
    """Count the calls of ``owner.name`` that found something (not None)."""
    original: Callable[..., Any] = getattr(owner, name)

    def spy(*args: Any) -> Any:
        result = original(*args)
        seen[f"{name} {result is not None}"] += 1
        return result

    monkeypatch.setattr(owner, name, spy)


def _neutral() -> tuple[list[list[int]], int | None]:
    pairing = pair_round(request_from_document(read_trf(NEUTRAL)))
    return [list(board) for board in pairing.boards], pairing.bye


def test_floaters_checked_by_one_small_matching(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: Counter[str] = Counter()
    _spy(monkeypatch, RemainderPairing, "_float_rest", seen)
    assert _neutral() == (NEUTRAL_BOARDS, NEUTRAL_BYE)
    assert seen["_float_rest True"]  # the shortcut was taken, and held


def test_bracket_apart_from_next_scoregroup(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state, "SPLIT_SIZE", 0)
    seen: Counter[str] = Counter()
    _spy(monkeypatch, state.Split, "partners", seen)
    assert _neutral() == (NEUTRAL_BOARDS, NEUTRAL_BYE)
    assert seen["partners True"]


@pytest.mark.parametrize("name", SETS)
def test_reference_rounds_with_every_bracket_apart(
    monkeypatch: pytest.MonkeyPatch, data_dir: Path, name: str
) -> None:
    monkeypatch.setattr(state, "SPLIT_SIZE", 0)
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


def test_layout_orders_sums_as_the_fields() -> None:
    rng = random.Random(5)
    for _ in range(300):
        bounds = [(k, rng.choice([0, 1, 2, 3, 7, 40, 500])) for k in range(rng.randint(1, 6))]
        low_bound = rng.choice([0, 1, 5, 90])
        layout = Layout(bounds, low_bound)

        for _ in range(20):
            (f, low), (g, other) = _draw(rng, bounds, low_bound), _draw(rng, bounds, low_bound)
            first = [*(f[k] for k, _ in bounds), low]
            second = [*(g[k] for k, _ in bounds), other]
            packed = layout.pack(f, low) - layout.pack(g, other)
            assert (packed > 0) == (first > second) and (packed == 0) == (first == second)
            assert 2 * abs(layout.pack(f, low)) < 1 << layout.bits  # fits in ``bits``, signed


def _draw(
    rng: random.Random, bounds: list[tuple[int, int]], low_bound: int
) -> tuple[dict[object, int], int]:
    """Field sums a matching could reach, and a low part."""
    fields: dict[object, int] = {k: rng.randint(-b, b) for k, b in bounds}
    return fields, rng.randint(-low_bound, low_bound)


def _outcome(request: Any) -> object:
    """The pairing's boards and bye, or the refusal when no pairing exists."""
    try:
        pairing = pair_round(request)
    except NoValidPairingError as refused:
        return str(refused)
    return (pairing.boards, pairing.bye)


@settings(max_examples=40, deadline=None)
@given(
    players=st.sampled_from([5, 7, 9, 11, 13, 15, 21]),
    rounds=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=10_000),
    forfeit_rate=st.sampled_from([0.0, 0.2]),
)
def test_the_pab_score_from_dirac_equals_the_full_matching(
    players: int, rounds: int, seed: int, forfeit_rate: float
) -> None:
    """The shortcut (everyone may meet half the field) pairs every round exactly as the
    matching of every pair of the field does."""
    if rounds >= players:
        rounds = players - 1
    try:
        tournament = generate(
            GeneratorSettings(players=players, rounds=rounds, seed=seed, forfeit_rate=forfeit_rate)
        )
    except NoValidPairingError:  # (a history the generator itself cannot go on with)
        assume(False)
    for number in range(2, rounds + 1):
        request = request_for(replace(tournament, rounds=tournament.rounds[: number - 1]), number)
        with_shortcut = _outcome(request)
        original = _Pairer.everyone_meets_half
        try:
            _Pairer.everyone_meets_half = lambda self: False  # type: ignore[method-assign]
            full = _outcome(request)
        finally:
            _Pairer.everyone_meets_half = original  # type: ignore[method-assign]
        assert with_shortcut == full, number


def test_the_dirac_shortcut_is_taken_on_a_young_odd_field(monkeypatch: pytest.MonkeyPatch) -> None:
    """(the property above compares something: the shortcut does run)"""
    seen: Counter[str] = Counter()
    _spy(monkeypatch, _Pairer, "everyone_meets_half", seen)
    tournament = generate(GeneratorSettings(players=9, rounds=3, seed=4))
    pair_round(request_for(replace(tournament, rounds=tournament.rounds[:1]), 2))
    assert seen["everyone_meets_half True"]
