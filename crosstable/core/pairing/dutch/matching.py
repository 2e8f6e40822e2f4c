"""Maximum-weight perfect matching with lexicographic (multi-field) weights.

The Dutch criteria form a long list compared in order; as one integer the
weight of a pairing can need far more than the 128 bits the compiled matcher
(rustworkx) accepts. :class:`Layout` packs only the fields that can vary in the
bracket being paired, each just wide enough for the largest sum a matching can
reach, so that the packed integer orders matchings exactly as the list does.
When even that does not fit, the exact (slower) pure-Python matcher of networkx
takes over.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from crosstable.core.errors import RuleError

try:
    import rustworkx as rx
except ImportError:  # a browser under Pyodide: networkx's matcher, the same pairings, slower
    from crosstable.core.pairing.dutch import nx_matching as rx  # type: ignore[no-redef]

FieldKey = Hashable
MAX_BITS = 120


class NoValidPairingError(RuleError):
    """No pairing satisfies the absolute criteria (C1–C3) and completion (C4)."""


class Layout:
    """Bit positions of the weight fields, highest priority first.

    ``bounds`` maps each field to the largest absolute sum any matching can
    reach; fields with bound 0 take no room (nor do fields left out because a
    higher field already determines them). ``low_bound`` is the same for the
    lowest field (tie-breaks of the procedure).

    >>> layout = Layout([("a", 3), ("b", 0), ("c", 1)], low_bound=2)
    >>> layout.pack({"a": 1, "c": -1}, 1) > layout.pack({"c": 1}, 2)
    True
    """

    def __init__(self, bounds: Sequence[tuple[FieldKey, int]], low_bound: int) -> None:
        # ``reach``: the largest absolute sum of the fields placed so far. Two
        # matchings differ there by at most twice that, so the next field
        # starts just above 2 * reach: one unit of it outweighs any difference
        # below, and no bit is spent beyond that.
        self.bounds = list(bounds)
        self.low_bound = low_bound
        reach = low_bound
        position = (2 * reach).bit_length()
        self.low_width = position
        self.shift: dict[FieldKey, int] = {}
        for key, bound in reversed(bounds):
            if bound <= 0:
                continue
            self.shift[key] = position
            reach += bound << position
            position = (2 * reach).bit_length()
        self.bits = position

    def squeezed(self, tighter: dict[FieldKey, int]) -> Squeeze | None:
        """The same fields with smaller ``tighter`` bounds, for a graph whose
        matchings are known to stay within them (None when no field moves)."""
        bounds = [(key, min(bound, tighter.get(key, bound))) for key, bound in self.bounds]
        narrow = Layout(bounds, self.low_bound)
        if narrow.shift == self.shift:
            return None
        return Squeeze(self, narrow)

    def pack(self, fields: dict[FieldKey, int], low: int = 0) -> int:
        total = low
        shift = self.shift
        for key, value in fields.items():
            place = shift.get(key)
            if place is not None:
                total += value << place
        return total


class Squeeze:
    """Packed weights of a wide layout moved to a narrower one.

    When every matching of a graph keeps some fields' sums within smaller
    bounds than the bracket's (the next scoregroup's fields, on a graph that
    holds only the floater's edge to it), those fields can sit lower: the
    weights then order that graph's matchings exactly as before, in fewer
    bits (so the compiled matcher takes them).
    """

    def __init__(self, wide: Layout, narrow: Layout) -> None:
        self.bits = narrow.bits
        # fields from the highest down to the lowest one that moves; the ones
        # below keep their place
        moved = [key for key, _ in wide.bounds if wide.shift.get(key) != narrow.shift.get(key)]
        self.cut = min(wide.shift[key] for key in moved if key in wide.shift)
        self.steps = [
            (wide.shift[key] - self.cut, narrow.shift.get(key))
            for key, _ in wide.bounds
            if key in wide.shift and wide.shift[key] >= self.cut
        ]
        self.moved: dict[int, int] = {}  # the part from ``cut`` up, once per value

    def __call__(self, weight: int) -> int:
        """``weight`` packed by the narrow layout. Each field's value is the
        nearest multiple of its unit: everything below it is less than half
        a unit in size."""
        cut = self.cut
        high = (weight + ((1 << cut) >> 1)) >> cut
        moved = self.moved.get(high)
        if moved is None:
            moved = self.moved[high] = self._move(high)
        return weight - (high << cut) + moved

    def _move(self, rest: int) -> int:
        moved = 0
        for wide, narrow in self.steps:
            value = (rest + ((1 << wide) >> 1)) >> wide
            rest -= value << wide
            if value:
                if narrow is None:
                    raise ValueError("a field outside the narrow layout's bounds")
                moved += value << narrow
        return moved


def perfect_matching(
    size: int, edges: Iterable[tuple[int, int, int]], bits: int
) -> list[int] | None:
    """A maximum-weight perfect matching of vertices ``0…size-1``, or None.

    Returns ``mate`` with ``mate[v]`` the partner of ``v``. Weights may be
    negative: every perfect matching has the same number of edges, so a common
    offset does not change which one is best.
    """
    edge_list = list(edges)
    if size == 0:
        return []
    if not edge_list:
        return None
    lowest = min(w for _, _, w in edge_list)
    offset = 1 - lowest if lowest < 1 else 0
    top = max(w for _, _, w in edge_list) + offset
    if top.bit_length() <= MAX_BITS and bits <= MAX_BITS + 2:
        graph = rx.PyGraph(node_count_hint=size, edge_count_hint=len(edge_list))
        graph.add_nodes_from(range(size))
        graph.add_edges_from([(a, b, w + offset) for a, b, w in edge_list])
        pairs = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=_identity)
    else:  # pragma: no cover - exercised only by very large brackets
        nx = _exact_matcher()
        nx_graph = nx.Graph()
        nx_graph.add_nodes_from(range(size))
        nx_graph.add_weighted_edges_from((a, b, w + offset) for a, b, w in edge_list)
        pairs = nx.max_weight_matching(nx_graph, maxcardinality=True)
    mate = [-1] * size
    for a, b in pairs:
        mate[a] = b
        mate[b] = a
    if any(m < 0 for m in mate):
        return None
    return mate


def _identity(weight: int) -> int:
    return weight


def _exact_matcher() -> Any:  # pragma: no cover - very large brackets only
    """networkx's pure-Python matcher takes integers of any size (slow)."""
    try:
        # deferred: optional, and needed only by brackets past 120 bits of weight
        import networkx  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise RuleError(
            "this bracket needs more than 120 bits of weight: install networkx "
            "for the exact (slower) matcher"
        ) from None
    return networkx


class StageGraph:
    """The players still to pair, as a graph kept between successive solves.

    With ``perfect`` False it is a plain maximum-weight matching: players left
    over are those the rest of the field absorbs (their own partner in the
    result), and the weights must be positive.

    Vertex ``dummy`` stands for the pairing-allocated bye when the number of
    players is odd: it is joined to every player who may receive it, so the
    best *perfect* matching places the bye too. Weights are shifted by a
    common offset so that the compiled matcher sees positive numbers only.
    """

    def __init__(
        self,
        vertices: Sequence[int],
        edges: Iterable[tuple[int, int, int]],
        bye_candidates: Sequence[int] | None,
        bits: int,
        perfect: bool = True,
        squeeze: Squeeze | None = None,
    ) -> None:
        self.perfect = perfect
        self.squeeze = squeeze
        if squeeze is not None:
            bits = squeeze.bits
        self.offset = 1 << (bits + 1) if perfect else 0
        self.compiled = bits + 2 <= MAX_BITS
        self.dummy = (max(vertices) + 1) if vertices else 0
        self.pending: dict[tuple[int, int], int] = {}
        self.vertices = set(vertices)
        offset = self.offset
        self.graph: rx.PyGraph[int, int] = rx.PyGraph(
            multigraph=True
        )  # edges are never repeated: no duplicate check
        self.graph.add_nodes_from(range(self.dummy + 1))
        keep = set(vertices)
        if bye_candidates is not None:
            keep.add(self.dummy)
        for node in range(self.dummy + 1):
            if node not in keep:
                self.graph.remove_node(node)
        if squeeze is not None:
            edges = [(a, b, squeeze(w)) for a, b, w in edges]
        edge_list = [(a, b, w + offset) for a, b, w in edges] if offset else list(edges)
        if bye_candidates is not None:
            edge_list += [(v, self.dummy, offset) for v in bye_candidates]
        self.graph.add_edges_from(edge_list)

    def set_weight(self, a: int, b: int, weight: int) -> None:
        """New weight for an edge; applied at the next solve."""
        if self.squeeze is not None:
            weight = self.squeeze(weight)
        self.pending[(a, b)] = weight + self.offset

    def remove_edge(self, a: int, b: int) -> None:
        self.pending.pop((a, b), None)
        if a in self.vertices and b in self.vertices:  # not a vertex left out of the graph
            self.graph.remove_edge(a, b)

    def remove_vertex(self, v: int) -> None:
        self.graph.remove_node(v)
        self.vertices.discard(v)

    def _flush(self) -> None:
        vertices = self.vertices
        update = self.graph.update_edge
        for (a, b), weight in self.pending.items():
            if a in vertices and b in vertices:
                update(a, b, weight)
        self.pending.clear()

    def best(
        self, keep: Callable[[int, int], bool] | None = None
    ) -> tuple[dict[int, int], int] | None:
        """A best matching of the edges ``keep`` accepts (all by default), as
        :meth:`solve` gives it, and its weight; None when the weights are too
        wide for the compiled matcher."""
        if not self.compiled:
            return None
        self._flush()
        graph = self.graph
        if keep is not None:
            graph = graph.copy()
            graph.remove_edges_from([(a, b) for a, b in graph.edge_list() if not keep(a, b)])
        pairs = rx.max_weight_matching(graph, max_cardinality=self.perfect, weight_fn=_identity)
        total = sum(graph.get_edge_data(a, b) for a, b in pairs)
        return self._result(pairs), total

    def solve(self) -> dict[int, int]:
        """Partner of every player; the bye's recipient is their own partner."""
        self._flush()
        if self.compiled:
            pairs = rx.max_weight_matching(
                self.graph, max_cardinality=self.perfect, weight_fn=_identity
            )
        else:  # pragma: no cover
            nx = _exact_matcher()
            nx_graph = nx.Graph()
            nx_graph.add_nodes_from(self.graph.node_indices())
            for a, b in self.graph.edge_list():
                nx_graph.add_edge(a, b, weight=self.graph.get_edge_data(a, b))
            pairs = nx.max_weight_matching(nx_graph, maxcardinality=self.perfect)
        return self._result(pairs)

    def _result(self, pairs: Iterable[tuple[int, int]]) -> dict[int, int]:
        mate: dict[int, int] = {}
        for a, b in pairs:
            mate[a] = b
            mate[b] = a
        result: dict[int, int] = {}
        for v in self.vertices:
            if v not in mate and not self.perfect:
                result[v] = v
                continue
            if v not in mate:
                raise NoValidPairingError(
                    "no pairing satisfies the absolute criteria and completion (C4)"
                )
            result[v] = v if mate[v] == self.dummy else mate[v]
        return result
