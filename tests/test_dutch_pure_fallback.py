"""The Dutch engine without numpy (issue 28 item 5: a browser under Pyodide has no numpy
from the package registries): the engine's array steps in plain Python
(crosstable.core.pairing.dutch.purenp), chosen at import time, give the same pairings as
numpy on generated tournaments, round after round, with rustworkx or networkx."""

from __future__ import annotations

import subprocess
import sys
from types import ModuleType

import numpy
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from crosstable.core.errors import CrosstableError
from crosstable.core.model import Tournament
from crosstable.core.pairing.dutch import (
    assignment,
    completion,
    criteria,
    matching,
    nx_matching,
    purenp,
    remainder,
    state,
    weights,
)
from crosstable.core.pairing.dutch.generator import GeneratorSettings, generate

ARRAY_MODULES: tuple[ModuleType, ...] = (
    assignment,
    completion,
    criteria,
    remainder,
    state,
    weights,
)


def without_numpy(wanted: GeneratorSettings, networkx: bool) -> Tournament:
    with pytest.MonkeyPatch.context() as patch:
        for module in ARRAY_MODULES:
            patch.setattr(module, "np", purenp)
        if networkx:
            patch.setattr(matching, "rx", nx_matching)
        return generate(wanted)


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(2, 18),
    rounds=st.integers(1, 6),
    seed=st.integers(0, 10**6),
    draw_rate=st.sampled_from([0.0, 0.3, 0.8]),
    half_bye_rate=st.sampled_from([0.0, 0.1]),
    forfeit_rate=st.sampled_from([0.0, 0.1]),
    networkx=st.booleans(),
)
def test_r_x_7_plain_python_pairs_every_generated_round_as_numpy_does(
    players: int,
    rounds: int,
    seed: int,
    draw_rate: float,
    half_bye_rate: float,
    forfeit_rate: float,
    networkx: bool,
) -> None:
    wanted = GeneratorSettings(
        players,
        min(rounds, max(1, players - 1)),
        seed=seed,
        draw_rate=draw_rate,
        half_bye_rate=half_bye_rate,
        forfeit_rate=forfeit_rate,
    )
    try:
        native = generate(wanted)
    except CrosstableError:
        assume(False)  # a field the engine cannot pair at all (too many rounds for it)
        return
    assert without_numpy(wanted, networkx) == native


def test_r_x_7_the_arrays_follow_numpy_on_the_engine_s_own_steps() -> None:
    for np in (numpy, purenp):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(assignment, "np", np)
            w = np.array([[3, 1, 0], [1, 2, 5], [0, 4, 1]], dtype=np.int64)
            start = np.array([0, 2, 1], dtype=np.int64)
            assert assignment.first_optimal_assignment(w, w > 0, start, 3) == [0, 2, 1]
            assert assignment.first_optimal_assignment(w, w >= 0, start[[1, 0, 2]], 3) is None
    ok = purenp.array([[True, False], [False, True]])
    assert purenp.where(ok, purenp.array([[1, 2], [3, 4]]), -9).tolist() == [[1, -9], [-9, 4]]
    assert [r.tobytes() for r in ok] == [b"\x01\x00", b"\x00\x01"]
    kinds, first = purenp.unique(purenp.array([4, 2, 4, 1]), return_index=True)
    assert (kinds.tolist(), first.tolist()) == ([1, 2, 4], [3, 1, 0])


def test_r_x_7_without_numpy_and_rustworkx_the_engine_imports_the_fallbacks() -> None:
    script = (
        "import sys\n"
        "sys.modules['numpy'] = sys.modules['rustworkx'] = None\n"
        "from crosstable.core.pairing.dutch import assignment, matching, pair_round\n"
        "from crosstable.core.pairing.dutch.model import Competitor, PairingRequest\n"
        "print(assignment.np.__name__, matching.rx.__name__)\n"
        "print(pair_round(PairingRequest(1, 3, tuple(Competitor(s) for s in range(1, 6)))))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    lines = done.stdout.splitlines()
    assert lines[0].split() == [
        "crosstable.core.pairing.dutch.purenp",
        "crosstable.core.pairing.dutch.nx_matching",
    ], done.stderr
    assert lines[1] == "Pairing(round=1, boards=((1, 3), (4, 2)), bye=5, absent=())"
