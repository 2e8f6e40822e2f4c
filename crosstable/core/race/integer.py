"""The race's questions as integer programmes, for point systems whose games do not all
hand out the same points (3-1-0): exact whatever the size, where the branch and bound of
:mod:`crosstable.core.race.feasible` would have to try too many games' results.

A pair of players with ``k`` games left is two whole numbers: ``a`` games won by the
first, ``b`` by the second (``a + b <= k``; the rest drawn). A player's extras (points
above a loss in each remaining game, scaled) are linear in them:
``draw * k + (win - draw) * a - draw * b`` for the first. Every question is then a set
of linear inequalities over these numbers, solved exactly by HiGHS's branch and cut
(SciPy's ``milp``); every answer found is checked again in whole numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

#: (i, j, games left between them)
Pairs = Sequence[tuple[int, int, int]]


class _Programme:
    """Rows of ``lower <= coefficients · x <= upper`` over the pairs' (a, b) numbers."""

    def __init__(self, pairs: Pairs, win: int, draw: int) -> None:
        self.pairs = [p for p in pairs if p[2] > 0]
        self.win, self.draw = win, draw
        self.width = 2 * len(self.pairs)
        self.rows: list[np.ndarray] = []
        self.lower: list[float] = []
        self.upper: list[float] = []
        for g, (_i, _j, k) in enumerate(self.pairs):
            row = np.zeros(self.width)
            row[2 * g] = row[2 * g + 1] = 1
            self.add(row, 0, k)

    def extras(self, player: int) -> tuple[np.ndarray, int]:
        """The player's extras as (coefficients, constant)."""
        row = np.zeros(self.width)
        constant = 0
        for g, (i, j, k) in enumerate(self.pairs):
            if player == i:
                mine, theirs = 2 * g, 2 * g + 1
            elif player == j:
                mine, theirs = 2 * g + 1, 2 * g
            else:
                continue
            constant += self.draw * k
            row[mine] += self.win - self.draw
            row[theirs] -= self.draw
        return row, constant

    def add(self, row: np.ndarray, lower: float, upper: float) -> None:
        self.rows.append(row)
        self.lower.append(lower)
        self.upper.append(upper)

    def solve(self, objective: np.ndarray | None = None) -> list[int] | None:
        """A whole-number solution (the least ``objective`` when given), or None."""
        # deferred: SciPy's optimiser costs about a second of CPU to import, and only a
        # question the search cannot settle needs it (not every process that ranks)
        from scipy.optimize import (  # type: ignore[import-untyped]
            Bounds,
            LinearConstraint,
            milp,
        )

        if not self.pairs:
            fits = all(lo <= 0 <= up for lo, up in zip(self.lower, self.upper, strict=True))
            return [] if fits else None
        result = milp(
            np.zeros(self.width) if objective is None else objective,
            integrality=np.ones(self.width),
            bounds=Bounds(0, np.array([k for _i, _j, k in self.pairs for _ in (0, 1)])),
            constraints=LinearConstraint(
                np.vstack(self.rows), np.array(self.lower), np.array(self.upper)
            ),
        )
        if result.status == 2:  # infeasible
            return None
        if result.status != 0 or result.x is None:
            # no time or node limit is set: HiGHS always ends optimal or infeasible
            raise RuntimeError(f"HiGHS ended without an answer: {result.message}")
        x = [round(v) for v in result.x]
        for row, lo, up in zip(self.rows, self.lower, self.upper, strict=True):
            value = sum(int(c) * v for c, v in zip(row, x, strict=True) if c)
            if not lo <= value <= up:
                raise RuntimeError("HiGHS's answer does not hold in whole numbers")
        return x

    def value(self, x: list[int], player: int) -> int:
        row, constant = self.extras(player)
        return constant + sum(int(c) * v for c, v in zip(row, x, strict=True) if c)


def below(
    caps: Mapping[int, int],
    pairs: Pairs,
    win: int,
    draw: int,
    floors: Mapping[int, int] | None = None,
) -> bool:
    """Whether the games can end with each player in ``caps`` at most their cap and each
    in ``floors`` at least their floor; a player in neither wins every game against
    them (the best there is for a cap, and no floor of theirs to keep)."""
    kept = set(caps) | set(floors or {})
    programme = _Programme([p for p in pairs if p[0] in kept and p[1] in kept], win, draw)
    for player, cap in caps.items():
        row, constant = programme.extras(player)
        programme.add(row, -np.inf, cap - constant)
    for player, floor in (floors or {}).items():
        row, constant = programme.extras(player)
        programme.add(row, floor - constant, np.inf)
    return programme.solve() is not None


def above(needs: Mapping[int, int], pairs: Pairs, win: int, draw: int) -> bool:
    """Whether the games among the players of ``needs`` can end with each getting at
    least their need."""
    inside = [p for p in pairs if p[0] in needs and p[1] in needs]
    return below({}, inside, win, draw, needs)


def least_first(player: int, base: Sequence[int], pairs: Pairs, win: int, draw: int) -> int | None:
    """The fewest extras ``player`` can make in a completion where nobody among the real
    players ``0 … len(base) - 1`` ends above them (None: no such completion)."""
    rivals = _rivals(player, base, pairs, win)
    pairs = [(i, j, k) for i, j, k in pairs if i in rivals or j in rivals or player in (i, j)]
    programme = _Programme(pairs, win, draw)
    mine, constant = programme.extras(player)
    for other in sorted(rivals):
        row, theirs = programme.extras(other)
        programme.add(row - mine, -np.inf, base[player] + constant - base[other] - theirs)
    x = programme.solve(mine)
    return None if x is None else programme.value(x, player)


def _rivals(player: int, base: Sequence[int], pairs: Pairs, win: int) -> set[int]:
    """The real players who may end above ``player`` in some completion that matters:
    one who cannot pass the player's lowest score even winning every game left against
    the others still in question can be given losses in those games (that only helps)."""
    rivals = {j for j in range(len(base)) if j != player}
    while True:
        degree = dict.fromkeys(rivals, 0)
        for i, j, k in pairs:
            for a, b in ((i, j), (j, i)):
                if a in degree and (b in rivals or b == player):
                    degree[a] += k
        out = {j for j in rivals if base[j] + win * degree[j] <= base[player]}
        if not out:
            return rivals
        rivals -= out
