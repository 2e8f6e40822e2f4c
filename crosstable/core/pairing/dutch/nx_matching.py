"""The matcher where rustworkx is not installed (a browser under Pyodide): the few
calls of rustworkx that :mod:`.matching` makes, answered by networkx's pure-Python
maximum-weight matching, which takes integers of any size.

The server keeps rustworkx (a hundred times faster); ``tests/test_dutch_nx_fallback.py``
shows that both give the same pairings on generated tournaments.

>>> graph = PyGraph()
>>> graph.add_nodes_from(range(4))
>>> graph.add_edges_from([(0, 1, 5), (2, 3, 5), (0, 2, 1), (1, 3, 1)])
>>> sorted(tuple(sorted(p)) for p in max_weight_matching(graph, max_cardinality=True))
[(0, 1), (2, 3)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import networkx  # type: ignore[import-untyped,unused-ignore]


class PyGraph:
    """An undirected graph with integer weights, in rustworkx's calls."""

    def __init__(
        self,
        multigraph: bool = True,
        node_count_hint: int | None = None,
        edge_count_hint: int | None = None,
    ) -> None:
        self.graph: Any = networkx.Graph()

    def __class_getitem__(cls, _item: object) -> type[PyGraph]:
        return cls

    def add_nodes_from(self, nodes: Iterable[int]) -> None:
        self.graph.add_nodes_from(nodes)

    def add_edges_from(self, edges: Iterable[tuple[int, int, int]]) -> None:
        for a, b, weight in edges:
            self.graph.add_edge(a, b, weight=weight)

    def remove_node(self, node: int) -> None:
        self.graph.remove_node(node)

    def remove_edge(self, a: int, b: int) -> None:
        self.graph.remove_edge(a, b)

    def remove_edges_from(self, edges: Iterable[tuple[int, int]]) -> None:
        self.graph.remove_edges_from(list(edges))

    def update_edge(self, a: int, b: int, weight: int) -> None:
        self.graph[a][b]["weight"] = weight

    def copy(self) -> PyGraph:
        twin = PyGraph()
        twin.graph = self.graph.copy()
        return twin

    def edge_list(self) -> list[tuple[int, int]]:
        return [(a, b) for a, b in self.graph.edges()]

    def get_edge_data(self, a: int, b: int) -> int:
        weight: int = self.graph[a][b]["weight"]
        return weight

    def node_indices(self) -> list[int]:
        return list(self.graph.nodes())


def max_weight_matching(
    graph: PyGraph,
    max_cardinality: bool = False,
    weight_fn: Callable[[int], int] | None = None,
) -> set[tuple[int, int]]:
    """The pairs of a maximum-weight matching (of most edges first with
    ``max_cardinality``), as rustworkx's function of that name gives them."""
    pairs: set[tuple[int, int]] = networkx.max_weight_matching(
        graph.graph, maxcardinality=max_cardinality
    )
    return pairs
