"""The remainder's shortcuts pair exactly as the step-by-step procedure does.

After the moved-down players are placed, the rest of a bracket can be settled
in three ways (``crosstable/core/pairing/dutch/remainder.py``): all S1 choices on
S1 and S2 alone when the floaters are free (``_local_plan``), all S1 choices at
once checked by one small matching of the floaters with the next scoregroup
(``_settle_with_floaters``), or one S1 player after another with a matching of
the whole bracket each time. The first two are shortcuts; on random neutral
histories (a greedy Dutch-like pairer that is none of the engines, with byes,
absences, forfeits and withdrawals) the round paired with the shortcuts must be
the round paired without them, or be refused the same way.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bench.bench_dutch_shapes import ROUNDS, greedy_event
from crosstable.core.pairing.dutch import pair_round, request_for
from crosstable.core.pairing.dutch.matching import NoValidPairingError
from crosstable.core.pairing.dutch.remainder import RemainderPairing

SHAPES = {
    "plain": {},
    "byes": {"half_bye": 0.08, "absence": 0.08, "forfeit": 0.08},
    "withdrawn": {"withdraw": 0.05},
}


def _outcome(players: int, seed: int, shape: str) -> object:
    tournament, absent = greedy_event(players, seed, **SHAPES[shape])
    request = request_for(tournament, ROUNDS + 1, absent=absent, total_rounds=9)
    try:
        pairing = pair_round(request)
    except NoValidPairingError as refused:
        return str(refused)
    return (pairing.boards, pairing.bye)


def _step_by_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """No shortcut: every S1 player settled by a matching of the whole bracket."""
    monkeypatch.setattr(RemainderPairing, "_local_plan", lambda self, *args: None)
    monkeypatch.setattr(RemainderPairing, "_settle_with_floaters", lambda self, *args: False)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(min_value=12, max_value=150),
    seed=st.integers(min_value=0, max_value=100_000),
    shape=st.sampled_from(sorted(SHAPES)),
)
@example(players=60, seed=4, shape="withdrawn")  # the floater check refuses a choice here
@example(players=100, seed=2, shape="withdrawn")
def test_the_remainder_shortcuts_pair_as_step_by_step(players: int, seed: int, shape: str) -> None:
    fast = _outcome(players, seed, shape)
    with pytest.MonkeyPatch.context() as monkeypatch:
        _step_by_step(monkeypatch)
        slow = _outcome(players, seed, shape)
    assert fast == slow


def test_both_shortcuts_are_taken_on_neutral_histories(monkeypatch: pytest.MonkeyPatch) -> None:
    """(the property above compares something: each shortcut runs, and holds, on such
    histories, and the floaters' check also turns a choice down, which the property's
    examples include: a shortcut without the check pairs them differently)"""
    seen: Counter[str] = Counter()
    checks = (("_local_plan", None), ("_settle_with_floaters", False), ("_float_rest", None))
    for name, failed in checks:
        original = getattr(RemainderPairing, name)

        def spy(
            self: Any, *args: Any, _name: str = name, _failed: object = failed, _of: Any = original
        ) -> Any:
            result = _of(self, *args)
            seen[f"{_name} {result is not _failed}"] += 1
            return result

        monkeypatch.setattr(RemainderPairing, name, spy)
    for seed in range(12):
        for shape in sorted(SHAPES):
            _outcome(40, seed, shape)
    _outcome(60, 4, "withdrawn")
    assert seen["_local_plan True"] and seen["_settle_with_floaters True"], seen
    assert seen["_float_rest True"] and seen["_float_rest False"], seen
