"""The graph of one bracket between successive matchings, and its edits.

Every step of the Dutch procedure changes a few edge weights (a tie-break
bonus, a removed edge, a finalised pair) and solves again; this class keeps the
weights, the current best matching (``mate``) and the players still to pair.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from crosstable.core.pairing.dutch.completion import Completion
from crosstable.core.pairing.dutch.matching import StageGraph
from crosstable.core.pairing.dutch.model import PairingRequest
from crosstable.core.pairing.dutch.players import PlayerState
from crosstable.core.pairing.dutch.weights import EdgeFields, Stage


class BracketState:
    """Shared state of the pairing of one round (see :mod:`engine`)."""

    request: PairingRequest
    players: list[PlayerState]
    n: int
    played_rounds: int
    last_round: bool
    topscorer: list[bool]
    allowed: np.ndarray[tuple[int, int], np.dtype[np.bool_]]
    compat: list[list[bool]]
    alive: set[int]
    mate: list[int]
    pairs: list[tuple[int, int]]
    bye_score: Fraction
    single: bool
    single_initial: bool
    unplayed_rank: dict[int, int]
    candidates: list[bool]
    fields: EdgeFields
    # per bracket
    graph: StageGraph
    full: bool
    whole_field: bool
    stage_data: Stage
    base: set[tuple[int, int]]
    packed: dict[tuple[int, int], int]
    base_weight: dict[tuple[int, int], int]
    dead: set[tuple[int, int]]
    low: dict[tuple[int, int], int]
    hint: dict[tuple[int, int], int]
    low_scale: int
    hint_scale: int
    block: int
    outside: list[int]
    completion: Completion
    slots: dict[int, int]
    preset_pairs: int | None

    def bye_candidate(self, v: int) -> bool:
        """C2 and C5: may ``v`` receive the PAB (eligible, at most the PAB score)?"""
        return self.candidates[v]

    def _solve(self) -> None:
        mate = self.graph.solve()
        if not self.full:
            leftover = frozenset(v for v, partner in mate.items() if partner == v)
            completion = self.completion.of(leftover)
            if completion is None:
                # the rest of the field cannot absorb these players: solve the
                # whole field for the rest of this bracket
                self.full = True
                self.graph = self._full_graph()
                mate = self.graph.solve()
            else:
                mate.update(completion)
        for v, partner in mate.items():
            if v < self.n:
                self.mate[v] = self.slots.get(partner, partner)

    def _full_graph(self) -> StageGraph:
        """The whole field, with the bracket's current weights (slow, exact)."""
        self.whole_field = True
        stage = self.stage_data
        alive = sorted(self.alive)
        edges = [e for e in self.fields.full_edges(stage) if e[0] in self.alive]
        for key, packed in stage.packed.items():
            if key in self.dead or key[0] not in self.alive or key[1] not in self.alive:
                continue
            low = self.low.get(key, 0) * self.low_scale + self.hint.get(key, 0)
            edges.append((key[0], key[1], packed + low))
        candidates = [v for v in alive if self.bye_candidate(v)] if len(alive) % 2 else None
        return StageGraph(alive, edges, candidates, stage.layout.bits)

    def _finalize(self, a: int, b: int) -> None:
        self.alive.discard(a)
        self.alive.discard(b)
        self.graph.remove_vertex(a)
        self.graph.remove_vertex(b)
        self.pairs.append((a, b))

    def _set_low(self, a: int, b: int, value: int) -> None:
        key = (a, b) if a < b else (b, a)
        if key not in self.packed or key in self.dead:
            return
        if value:
            self.low[key] = value
        else:
            self.low.pop(key, None)
        weight = self.base_weight[key] + value * self.low_scale + self.hint.get(key, 0)
        self.graph.set_weight(key[0], key[1], weight)

    def _set_hint(self, a: int, b: int, value: int) -> None:
        if self.hint_scale == 1:
            return
        key = (a, b) if a < b else (b, a)
        self.hint[key] = value
        self._set_low(a, b, self.low.get(key, 0))

    def _kill(self, a: int, b: int) -> None:
        key = (a, b) if a < b else (b, a)
        if key in self.dead or key not in self.base:
            return
        self.dead.add(key)
        self.low.pop(key, None)
        self.graph.remove_edge(key[0], key[1])

    def _has(self, a: int, b: int) -> bool:
        key = (a, b) if a < b else (b, a)
        return key in self.base and key not in self.dead
