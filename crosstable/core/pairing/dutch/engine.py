"""The FIDE Dutch system (C.04.3, rules in force from 1 February 2026).

Brackets are paired from the top scoregroup down. In each bracket every
candidate pairing is judged by the quality criteria in priority order:

* completion (C4) and the PAB recipient's score (C5) for the whole field;
* the number of pairs in the bracket (C6) and the scores of the players who
  float down (C7);
* the number and scores of pairs the next bracket can make (C8);
* the PAB recipient's unplayed games (C9), when the PAB falls in the bracket;
* colours: topscorers' |CD| > 2 and three in a row (C10, C11), preferences
  (C12) and strong preferences (C13);
* repeated floats one and two rounds back, as counts and by score (C14–C21);

then by the order in which the rules generate candidates: which moved-down
players are paired and with whom, the fewest exchanges between S1 and S2 with
the smallest difference of BSNs, and S1 players taking the highest possible S2
opponents. The criteria become the fields of an edge weight and a maximum-weight
perfect matching of the remaining players finds the best bracket pairing; each
generation-order choice is then fixed in turn, as the endorsed engine
bbpPairings does, so both produce the same pairing.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from crosstable.core.model import Colour
from crosstable.core.pairing.dutch.colours import board_order, colour_of
from crosstable.core.pairing.dutch.matching import (
    MAX_BITS,
    NoValidPairingError,
    StageGraph,
    perfect_matching,
)
from crosstable.core.pairing.dutch.model import Pairing, PairingRequest
from crosstable.core.pairing.dutch.players import PlayerState, build_states
from crosstable.core.pairing.dutch.weights import (
    SHORTLIST,
    EdgeFields,
    Stage,
    exchange_shift,
    hint_range,
)

Fields = dict[object, int]


def pair_round(request: PairingRequest) -> Pairing:
    """Pair the next round of a Dutch Swiss.

    >>> from crosstable.core.pairing.dutch.model import Competitor
    >>> request = PairingRequest(1, 3, tuple(Competitor(s) for s in range(1, 6)))
    >>> pair_round(request)
    Pairing(round=1, boards=((1, 3), (4, 2)), bye=5, absent=())
    """
    return _Pairer(request).run()


class _Pairer:
    graph: StageGraph
    full: bool
    stage_data: Stage
    block: int
    low_scale: int
    hint_scale: int
    outside: list[int]
    base_weight: dict[tuple[int, int], int]
    slots: dict[int, int]
    whole_field: bool

    def __init__(self, request: PairingRequest) -> None:
        self.request = request
        players, self.states = build_states(request)
        players.sort(key=lambda p: (-p.pairing_score, p.rank))
        self.players = players
        self.n = n = len(players)
        self.played_rounds = request.round - 1
        self.last_round = last_round = request.round >= request.total_rounds
        threshold = Fraction(self.played_rounds) * max(request.win, request.draw) / 2
        self.topscorer = [last_round and p.pairing_score > threshold for p in players]
        self.allowed = _compatibility(players, self.topscorer, request.forbidden)
        self.compat: list[list[bool]] = self.allowed.tolist()
        sizes: dict[Fraction, int] = {}
        for p in players:
            sizes[p.pairing_score] = sizes.get(p.pairing_score, 0) + 1
        self.group_bits = max(sizes.values(), default=1).bit_length()
        self.alive = set(range(n))
        self.mate = list(range(n))
        self.bye_score = Fraction(0)
        self.single_initial = False
        self.unplayed_rank: dict[int, int] = {}

    # ------------------------------------------------------------------ setup
    def run(self) -> Pairing:
        if self.n == 0:
            return Pairing(self.request.round, (), None, tuple(sorted(self.request.absent)))
        if self.n % 2:
            self._choose_bye_score()
        self.candidates = [
            p.bye_eligible and p.pairing_score <= self.bye_score for p in self.players
        ]
        self.fields = EdgeFields(self)
        self._brackets()
        return self._result()

    def bye_candidate(self, v: int) -> bool:
        """C2 and C5: may ``v`` receive the PAB (eligible, at most the PAB score)?"""
        return self.candidates[v]

    def _choose_bye_score(self) -> None:
        """C4/C5: the lowest score at which a PAB still leaves the rest pairable."""
        players = self.players
        scores = sorted({p.pairing_score for p in players})
        level = {s: i for i, s in enumerate(scores)}
        top = players[0].pairing_score
        unit = (self.n + 1).bit_length() + 1
        dummy = self.n
        edges = []
        for i in range(self.n):
            for j in range(i + 1, self.n):
                if self.compat[i][j]:
                    edges.append((i, j, int(players[j].pairing_score >= top)))
            if players[i].bye_eligible:
                edges.append((i, dummy, (len(scores) - level[players[i].pairing_score]) << unit))
        mate = perfect_matching(self.n + 1, edges, 0)
        if mate is None:
            raise NoValidPairingError(
                "no pairing satisfies the absolute criteria: every player would need "
                "an opponent they may not meet"
            )
        bye = mate[dummy]
        self.bye_score = players[bye].pairing_score
        if self.bye_score >= top:
            self.single_initial = all(
                mate[v] == dummy or players[mate[v]].pairing_score >= top
                for v in range(self.n)
                if players[v].pairing_score >= top
            )
        counts = sorted(
            (p.played_games for p in players if p.pairing_score == self.bye_score), reverse=True
        )
        for rank, games in enumerate(counts):
            self.unplayed_rank[games] = rank

    # ---------------------------------------------------------------- solving
    def _solve(self) -> None:
        mate = self.graph.solve()
        if not self.full:
            leftover = frozenset(v for v, partner in mate.items() if partner == v)
            completion = self._completion(leftover)
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

    def _local_plan(
        self, s1: list[int], s2: list[int], bracket: list[int], resident_end: int
    ) -> tuple[int, int, int, list[int]] | None:
        """Can the S1/S2 choices be made on the two groups alone?

        Yes when every S1 player meets an S2 player (always so) and the S2
        players left over (floaters) can be swapped freely: each goes to a
        player of the next scoregroup whom every S2 player may meet, and no PAB
        rule looks at them. Then the fields above colours are the same for every
        candidate pairing and are dropped, which leaves room to settle more S1
        players per matching. Returns (width, block, floor, floater slots).
        """
        if self.full or self.single:
            return None
        if (
            self.n % 2
            and resident_end < len(bracket)
            and self.bye_score >= self.players[bracket[resident_end]].pairing_score
        ):
            return None  # the PAB may come from the next bracket (C9 looks here)
        partners = {self.mate[a] for a in s1}
        floaters = [v for v in s2 if v not in partners]
        slots = []
        next_group = set(bracket[resident_end:])
        for v in floaters:
            partner = self.mate[v]
            if partner not in next_group:
                return None
            slots.append(partner)
        for x in s2:
            if any(not self.compat[x][slot] for slot in slots if slot != self.mate[x]):
                return None
        layout = self.stage_data.layout
        high = [
            self.packed[key] >> layout.low_width
            for a in s1
            for b in s2
            if (key := (a, b) if a < b else (b, a)) in self.packed and key not in self.dead
        ]
        if not high:
            return None
        floor = min(high)
        spread = (max(high) - floor) * (len(s1) + 1)
        room = MAX_BITS - 4 - spread.bit_length()
        residents = len(s1) + len(s2)
        block = self.block
        while _low_bits(block + 1, residents, self.hint_scale) <= room:
            block += 1
        width = max(_low_bits(block, residents, self.hint_scale), layout.low_width)
        if width > room:
            return None
        return width, block, floor, slots

    def _local_graph(
        self, s1: list[int], s2: list[int], plan: tuple[int, int, int, list[int]]
    ) -> None:
        width, block, floor, slots = plan
        layout = self.stage_data.layout
        self.block = block
        self.base_weight = {}
        edges = []
        for a in s1:
            for b in s2:
                key = (a, b) if a < b else (b, a)
                if key in self.packed and key not in self.dead:
                    base = ((self.packed[key] >> layout.low_width) - floor) << width
                    self.base_weight[key] = base
                    low = self.low.get(key, 0) * self.low_scale + self.hint.get(key, 0)
                    edges.append((key[0], key[1], base + low))
        # one stand-in per floater: any S2 player may take its place
        stand_ins = [self.n + 1 + k for k in range(len(slots))]
        for stand_in in stand_ins:
            edges += [(b, stand_in, 0) for b in s2]
        vertices = [*s1, *s2, *stand_ins]
        spread_bits = max(w for _, _, w in edges).bit_length() + len(s1).bit_length() + 1
        self.graph = StageGraph(vertices, edges, None, spread_bits)
        self.slots = dict(zip(stand_ins, slots, strict=True))
        self.full = True  # a perfect matching of the two groups: nothing left over

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

    def _outside_degrees(self, bracket: list[int]) -> dict[int, int]:
        vertices = [*bracket, *self.outside]
        if not self.outside:
            return dict.fromkeys(vertices, 0)
        counts = self.allowed[np.ix_(vertices, self.outside)].sum(axis=1)
        return dict(zip(vertices, counts.tolist(), strict=True))

    def _completion(self, leftover: frozenset[int]) -> dict[int, int] | None:
        """Can the players below the next scoregroup, with ``leftover``, all be
        paired (one of them taking the PAB when they are odd)? Returns partners
        for the leftover players (themselves for the PAB), or None."""
        if leftover in self.completions:
            return self.completions[leftover]
        group = [*self.outside, *leftover]
        size = len(group)
        result: dict[int, int] | None = None
        if size == 0:
            result = {}
        elif size >= 3 and self._dirac(group, leftover):
            odd = size % 2 == 1
            if not odd or any(self.bye_candidate(v) for v in group):
                filler = self.outside[0] if self.outside else None
                result = {v: (filler if filler is not None else v) for v in leftover}
        if result is None:
            result = self._explicit_completion(group, leftover)
        self.completions[leftover] = result
        return result

    def _dirac(self, group: list[int], leftover: frozenset[int]) -> bool:
        """Dirac: minimum degree at least half the group means a Hamiltonian
        cycle, so any one player can sit out and the rest pair up."""
        compat = self.compat
        need = (len(group) + 1) // 2
        degree = self.outside_degree
        for v in group:
            extra = sum(1 for x in leftover if x != v and compat[v][x])
            if degree[v] + extra < need:
                return False
        return True

    def _explicit_completion(
        self, group: list[int], leftover: frozenset[int]
    ) -> dict[int, int] | None:
        compat = self.compat
        edges = [(a, b, 1) for k, a in enumerate(group) for b in group[k + 1 :] if compat[a][b]]
        candidates = [v for v in group if self.bye_candidate(v)] if len(group) % 2 else None
        graph = StageGraph(group, edges, candidates, 2)
        try:
            mate = graph.solve()
        except NoValidPairingError:
            return None
        return {v: mate[v] for v in leftover}

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

    # --------------------------------------------------------------- brackets
    def _brackets(self) -> None:
        players = self.players
        n = self.n
        self.pairs: list[tuple[int, int]] = []
        self.dead: set[tuple[int, int]] = set()
        self.low: dict[tuple[int, int], int] = {}
        cursor = 0
        top = players[0].pairing_score
        group: list[int] = []
        while cursor < n and players[cursor].pairing_score >= top:
            group.append(cursor)
            cursor += 1
        self.single = self.single_initial
        bracket = group
        movers = 0  # number of MDPs at the front of ``bracket``
        first_resident = 0  # vertex of the first resident
        while len(bracket) > 1 or cursor < n:
            resident_end = len(bracket)
            next_vertex = first_resident + (resident_end - movers)
            next_score = players[cursor].pairing_score if cursor < n else None
            while cursor < n and players[cursor].pairing_score == next_score:
                bracket.append(cursor)
                cursor += 1
            self._stage(bracket, movers, resident_end, first_resident, next_vertex)
            # players left for the next bracket
            remaining: list[int] = []
            new_movers = 0
            single = n % 2 == 1 and next_score is not None and self.bye_score >= next_score
            if single and not self.whole_field:
                # who of the players left over takes the PAB matters here
                members = set(bracket)
                leftover = frozenset(
                    v
                    for v in bracket
                    if v in self.alive and (self.mate[v] == v or self.mate[v] not in members)
                )
                group = [*self.outside, *leftover]
                exact = self._explicit_completion(group, leftover)
                if exact is not None:
                    for v, partner in exact.items():
                        self.mate[v] = partner
            for position, v in enumerate(bracket):
                if position < resident_end and v not in self.alive:
                    continue
                remaining.append(v)
                if position < resident_end:
                    new_movers += 1
                if (
                    single
                    and next_score is not None
                    and players[self.mate[v]].pairing_score < next_score
                ):
                    single = False
            self.single = single
            bracket = remaining
            movers = new_movers
            first_resident = next_vertex

    def _stage(
        self, bracket: list[int], movers: int, resident_end: int, first_res: int, next_vertex: int
    ) -> None:
        self.dead = set()
        self.low = {}
        self.hint: dict[tuple[int, int], int] = {}
        stage = self.fields.stage(bracket, movers, resident_end, self.single)
        self.base, self.packed, self.hint_scale = stage.base, stage.packed, stage.hint_scale
        self.base_weight = self.packed
        self.slots = {}
        self.block = stage.block
        self.low_scale = 1
        self.stage_data = stage
        inside = set(bracket)
        self.outside = [v for v in sorted(self.alive) if v not in inside]
        self.completions: dict[frozenset[int], dict[int, int] | None] = {}
        self.whole_field = False
        self.full = self.single_initial and bool(self.outside)
        if self.full:
            self.graph = self._full_graph()
        else:
            edges = [(a, b, w) for (a, b), w in stage.packed.items()]
            self.graph = StageGraph(bracket, edges, None, stage.layout.bits, perfect=False)
            self.outside_degree = self._outside_degrees(bracket)
        self.preset_pairs: int | None = None
        if not movers:
            # a homogeneous bracket: its remainder is the whole bracket, so the
            # exchange terms can go into the first matching already (S1 size
            # guessed; checked in _remainder)
            residents = bracket[:resident_end]
            self.preset_pairs = len(residents) // 2
            shift = exchange_shift(len(residents))
            for a_index, a in enumerate(residents):
                value = ((int(a_index < self.preset_pairs) << shift) - a_index) * 2
                for b in residents[a_index + 1 :]:
                    if self._has(a, b):
                        self._set_low(a, b, value)
        self._solve()
        mate = self.mate

        def in_bracket(v: int) -> bool:
            return first_res <= mate[v] < next_vertex

        residents = bracket[movers:resident_end]
        matched: set[int] = set()
        players = self.players
        # which moved-down players are paired in this bracket
        remaining_total = remaining_matched = 0
        group_score: Fraction | None = None
        for position in range(movers):
            v = bracket[position]
            score = players[v].pairing_score
            if group_score is None or score < group_score:
                group_score = score
                remaining_total = remaining_matched = 0
                q = position
                while q < len(bracket) and players[bracket[q]].pairing_score >= group_score:
                    remaining_total += 1
                    if in_bracket(bracket[q]):
                        remaining_matched += 1
                    q += 1
            if not remaining_matched:
                continue
            if remaining_total <= remaining_matched:
                matched.add(v)
                continue
            remaining_total -= 1
            if not in_bracket(v):
                for r in residents:
                    if self._has(v, r):
                        self._set_low(v, r, 1)
                self._solve()
            if in_bracket(v):
                matched.add(v)
                remaining_matched -= 1
                for r in residents:
                    if self._has(v, r):
                        self._set_low(v, r, len(residents) + 1)
        # their opponents, highest resident first
        for position in range(movers):
            v = bracket[position]
            if v not in matched:
                continue
            addend = len(bracket)
            best = None
            for r in reversed(residents):
                if r in matched:
                    continue
                if self._has(v, r):
                    self._set_low(v, r, addend)
                    addend += 1
                    best = r
            if mate[v] != best:
                self._solve()
            partner = mate[v]
            matched.add(partner)
            self._finalize(v, partner)
        self._remainder(bracket, movers, resident_end, first_res, next_vertex, matched)

    def _remainder(
        self,
        bracket: list[int],
        movers: int,
        resident_end: int,
        first_res: int,
        next_vertex: int,
        matched: set[int],
    ) -> None:
        mate = self.mate
        remainder: list[int] = []
        pairs = 0
        for v in bracket[movers:resident_end]:
            if mate[v] < first_res:
                continue
            remainder.append(v)
            if mate[v] < v:
                pairs += 1
        size = len(remainder)
        shift = exchange_shift(len(bracket[movers:resident_end]))

        def low_value(index: int) -> int:
            return ((int(index < pairs) << shift) - index) * 2

        def down(v: int) -> bool:
            return v < mate[v] < next_vertex

        exchanges = sum(1 for v in remainder[:pairs] if not down(v))
        if self.preset_pairs is not None and self.preset_pairs != pairs:
            exchanges = 1  # the terms were set for another S1 size: set them again
        if exchanges and self.preset_pairs != pairs:
            # fewest exchanges, then the smallest difference of the exchanged BSNs
            # (when every S1 player already meets a lower one, nothing beats that)
            for a_index, a in enumerate(remainder):
                value = low_value(a_index)
                for b in remainder[a_index + 1 :]:
                    if self._has(a, b):
                        self._set_low(a, b, value)
            self._solve()
            exchanges = sum(1 for v in remainder[:pairs] if not down(v))
        # S1 players to give up, lowest first
        left = exchanges
        index = pairs
        while index > 0 and left:
            index -= 1
            a = remainder[index]
            value = low_value(index)
            if down(a):
                for b in remainder[index + 1 :]:
                    if self._has(a, b):
                        self._set_low(a, b, value - 1)
                self._solve()
            exchange = not down(a)
            left -= exchange
            for b in remainder[index + 1 :]:
                if exchange:
                    self._kill(a, b)
                elif self._has(a, b):
                    self._set_low(a, b, value)
        # S2 players to bring in, highest first
        left = exchanges
        for index in range(pairs, size):
            if left <= 1:
                break
            a = remainder[index]
            value = low_value(index)
            already = down(a)
            if not already:
                for b in remainder[index + 1 :]:
                    if self._has(a, b):
                        self._set_low(a, b, value + 1)
                self._solve()
            if down(a):
                left -= 1
                for b in remainder[:index]:
                    self._kill(a, b)
                for b in bracket[resident_end:]:
                    self._kill(a, b)
            if not already:
                for b in remainder[index + 1 :]:
                    if self._has(a, b):
                        self._set_low(a, b, value)
        # fix S1 and S2 and drop the tie-break terms
        s1 = [v for v in remainder if down(v)]
        s2 = [v for v in remainder if not down(v)]
        plan = self._local_plan(s1, s2, bracket, resident_end)
        local = plan is not None
        for a_index, a in enumerate(remainder):
            for b in remainder[a_index + 1 :]:
                key = (a, b)
                if not down(a) or down(b):
                    if local:
                        self.dead.add(key)  # the two groups get a graph of their own
                        self.low.pop(key, None)
                    else:
                        self._kill(a, b)
                elif local:
                    self.low.pop(key, None)
                else:
                    self._set_low(a, b, 0)
        # a hint below every criterion: earlier S1 players against higher S2
        # players, roughly as the choices below will go
        self.low_scale = self.hint_scale
        for i, a in enumerate(s1):
            for k, b in enumerate(s2):
                if a < b and self._has(a, b):
                    if local:
                        if self.hint_scale > 1:
                            self.hint[(a, b)] = -k * (len(s1) - i)
                    else:
                        self._set_hint(a, b, -k * (len(s1) - i))
        # each S1 player takes the highest S2 player the criteria allow. One
        # matching settles a block of S1 players at once, earlier players
        # first: each ranks its candidates down to its present opponent; a
        # player whose choice falls beyond that is settled again alone.
        if plan is not None:
            # the choices below concern these two groups only
            self._local_graph(s1, s2, plan)
        pending = list(s1)
        alone = False
        touched: list[tuple[int, int]] = []
        capacity = max((SHORTLIST + 1) ** self.block, size + 2)
        while pending:
            for a, b in touched:
                self._set_low(a, b, 0)
            touched = []
            # each player of the block ranks its candidates down to the one it
            # has now (and one more); earlier players weigh more
            block: list[tuple[int, list[int], int]] = []
            product = 1
            for a in pending[:1] if alone else pending:
                candidates = [b for b in s2 if b > a and b not in matched and self._has(a, b)]
                if alone:
                    radix = len(candidates) + 1
                else:
                    depth = candidates.index(mate[a]) if mate[a] in candidates else SHORTLIST
                    radix = min(depth + 2, len(candidates)) + 1
                if block and product * radix > capacity:
                    break
                block.append((a, candidates, radix))
                product *= radix
            settled = True
            taken: set[int] = set()
            weight = product
            for a, candidates, radix in block:
                weight //= radix
                for place, b in enumerate(candidates[: radix - 1]):
                    self._set_low(a, b, (radix - 1 - place) * weight)
                    touched.append((a, b))
                best = next((b for b in candidates if b not in taken), None)
                # the current matching is the block's best when each player has
                # the highest opponent the earlier ones left
                settled = settled and mate[a] == best
                taken.add(mate[a])
            if not settled:
                self._solve()
            done = 0
            for a, candidates, radix in block:
                partner = mate[a]
                if partner not in candidates[: radix - 1]:
                    break  # beyond what it ranked: settle it alone
                matched.add(a)
                matched.add(partner)
                self._finalize(a, partner)
                done += 1
            touched = [(a, b) for a, b in touched if a in self.alive and b in self.alive]
            pending = pending[done:]
            alone = done < len(block)

    # ----------------------------------------------------------------- result
    def _result(self) -> Pairing:
        players = self.players
        boards: list[tuple[PlayerState, PlayerState]] = []
        paired: set[int] = set()
        for a, b in self.pairs:
            paired.update((a, b))
            first, second = (a, b) if players[a].start < players[b].start else (b, a)
            p, q = players[first], players[second]
            if colour_of(p, q, self.request.initial_colour) is Colour.WHITE:
                boards.append((p, q))
            else:
                boards.append((q, p))
        leftover = [players[v].start for v in range(self.n) if v not in paired]
        if len(leftover) > 1:
            raise NoValidPairingError("the pairing left more than one player without an opponent")
        ordered = board_order(boards)
        return Pairing(
            round=self.request.round,
            boards=tuple((w.start, b.start) for w, b in ordered),
            bye=leftover[0] if leftover else None,
            absent=tuple(sorted(self.request.absent)),
        )


def _compatibility(
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


def _low_bits(block: int, residents: int, scale: int) -> int:
    """Bits for the choice field when ``block`` S1 players are settled at once."""
    bound: int = max((SHORTLIST + 1) ** block, residents + 2) * scale + hint_range(residents)
    return (2 * bound).bit_length() + 1
