"""The graph of one bracket between successive matchings, and its edits.

Every step of the Dutch procedure changes a few edge weights (a tie-break
bonus, a removed edge, a finalised pair) and solves again; this class keeps the
weights, the current best matching (``mate``) and the players still to pair.
"""

from __future__ import annotations

from collections.abc import KeysView
from fractions import Fraction

try:
    import numpy as np
except ImportError:  # a browser under Pyodide: the same steps in plain Python
    from crosstable.core.pairing.dutch import purenp as np  # type: ignore[no-redef]

from crosstable.core.pairing.dutch.completion import Completion
from crosstable.core.pairing.dutch.matching import MAX_BITS, Squeeze, StageGraph
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
    compat: list[bytes]  # compat[i][j]: 1 when i and j may meet
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
    base: KeysView[tuple[int, int]]
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
    bracket: list[int]
    split: Split | None

    def bye_candidate(self, v: int) -> bool:
        """C2 and C5: may ``v`` receive the PAB (eligible, at most the PAB score)?"""
        return self.candidates[v]

    def _solve(self, found: dict[int, int] | None = None) -> None:
        """Solve the bracket's graph (or take ``found``, a matching known to be
        optimal for it) and record the partners."""
        mate = self.graph.solve() if found is None else found
        split = self.split
        if split is not None and not self.full:
            below = split.partners(mate, self)
            if below is None:
                # the bracket and the next scoregroup are tied together after
                # all: solve them together for the rest of this bracket
                self.split = None
                self.graph = self._joint_graph()
                mate = self.graph.solve()
            else:
                if split.dummy is not None:
                    del mate[split.dummy]
                mate.update(below)
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

    def edge_weight(self, key: tuple[int, int]) -> int:
        """The present weight of a live edge of the bracket."""
        return self.packed[key] + self.low.get(key, 0) * self.low_scale + self.hint.get(key, 0)

    def _split_graph(
        self, bracket: list[int], resident_end: int, edges: list[tuple[int, int, int]]
    ) -> StageGraph | None:
        """The bracket without the next scoregroup, when that is worth trying.

        Pairs inside the bracket (C6) outweigh everything about the next
        scoregroup, so when the bracket pairs fully (all but one player, when
        odd) the next scoregroup only meets that one floater: its best
        pairing can be found apart from the bracket's. The floater is left to
        a stand-in vertex joined to every bracket player, weighing what the
        pairs of the next scoregroup can reach at best with a floater of that
        score; each solve then checks that its floater reaches it (see
        :class:`Split`). Large brackets only: a smaller matching is quick.
        """
        below = bracket[resident_end:]
        if len(bracket) < SPLIT_SIZE or not below or self.single:
            return None
        first_below = below[0]
        layout = self.stage_data.layout
        inner = bracket[:resident_end]
        inner_edges = [e for e in edges if e[1] < first_below]
        below_edges = [e for e in edges if e[0] >= first_below]
        dummy = None
        squeeze = self._squeeze(len(inner))
        if len(inner) % 2:
            dummy = self.n + 1
            floats = {
                v: layout.pack({"next": 1, ("next-scores", self.players[v].pairing_score): 1})
                for v in inner
            }
            inner_edges += [(v, dummy, weight) for v, weight in floats.items()]
            self.split = Split(below, below_edges, dummy, floats)
            return StageGraph(
                [*inner, dummy], inner_edges, None, layout.bits, perfect=False, squeeze=squeeze
            )
        self.split = Split(below, below_edges, dummy, {})
        return StageGraph(inner, inner_edges, None, layout.bits, perfect=False, squeeze=squeeze)

    def _squeeze(self, inner: int) -> Squeeze | None:
        """Narrower weights for the bracket solved apart (``inner`` players):
        of the next scoregroup's fields only the stand-in's one edge has any."""
        layout = self.stage_data.layout
        if layout.bits + 2 <= SQUEEZE_FROM:
            return None
        reach = inner % 2
        tighter: dict[object, int] = {"next": reach}
        tighter.update((("next-scores", score), reach) for score in self.fields.scores)
        return layout.squeezed(tighter)

    def _without_exchanges(self, residents: list[int], s1_size: int) -> dict[int, int] | None:
        """The first matching of a homogeneous bracket solved apart, when it
        needs no exchange: then it is found without the exchange terms.

        Those terms (on the edges inside the bracket) favour the first
        ``s1_size`` residents as the higher player of a pair; every matching
        that pairs each of them with a player below the first ``s1_size``
        gets the largest sum of terms there is. So if a matching of S1 with
        S2 alone (and S2 with the floater's stand-in) reaches the best value
        the weights without terms allow, it is optimal with the terms too.
        Two matchings on weights with few distinct values are much quicker
        than one on weights that differ at every edge. None when the
        bracket needs an exchange (or is not solved apart).
        """
        split = self.split
        if split is None or self.full or self.low_scale != 1 or self.hint:
            return None
        top = set(residents[:s1_size])
        dummy = split.dummy
        if dummy is not None:
            top.add(dummy)
        first = split.first
        edges = [(a, b, w) for (a, b), w in self.packed.items() if b < first]
        if dummy is not None:
            edges += [(v, dummy, weight) for v, weight in split.floats.items()]
        vertices = [*residents] if dummy is None else [*residents, dummy]
        bits = self.stage_data.layout.bits
        squeeze = self._squeeze(len(residents))
        graph = StageGraph(vertices, edges, None, bits, perfect=False, squeeze=squeeze)
        best = _value(graph.solve(), edges)
        across = [e for e in edges if (e[0] in top) != (e[1] in top)]
        mate = StageGraph(vertices, across, None, bits, perfect=False, squeeze=squeeze).solve()
        if any(v == partner for v, partner in mate.items()) or _value(mate, across) != best:
            return None
        return mate

    def _joint_graph(self) -> StageGraph:
        """The bracket with the next scoregroup, with the present weights."""
        alive = self.alive
        vertices = [v for v in self.bracket if v in alive]
        edges = [
            (key[0], key[1], self.edge_weight(key))
            for key in self.packed
            if key[0] in alive and key[1] in alive and key not in self.dead
        ]
        return StageGraph(vertices, edges, None, self.stage_data.layout.bits, perfect=False)

    def _full_graph(self) -> StageGraph:
        """The whole field, with the bracket's current weights (slow, exact)."""
        self.whole_field = True
        self.split = None
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
        if self.split is not None:
            self.split.changed(key)
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
        if self.split is not None:
            self.split.changed(key)
        self.graph.remove_edge(key[0], key[1])

    def _has(self, a: int, b: int) -> bool:
        key = (a, b) if a < b else (b, a)
        return key in self.base and key not in self.dead


def _value(mate: dict[int, int], edges: list[tuple[int, int, int]]) -> int | None:
    """The weight of a matching (None if it leaves a vertex unpaired)."""
    weight = {(a, b): w for a, b, w in edges}
    total = 0
    for v, partner in mate.items():
        if partner == v:
            return None
        if v < partner:
            total += weight[(v, partner)]
    return total


SPLIT_SIZE = 200  # players of a bracket with its next scoregroup worth solving apart
# bits of weight from which a bracket solved apart drops the room the next
# scoregroup's fields take (wider than the compiled matcher takes)
SQUEEZE_FROM = MAX_BITS


class Split:
    """The next scoregroup of a bracket solved apart from the bracket.

    ``below``: the next scoregroup, ``edges`` its own edges (fixed while the
    bracket is paired); ``dummy``: the stand-in taking the bracket's floater
    when the bracket is odd, ``floats`` its edge weight per bracket player
    (a pair of the next bracket with that player as the higher one).
    """

    def __init__(
        self,
        below: list[int],
        edges: list[tuple[int, int, int]],
        dummy: int | None,
        floats: dict[int, int],
    ) -> None:
        self.below = below
        self.first = below[0]
        self.edges = edges
        self.dummy = dummy
        self.floats = floats
        self.known: dict[int | None, dict[int, int] | None] = {}

    def changed(self, key: tuple[int, int]) -> None:
        """An edge changed: forget what depended on an edge to the next scoregroup."""
        if key[1] >= self.first:
            self.known.clear()

    def partners(self, mate: dict[int, int], state: BracketState) -> dict[int, int] | None:
        """Partners in the next scoregroup (and the floater's) for the bracket's
        matching ``mate``, or None when the split does not hold: the bracket
        did not pair fully, or its floater cannot reach the best the next
        scoregroup allows a floater (then a joint solve may do better)."""
        dummy = self.dummy
        floater = None
        for v, partner in mate.items():
            if partner == v:
                return None  # a second player left over: the groups interact
            if v == dummy:
                floater = partner
        if floater in self.known:
            return self.known[floater]
        result = self._solve(floater, state)
        self.known[floater] = result
        return result

    def _solve(self, floater: int | None, state: BracketState) -> dict[int, int] | None:
        # every pair of the next scoregroup weighs the same, and a pair with
        # the floater (higher score) a little more but less than two pairs: so
        # the weights 2 and 3 order these matchings as the packed ones do
        edges = [(a, b, 2) for a, b, _ in self.edges]
        vertices = list(self.below)
        if floater is not None:
            vertices.append(floater)
            for b in self.below:
                key = (floater, b)
                if key in state.packed and key not in state.dead:
                    edges.append((floater, b, 3))
        partners = StageGraph(vertices, edges, None, 4, perfect=False).solve()
        if floater is not None:
            # the best a floater can do: paired, and as many pairs as the
            # group allows
            pairs = sum(1 for v, partner in partners.items() if v < partner)
            if partners[floater] == floater or pairs != len(vertices) // 2:
                return None
        return partners
