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

from crosstable.core.model import Colour
from crosstable.core.pairing.dutch.colours import board_order, colour_of
from crosstable.core.pairing.dutch.completion import Completion
from crosstable.core.pairing.dutch.criteria import compatibility
from crosstable.core.pairing.dutch.matching import (
    NoValidPairingError,
    StageGraph,
    perfect_matching,
)
from crosstable.core.pairing.dutch.model import Pairing, PairingRequest
from crosstable.core.pairing.dutch.players import Float, PlayerState, build_states
from crosstable.core.pairing.dutch.remainder import RemainderPairing
from crosstable.core.pairing.dutch.weights import EdgeFields, exchange_shift


def pair_round(request: PairingRequest) -> Pairing:
    """Pair the next round of a Dutch Swiss.

    >>> from crosstable.core.pairing.dutch.model import Competitor
    >>> request = PairingRequest(1, 3, tuple(Competitor(s) for s in range(1, 6)))
    >>> pair_round(request)
    Pairing(round=1, boards=((1, 3), (4, 2)), bye=5, absent=())
    """
    return _Pairer(request).run()


class _Pairer(RemainderPairing):
    """One round's pairing: brackets top down, then colours and board order."""

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
        self.allowed = compatibility(players, self.topscorer, request.forbidden)
        # one byte per pair (a list of lists would take 8 bytes a pair)
        self.compat: list[bytes] = [row.tobytes() for row in self.allowed]
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
        if self._uniform():
            # one scoregroup of players without history (round 1, typically):
            # every pairing is as good as any other, so the first candidate of
            # C.04.3 is the answer: S1[i] against S2[i], the last player left
            # over for the PAB
            half = self.n // 2
            self.pairs = [(i, i + half) for i in range(half)]
            return self._result()
        if self.n % 2:
            self._choose_bye_score()
        self.candidates = [
            p.bye_eligible and p.pairing_score <= self.bye_score for p in self.players
        ]
        self.fields = EdgeFields(self)
        self._brackets()
        return self._result()

    def _uniform(self) -> bool:
        """Every pair may meet and weighs the same, and anyone may take the PAB."""
        players = self.players
        first = players[0].pairing_score
        return all(
            p.pairing_score == first
            and p.played_games == 0
            and p.floats == (Float.NONE, Float.NONE)
            and (p.bye_eligible or self.n % 2 == 0)
            for p in players
        ) and bool(self.allowed.sum() == self.n * (self.n - 1))

    def _choose_bye_score(self) -> None:
        """C4/C5: the lowest score at which a PAB still leaves the rest pairable."""
        players = self.players
        scores = sorted({p.pairing_score for p in players})
        level = {s: i for i, s in enumerate(scores)}
        top = players[0].pairing_score
        eligible = [p.pairing_score for p in players if p.bye_eligible]
        if eligible and min(eligible) < top and self.everyone_meets_half():
            # everyone may meet at least half the field: by Dirac's theorem the
            # field has a Hamiltonian cycle, so whoever takes the PAB, the rest
            # pair up along it; the lowest eligible score is the answer (the
            # matching below, of every pair of the field, is not needed)
            self.bye_score = min(eligible)
            self._rank_unplayed()
            return
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
        self._rank_unplayed()

    def everyone_meets_half(self) -> bool:
        """Whether every player may meet at least half the field (Dirac's condition)."""
        return self.n >= 3 and 2 * int(self.allowed.sum(axis=1).min()) >= self.n

    def _rank_unplayed(self) -> None:
        """C9: candidates on the PAB score ranked by the games they played."""
        counts = sorted(
            (p.played_games for p in self.players if p.pairing_score == self.bye_score),
            reverse=True,
        )
        for rank, games in enumerate(counts):
            self.unplayed_rank[games] = rank

    # ---------------------------------------------------------------- solving

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
                exact = self.completion.exact(leftover)
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
        self.bracket = bracket
        self.split = None
        inside = set(bracket)
        self.outside = [v for v in sorted(self.alive) if v not in inside]
        self.whole_field = False
        self.preset_pairs = None
        if not movers:
            # a homogeneous bracket: its remainder is the whole bracket, so the
            # exchange terms can go into the first matching already (S1 size
            # guessed; checked in _remainder)
            residents = bracket[:resident_end]
            preset = self.preset_pairs = len(residents) // 2
            shift = exchange_shift(len(residents))
            value_of = {a: ((int(k < preset) << shift) - k) * 2 for k, a in enumerate(residents)}
            resident_end_vertex = residents[-1]
            self.low = {
                key: value
                for key in stage.packed
                if key[1] <= resident_end_vertex and (value := value_of[key[0]])
            }
        self.full = self.single_initial and bool(self.outside)
        if self.full:
            self.graph = self._full_graph()
        else:
            low = self.low
            if low:
                edges = [(a, b, w + low.get((a, b), 0)) for (a, b), w in stage.packed.items()]
            else:
                edges = [(a, b, w) for (a, b), w in stage.packed.items()]
            split = self._split_graph(bracket, resident_end, edges)
            if split is None:
                split = StageGraph(bracket, edges, None, stage.layout.bits, perfect=False)
            self.graph = split
            del edges  # the graph has them: free the list while the bracket is paired
        self.completion = Completion(
            self.outside, bracket, self.compat, self.allowed, self.candidates
        )
        found = None
        if self.preset_pairs is not None:
            found = self._without_exchanges(bracket[:resident_end], self.preset_pairs)
        self._solve(found)
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
