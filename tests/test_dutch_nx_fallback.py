"""The Dutch engine's matcher without rustworkx (issue 28 item 5: a browser under Pyodide
has no rustworkx): networkx's pure-Python matcher, chosen at import time, gives the same
pairings as rustworkx on generated tournaments, round after round."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.pairing.dutch import matching, nx_matching
from crosstable.core.pairing.dutch.generator import GeneratorSettings, generate
from crosstable.core.pairing.dutch.matching import NoValidPairingError


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 13),
    rounds=st.integers(1, 5),
    seed=st.integers(0, 10**6),
    draw_rate=st.sampled_from([0.0, 0.3, 0.8]),
    half_bye_rate=st.sampled_from([0.0, 0.1]),
    forfeit_rate=st.sampled_from([0.0, 0.1]),
)
def test_r_x_7_networkx_pairs_every_generated_round_as_rustworkx_does(
    players: int,
    rounds: int,
    seed: int,
    draw_rate: float,
    half_bye_rate: float,
    forfeit_rate: float,
) -> None:
    wanted = GeneratorSettings(
        players,
        min(rounds, max(1, players - 1)),
        seed=seed,
        draw_rate=draw_rate,
        half_bye_rate=half_bye_rate,
        forfeit_rate=forfeit_rate,
    )
    native = outcome(wanted)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(matching, "rx", nx_matching)
        fallback = outcome(wanted)
    assert fallback == native  # the same tournament, or the same round refused


def outcome(wanted: GeneratorSettings) -> object:
    """The generated tournament, or the refusal of a round the generator cannot pair (a
    generated history may leave none: both matchers must then refuse it alike)."""
    try:
        return generate(wanted)
    except NoValidPairingError as refused:
        return ("refused", str(refused))


def test_r_x_7_without_rustworkx_the_engine_imports_networkx_s_matcher() -> None:
    script = (
        "import sys\n"
        "sys.modules['rustworkx'] = None\n"
        "from crosstable.core.pairing.dutch import matching, pair_round\n"
        "from crosstable.core.pairing.dutch.model import Competitor, PairingRequest\n"
        "print(matching.rx.__name__)\n"
        "print(pair_round(PairingRequest(1, 3, tuple(Competitor(s) for s in range(1, 6)))))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    lines = done.stdout.splitlines()
    assert lines[0] == "crosstable.core.pairing.dutch.nx_matching", done.stderr
    assert lines[1] == "Pairing(round=1, boards=((1, 3), (4, 2)), bye=5, absent=())"
