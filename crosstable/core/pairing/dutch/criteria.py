"""Absolute criteria between two players: who may meet whom this round.

C1 (no rematch of a game played over the board), prohibited pairings (TRF 260
/ XXP) and C3 (two players with the same absolute colour preference do not
meet, unless one of them is a topscorer in the last round).
"""

from __future__ import annotations

try:
    import numpy as np
except ImportError:  # a browser under Pyodide: the same steps in plain Python
    from crosstable.core.pairing.dutch import purenp as np  # type: ignore[no-redef]

from crosstable.core.model import Colour
from crosstable.core.pairing.dutch.players import PlayerState


def compatibility(
    players: list[PlayerState], topscorer: list[bool], forbidden: frozenset[frozenset[int]]
) -> np.ndarray[tuple[int, int], np.dtype[np.bool_]]:
    """C1 and C3 (and prohibited pairings) as a matrix: may ``i`` meet ``j``?"""
    n = len(players)
    white = np.array([p.absolute and p.preference is Colour.WHITE for p in players], dtype=bool)
    black = np.array([p.absolute and p.preference is Colour.BLACK for p in players], dtype=bool)
    top = np.array(topscorer, dtype=bool)
    clash = np.outer(white, white) | np.outer(black, black)
    clash &= ~(top[:, None] | top[None, :])
    allowed = ~clash
    np.fill_diagonal(allowed, False)
    index = {p.start: v for v, p in enumerate(players)}
    for v, p in enumerate(players):
        for start in p.opponents:
            other = index.get(start)
            if other is not None:
                allowed[v, other] = allowed[other, v] = False
    for pair in forbidden:
        members = [index[s] for s in pair if s in index]
        if len(members) == 2:
            a, b = members
            allowed[a, b] = allowed[b, a] = False
    assert allowed.shape == (n, n)
    return allowed
