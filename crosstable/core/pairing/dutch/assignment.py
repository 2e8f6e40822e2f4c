"""The S1/S2 choices of a bracket without one matching per choice.

Once S1 and S2 are fixed and the quality criteria no longer depend on which
S2 players float (see ``RemainderPairing._local_plan``), the Dutch procedure
asks for the *first* candidate in generation order among those with the best
criteria: S1[0] meets the highest S2 player it can, then S1[1], and so on.

That is the lexicographically first perfect matching among the optimal ones
of a bipartite graph (S1 players and floater slots against S2 players, edge
weight = the criteria). Linear-programming duality gives it cheaply:

* dual values for an optimal matching (one Bellman-Ford pass over the
  matrix) mark the *tight* edges, those whose weight equals the sum of the two
  duals; a perfect matching is optimal exactly when it uses tight edges only;
* each S1 player in turn then takes the first S2 player on a tight edge for
  which the players not yet settled still have a perfect matching of tight
  edges: one alternating-path search each, instead of a weighted matching.

All arithmetic is on integers (numpy int64), so the result is exact.
"""

from __future__ import annotations

try:
    import numpy as np
    import numpy.typing as npt
except ImportError:  # a browser under Pyodide: the same steps in plain Python
    from crosstable.core.pairing.dutch import purenp as np  # type: ignore[no-redef]

    npt = np  # type: ignore[misc]

Matrix = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]
Vector = npt.NDArray[np.int64]

# weights must stay far below 2**63 while sums of up to n of them are formed
WIDTH_LIMIT = 58


def fits(spread_bits: int, size: int) -> bool:
    """Can weights of ``spread_bits`` bits be summed over ``size`` edges in int64?"""
    return spread_bits + size.bit_length() + 1 <= WIDTH_LIMIT


def first_optimal_assignment(
    weight: Matrix, edge: Mask, start: Vector, settle: int
) -> list[int] | None:
    """Columns for rows ``0…settle-1``, each the first one possible in turn.

    ``weight[r, c]`` is the value of the edge between row ``r`` and column
    ``c`` where ``edge[r, c]`` is true; rows and columns are equally many and
    ``start`` (row -> column) is a maximum-weight perfect matching. Rows from
    ``settle`` on (floater slots) take whatever is left. Returns None when
    ``start`` is not optimal (the caller then solves another way).

    >>> w = np.array([[1, 1], [1, 1]], dtype=np.int64)
    >>> first_optimal_assignment(w, w > 0, np.array([1, 0]), 2)
    [0, 1]
    >>> w = np.array([[0, 1], [1, 1]], dtype=np.int64)
    >>> first_optimal_assignment(w, w >= 0, np.array([1, 0]), 2)
    [1, 0]
    """
    return first_optimal_by_levels([weight], edge, start, settle)


def first_optimal_by_levels(
    weights: list[Matrix], edge: Mask, start: Vector, settle: int
) -> list[int] | None:
    """:func:`first_optimal_assignment` for weights too wide for int64, given
    as levels compared in order (the highest first), each level's sums over
    any assignment too small to change the order of the levels above it.

    The optimal assignments of the first level are the perfect matchings of
    its tight edges; among them, those of the next level are the perfect
    matchings of the tight edges that level's duals mark on that subgraph,
    and so on down: the tight edges of the last level are those of the whole
    weight.
    """
    size = len(start)
    tight = edge
    for weight in weights:
        narrower = _tight_edges(weight, tight, start)
        if narrower is None:
            return None
        tight = narrower
    match_col = start.astype(np.int64)  # row -> column
    match_row = np.empty(size, dtype=np.int64)  # column -> row
    match_row[match_col] = np.arange(size)
    free_col = np.ones(size, dtype=np.bool_)  # columns not settled yet
    free_row = np.ones(size, dtype=np.bool_)
    result: list[int] = []
    for row in range(settle):
        for col in np.flatnonzero(tight[row] & free_col).tolist():
            if match_col[row] == col or _reroute(
                tight, match_col, match_row, free_row, free_col, row, col
            ):
                break
        else:  # pragma: no cover - the current partner always qualifies
            return None
        col = int(match_col[row])
        free_row[row] = False
        free_col[col] = False
        result.append(col)
    return result


def _tight_edges(weight: Matrix, edge: Mask, start: Vector) -> Mask | None:
    """Edges that some optimal perfect matching may use, or None if ``start``
    is not optimal.

    Duals: columns get ``v`` with ``v[c] >= v[start[r]] + w[r, c] - w[r, start[r]]``
    for every edge (longest paths from the matched edges), rows get
    ``u[r] = w[r, start[r]] - v[start[r]]``; an edge is tight when
    ``u[r] + v[c] == w[r, c]``.
    """
    size = len(start)
    rows = np.arange(size)
    own = weight[rows, start]
    floor = np.int64(-(1 << 61))
    gain = np.where(edge, weight - own[:, None], floor)
    v = np.zeros(size, dtype=np.int64)
    for _ in range(size + 1):
        reach = (v[start][:, None] + gain).max(axis=0)
        better = np.maximum(v, reach)
        if np.array_equal(better, v):
            break
        v = better
    else:
        return None  # a gaining cycle: ``start`` is not optimal
    u = own - v[start]
    tight: Mask = edge & (u[:, None] + v[None, :] == weight)
    return tight


def _reroute(
    tight: Mask,
    match_col: Vector,
    match_row: Vector,
    free_row: Mask,
    free_col: Mask,
    row: int,
    col: int,
) -> bool:
    """Give ``col`` to ``row`` if the unsettled rest can still be matched on
    tight edges: an alternating path from the row that loses ``col`` to the
    column ``row`` gives up. Updates the matching and returns True if so."""
    start = int(match_row[col])
    target = int(match_col[row])
    allowed = free_col.copy()
    allowed[col] = False
    parent = np.full(len(match_col), -1, dtype=np.int64)
    frontier = np.array([start], dtype=np.int64)
    while frontier.size:
        reach = tight[frontier] & allowed
        seen: Mask = np.asarray(reach.any(axis=0))
        cols = np.flatnonzero(seen)
        if not cols.size:
            return False
        parent[cols] = frontier[reach[:, cols].argmax(axis=0)]
        allowed[cols] = False
        if seen[target]:
            break
        frontier = match_row[cols]
        frontier = frontier[free_row[frontier]]
    else:
        return False
    # flip the path: target <- parent row, whose old column goes to the next
    current = target
    while True:
        owner = int(parent[current])
        previous = int(match_col[owner])
        match_col[owner] = current
        match_row[current] = owner
        if owner == start:
            break
        current = previous
    match_col[row] = col
    match_row[col] = row
    return True
