"""The remainder of a bracket: S1 and S2, exchanges, and who meets whom.

After the moved-down players have their opponents, the rest of the bracket is
split into S1 and S2 (C.04.3): the fewest exchanges, then the smallest
difference of the exchanged BSNs, preferring to give up the lowest S1 players
and to bring in the highest S2 players; then each S1 player, in order, meets
the highest S2 player the criteria allow. Each step is fixed with one matching,
as the endorsed engine does; blocks of S1 players are settled together when
the weights have room. Two shortcuts give the same pairings with fewer
matchings of the whole bracket: all S1 choices at once from an assignment of
S1 against S2 (checked, when who floats matters, by one small matching of the
floaters with the next scoregroup), and the exchange step without its
tie-break terms when no exchange is needed.
"""

from __future__ import annotations

try:
    import numpy as np
except ImportError:  # a browser under Pyodide: the same steps in plain Python
    from crosstable.core.pairing.dutch import purenp as np  # type: ignore[no-redef]

from crosstable.core.pairing.dutch.assignment import WIDTH_LIMIT, first_optimal_by_levels, fits
from crosstable.core.pairing.dutch.matching import MAX_BITS, StageGraph
from crosstable.core.pairing.dutch.state import BracketState
from crosstable.core.pairing.dutch.weights import SHORTLIST, exchange_shift, hint_range


class RemainderPairing(BracketState):
    """Pairs the remainder of a bracket (mixed into the engine)."""

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
        if self._bye_below(bracket, resident_end):
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
        packed, dead, low_width = self.packed, self.dead, layout.low_width
        high = [
            packed[key] >> low_width
            for a in s1
            for b in s2
            if (key := (a, b) if a < b else (b, a)) in packed and key not in dead
        ]
        if not high:
            return None
        floor = min(high)
        spread = (max(high) - floor) * (len(s1) + 1)
        room = MAX_BITS - 4 - spread.bit_length()
        residents = len(s1) + len(s2)
        block = self.block
        while low_bits(block + 1, residents, self.hint_scale) <= room:
            block += 1
        width = max(low_bits(block, residents, self.hint_scale), layout.low_width)
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
        self.split = None
        self.full = True  # a perfect matching of the two groups: nothing left over

    def _settle_locally(
        self,
        s1: list[int],
        s2: list[int],
        plan: tuple[int, int, int, list[int]],
        matched: set[int],
    ) -> bool:
        """Each S1 player takes the highest S2 player the criteria allow, all
        at once (see :mod:`assignment`). False when the weights are too wide
        for exact int64 arithmetic: the caller then goes step by step."""
        _, _, floor, slots = plan
        choice = self._first_choice(s1, s2, floor)
        if choice is None:
            return False
        self._take(s1, choice, matched)
        chosen = set(choice)
        left = [b for b in s2 if b not in chosen]
        for b, slot in zip(left, slots, strict=True):
            self.mate[b] = slot
        return True

    def _first_choice(self, s1: list[int], s2: list[int], floor: int) -> list[int] | None:
        """The S2 partner of each S1 player, each the highest one possible in
        turn, the S2 players left over floating at no difference of criteria;
        None when the weights are too wide or the present matching is not
        optimal on these terms."""
        low_width = self.stage_data.layout.low_width
        packed, dead, mate = self.packed, self.dead, self.mate
        size = len(s2)
        settle = len(s1)
        column = {b: k for k, b in enumerate(s2)}
        values: list[list[int]] = []
        edges: list[list[bool]] = []
        widest = 0
        for a in s1:
            row_values = [0] * size
            row_edges = [False] * size
            for k, b in enumerate(s2):
                key = (a, b)
                if b > a and key in packed and key not in dead:
                    value = (packed[key] >> low_width) - floor
                    row_values[k] = value
                    row_edges[k] = True
                    widest = max(widest, value)
            values.append(row_values)
            edges.append(row_edges)
        if fits(widest.bit_length(), size) and LEVEL_BITS is None:
            levels = [values]
        else:
            found = self._levels(values, edges, floor, size)
            if found is None:
                return None
            levels = found
        edge = np.ones((size, size), dtype=np.bool_)  # floater slots: anyone
        weights = []
        for level in levels:
            weight = np.zeros((size, size), dtype=np.int64)
            if settle:
                weight[:settle] = np.array(level, dtype=np.int64)
            weights.append(weight)
        if settle:
            edge[:settle] = np.array(edges, dtype=np.bool_)
        start = np.empty(size, dtype=np.int64)
        taken = set()
        for r, a in enumerate(s1):
            start[r] = column[mate[a]]
            taken.add(mate[a])
        floaters = [b for b in s2 if b not in taken]
        for r, b in enumerate(floaters, start=settle):
            start[r] = column[b]
        choice = first_optimal_by_levels(weights, edge, start, settle)
        if choice is None:
            return None
        return [s2[k] for k in choice]

    def _levels(
        self, values: list[list[int]], edges: list[list[bool]], floor: int, size: int
    ) -> list[list[list[int]]] | None:
        """``values`` (the criteria above the tie-breaks, less ``floor``) cut
        at field boundaries into levels narrow enough for int64, the highest
        first; None when a single field is too wide. The layout leaves every
        field room for the largest sum of the fields below it, so comparing
        the levels in order compares the values."""
        layout = self.stage_data.layout
        low_width = layout.low_width
        limit = WIDTH_LIMIT - size.bit_length() - 3 if LEVEL_BITS is None else LEVEL_BITS
        shifts = sorted({place - low_width for place in layout.shift.values()})
        shifts.append(layout.bits - low_width)
        cuts = [0]
        previous = 0
        for place in shifts:
            if place - cuts[-1] > limit:
                if previous == cuts[-1] or place - previous > limit:
                    return None
                cuts.append(previous)
            previous = place
        levels: list[list[list[int]]] = [
            [[0] * len(row) for row in values] for _ in range(len(cuts))
        ]
        for r, row in enumerate(values):
            for k, value in enumerate(row):
                if not edges[r][k]:
                    continue
                rest = value + floor  # the packed fields themselves
                for index, cut in enumerate(reversed(cuts)):
                    part = (rest + ((1 << cut) >> 1)) >> cut
                    rest -= part << cut
                    levels[index][r][k] = part
        for level in levels:
            parts = [p for r, row in enumerate(level) for k, p in enumerate(row) if edges[r][k]]
            least = min(parts, default=0)
            if not fits((max(parts, default=0) - least).bit_length(), size):
                return None
            for r, row in enumerate(level):
                for k in range(len(row)):
                    if edges[r][k]:
                        row[k] -= least
        return levels

    def _take(self, s1: list[int], partners: list[int], matched: set[int]) -> None:
        mate = self.mate
        for a, partner in zip(s1, partners, strict=True):
            mate[a] = partner
            mate[partner] = a
            matched.add(a)
            matched.add(partner)
            self.alive.discard(a)
            self.alive.discard(partner)
            self.pairs.append((a, partner))

    def _settle_with_floaters(
        self,
        s1: list[int],
        s2: list[int],
        bracket: list[int],
        resident_end: int,
        matched: set[int],
    ) -> bool:
        """The choices of S1 players at once when who floats is not free.

        The S2 players left over float to the next scoregroup, and the fields
        of the pairs made there (C8) rank above colours and floats (C10-C21).
        The present matching is optimal, so its floaters already reach the
        best C8 value there is. Relax the floaters' constraints (any S2
        player may float, as in :meth:`_settle_locally`) and take the first
        optimal choice of that easier problem; if the players it leaves to
        float reach the same C8 value with the rest of the bracket, it is
        optimal for the real problem too, and first among its optimal
        pairings (every one of them is optimal in the relaxed problem). One
        small matching checks that, instead of one matching of the whole
        bracket per block of S1 players. False when the check fails: the
        caller then goes step by step."""
        if self.full or self.single or self._bye_below(bracket, resident_end):
            return False
        low_width = self.stage_data.layout.low_width
        packed, dead, mate = self.packed, self.dead, self.mate
        high = [
            packed[(a, b)] >> low_width
            for a in s1
            for b in s2
            if b > a and (a, b) in packed and (a, b) not in dead
        ]
        if not high:
            return False
        choice = self._first_choice(s1, s2, min(high))
        if choice is None:
            return False
        taken = {mate[a] for a in s1}
        chosen = set(choice)
        if chosen != taken:
            members = set(s1) | set(s2)
            rest = [v for v in bracket if v in self.alive and v not in members]
            floating = [b for b in s2 if b not in chosen]
            partners = self._float_rest([b for b in s2 if b not in taken], floating, rest)
            if partners is None:
                return False
            for v, partner in partners.items():
                mate[v] = partner
        self._take(s1, choice, matched)
        return True

    def _bye_below(self, bracket: list[int], resident_end: int) -> bool:
        """May the PAB come from the next scoregroup (C9 looks at it then)?"""
        return bool(
            self.n % 2
            and resident_end < len(bracket)
            and self.bye_score >= self.players[bracket[resident_end]].pairing_score
        )

    def _float_rest(
        self, now: list[int], then: list[int], rest: list[int]
    ) -> dict[int, int] | None:
        """Partners for the floaters ``then`` and the players ``rest`` (the
        next scoregroup and moved-down players not paired here) when they
        reach the value the floaters ``now`` reach with them in the present
        matching; None when they do not (or the field below cannot absorb
        who is left over)."""
        mate = self.mate

        def weight(key: tuple[int, int]) -> int | None:
            if key not in self.packed or key in self.dead:
                return None
            return self.packed[key] + self.low.get(key, 0) * self.low_scale + self.hint.get(key, 0)

        inside = set(now) | set(rest)
        present = 0
        for v in inside:
            partner = mate[v]
            if v < partner and partner in inside:
                value = weight((v, partner))
                if value is not None:
                    present += value
        vertices = sorted({*then, *rest})
        floating = set(then)
        edges = []
        for index, a in enumerate(vertices):
            for b in vertices[index + 1 :]:
                if a in floating and b in floating:
                    continue  # two S2 players do not meet once S1 is fixed
                value = weight((a, b))
                if value is not None:
                    edges.append((a, b, value))
        graph = StageGraph(vertices, edges, None, self.stage_data.layout.bits, perfect=False)
        partners = graph.solve()
        reached = sum(weight((v, partner)) or 0 for v, partner in partners.items() if v < partner)
        if reached != present:
            return None
        leftover = frozenset(v for v, partner in partners.items() if partner == v)
        completion = self.completion.of(leftover)
        if completion is None:
            return None
        partners.update(completion)
        return partners

    def _without_exchange(self, remainder: list[int], pairs: int) -> dict[int, int] | None:
        """The matching the exchange terms would give, found without them when
        no exchange is needed.

        The terms favour the first ``pairs`` players of the remainder (S1) as
        the higher player of a pair; a matching that pairs every one of them
        with a lower remainder player gets the largest sum of terms there is.
        If the best matching without S1-S1 and S2-S2 edges weighs as much as
        the best matching (both before the terms), it is best with the terms
        too. Two matchings on weights with few distinct values are much
        quicker than one on weights that differ at every edge.
        """
        if self.full or self.hint:
            return None
        inside = set(remainder)
        s1 = set(remainder[:pairs])

        def across(a: int, b: int) -> bool:
            return a not in inside or b not in inside or (a in s1) != (b in s1)

        anything = self.graph.best()
        restricted = self.graph.best(across)
        if anything is None or restricted is None or restricted[1] != anything[1]:
            return None
        mate = restricted[0]
        if any(mate.get(a, a) not in inside or mate[a] < a for a in s1):
            return None
        return mate

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
            found = self._without_exchange(remainder, pairs)
            for a_index, a in enumerate(remainder):
                value = low_value(a_index)
                for b in remainder[a_index + 1 :]:
                    if self._has(a, b):
                        self._set_low(a, b, value)
            self._solve(found)
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
        if plan is not None and self._settle_locally(s1, s2, plan, matched):
            return
        if plan is None and self._settle_with_floaters(s1, s2, bracket, resident_end, matched):
            return
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


# bits of one level of the S1/S2 assignment's weights; None: as wide as int64
# allows, and one level whenever the weights fit (a test forces narrow levels)
LEVEL_BITS: int | None = None


def low_bits(block: int, residents: int, scale: int) -> int:
    """Bits for the choice field when ``block`` S1 players are settled at once."""
    bound: int = max((SHORTLIST + 1) ** block, residents + 2) * scale + hint_range(residents)
    return (2 * bound).bit_length() + 1
