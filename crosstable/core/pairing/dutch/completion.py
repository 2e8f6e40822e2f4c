"""Completion (C4): can the players below the bracket absorb the leftovers?

A bracket is paired together with the next scoregroup only; the players below
must then be able to pair among themselves and with whoever is left over (one
of them taking the PAB when their number is odd). Dirac's theorem settles most
cases at once (minimum degree at least half the group gives a Hamiltonian
cycle, so any one player can sit out and the rest pair up); otherwise an
explicit matching decides.
"""

from __future__ import annotations

try:
    import numpy as np
except ImportError:  # a browser under Pyodide: the same steps in plain Python
    from crosstable.core.pairing.dutch import purenp as np  # type: ignore[no-redef]

from crosstable.core.pairing.dutch.matching import NoValidPairingError, StageGraph


class Completion:
    """The players below one bracket and what they can absorb."""

    def __init__(
        self,
        outside: list[int],
        bracket: list[int],
        compat: list[bytes],
        allowed: np.ndarray[tuple[int, int], np.dtype[np.bool_]],
        candidates: list[bool],
    ) -> None:
        self.outside = outside
        self.compat = compat
        self.candidates = candidates
        self.cache: dict[frozenset[int], dict[int, int] | None] = {}
        vertices = [*bracket, *outside]
        if outside:
            counts = allowed[np.ix_(vertices, outside)].sum(axis=1)
            self.degree = dict(zip(vertices, counts.tolist(), strict=True))
        else:
            self.degree = dict.fromkeys(vertices, 0)

    def of(self, leftover: frozenset[int]) -> dict[int, int] | None:
        """Partners for the ``leftover`` players (themselves for the PAB) in a
        completion of the field below, or None when there is none."""
        if leftover in self.cache:
            return self.cache[leftover]
        group = [*self.outside, *leftover]
        size = len(group)
        result: dict[int, int] | None = None
        if size == 0:
            result = {}
        elif (
            size >= 3
            and self._dirac(group, leftover)
            and (size % 2 == 0 or any(self.candidates[v] for v in group))
        ):
            filler = self.outside[0] if self.outside else None
            result = {v: (filler if filler is not None else v) for v in leftover}
        if result is None:
            result = self.exact(leftover)
        self.cache[leftover] = result
        return result

    def _dirac(self, group: list[int], leftover: frozenset[int]) -> bool:
        compat = self.compat
        need = (len(group) + 1) // 2
        degree = self.degree
        for v in group:
            extra = sum(1 for x in leftover if x != v and compat[v][x])
            if degree[v] + extra < need:
                return False
        return True

    def exact(self, leftover: frozenset[int]) -> dict[int, int] | None:
        """An explicit completion (an unweighted perfect matching)."""
        group = [*self.outside, *leftover]
        compat = self.compat
        edges = [(a, b, 1) for k, a in enumerate(group) for b in group[k + 1 :] if compat[a][b]]
        candidates = [v for v in group if self.candidates[v]] if len(group) % 2 else None
        graph = StageGraph(group, edges, candidates, 2)
        try:
            mate = graph.solve()
        except NoValidPairingError:
            return None
        return {v: mate[v] for v in leftover}
