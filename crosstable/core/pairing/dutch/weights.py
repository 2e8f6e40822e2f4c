"""Edge weights of the Dutch matching: one field per quality criterion.

Field order is the order of the criteria; the matching maximises the fields
lexicographically. Fields about the bracket being paired count only pairs
whose lower player is in the bracket; the "next bracket" fields (C8) count
pairs whose lower player is in the next scoregroup. Criteria to minimise are
written as penalties (a negative count), which compares the same as bbpPairings'
"satisfied" counts because the number of pairs in the bracket is fixed first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import KeysView
from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from typing import Protocol

try:
    import numpy as np
    import numpy.typing as npt
except ImportError:  # a browser under Pyodide: the same steps in plain Python
    from crosstable.core.pairing.dutch import purenp as np  # type: ignore[no-redef]

    npt = np  # type: ignore[misc]

from crosstable.core.model import Colour
from crosstable.core.pairing.dutch.matching import MAX_BITS, Layout
from crosstable.core.pairing.dutch.players import Float, PlayerState

Fields = dict[object, int]
SHORTLIST = 15  # opponents an S1 player ranks when a block is settled together


@dataclass(frozen=True, slots=True)
class Stage:
    """The weights of one bracket: fields and packed weights of its edges."""

    base: KeysView[tuple[int, int]]  # the bracket's edges (compatible pairs)
    packed: dict[tuple[int, int], int]
    layout: Layout
    hint_scale: int  # 1 when there is no room for the S1/S2 hint
    block: int  # S1 players whose opponents one matching chooses together
    position: dict[int, int]  # the bracket and the next scoregroup: vertex -> place


class RoundInPairing(Protocol):
    """What the weights read of the round being paired (the engine's bracket state)."""

    @property
    def players(self) -> list[PlayerState]: ...
    @property
    def played_rounds(self) -> int: ...
    @property
    def last_round(self) -> bool: ...
    @property
    def allowed(self) -> np.ndarray[tuple[int, int], np.dtype[np.bool_]]: ...
    @property
    def compat(self) -> list[bytes]: ...
    @property
    def alive(self) -> set[int]: ...
    @property
    def bye_score(self) -> Fraction: ...
    @property
    def single_initial(self) -> bool: ...
    @property
    def unplayed_rank(self) -> dict[int, int]: ...


class EdgeFields:
    """Computes the weight fields of the edges for each bracket."""

    def __init__(self, pairer: RoundInPairing) -> None:
        self.pairer = pairer
        self.players = pairer.players
        self.scores = sorted({p.pairing_score for p in self.players}, reverse=True)
        self.bye_count = sum(1 for p in self.players if p.pairing_score == pairer.bye_score)
        # per player, computed once for every bracket: score level, C9 rank,
        # float flags (down one and two rounds ago, up as bits) and colour class
        position = {score: k for k, score in enumerate(self.scores)}
        self.level = [position[p.pairing_score] for p in self.players]
        self.c9_rank = [
            pairer.unplayed_rank.get(p.played_games, 0)
            if p.pairing_score == pairer.bye_score
            else 0
            for p in self.players
        ]
        rounds = pairer.played_rounds
        self.down = [
            tuple(rounds > back and p.floats[back] is Float.DOWN for back in (0, 1))
            for p in self.players
        ]
        self.up = [
            sum(1 << back for back in (0, 1) if rounds > back and p.floats[back] is Float.UP)
            for p in self.players
        ]
        classes: dict[tuple[object, ...], int] = {}
        self.colour_class = [
            classes.setdefault((p.preference, p.imbalance, p.repeated, p.strong), len(classes))
            for p in self.players
        ]

    def _c9(self, i: int, j: int) -> int:
        pairer = self.pairer
        value = 0
        for v in (i, j):
            p = self.players[v]
            if p.pairing_score == pairer.bye_score:
                value += pairer.unplayed_rank.get(p.played_games, 0)
        return value

    def base(self, i: int, j: int, lower_in_bracket: bool, single: bool) -> Fields:
        """Fields of the edge between ``i`` (higher) and ``j`` (lower)."""
        hi = self.players[i]
        lo = self.players[j]
        fields: Fields = {}
        if lower_in_bracket:
            fields["pairs"] = 1
            fields[("scores", hi.pairing_score)] = 1
        else:
            fields["next"] = 1
            fields[("next-scores", hi.pairing_score)] = 1
        if single:
            c9 = self._c9(i, j)
            if c9:
                fields["c9"] = c9
        if not lower_in_bracket:
            return fields
        _colour_fields(lo, hi, fields)
        rounds = self.pairer.played_rounds
        for back, keys in ((0, ("c14", "c15", "c18", "c19")), (1, ("c16", "c17", "c20", "c21"))):
            if rounds <= back:
                continue
            down_lo = lo.floats[back] is Float.DOWN
            down_hi = hi.floats[back] is Float.DOWN
            moved = hi.pairing_score > lo.pairing_score
            count = int(down_lo) + int(not moved and down_hi)
            if count:
                fields[keys[0]] = count
            if moved and lo.floats[back] is Float.UP:
                fields[keys[1]] = -1
                fields[(keys[3], hi.pairing_score)] = -1
            if down_lo:
                key = (keys[2], lo.pairing_score)
                fields[key] = fields.get(key, 0) + 1
            if down_hi:
                key = (keys[2], hi.pairing_score)
                fields[key] = fields.get(key, 0) + 1
        return fields

    def stage(self, bracket: list[int], movers: int, resident_end: int, single: bool) -> Stage:
        pairer = self.pairer
        position = {v: k for k, v in enumerate(bracket)}
        residents = resident_end - movers
        hint_bound = hint_range(residents)
        scale = 2 * hint_bound + 1
        block = 1
        layout = self._layout(bracket, movers, resident_end, single, scale, block)
        if layout.bits + 2 > MAX_BITS:
            scale = 1
            layout = self._layout(bracket, movers, resident_end, single, scale, block)
        else:
            spare = MAX_BITS - 2 - layout.bits
            block = 1 + spare // (SHORTLIST + 1).bit_length()
            while block > 1:
                wider = self._layout(bracket, movers, resident_end, single, scale, block)
                if wider.bits + 2 <= MAX_BITS:
                    layout = wider
                    break
                block -= 1
        packer = _Packer(self, layout, single)
        packed: dict[tuple[int, int], int] = {}
        weight = packer.weight
        # players with the same class give the same weights: one weight per
        # pair of classes, spread over the edges a row at a time
        kinds = packer.classes(bracket)
        vertices = np.array(bracket, dtype=np.intp)
        allowed = pairer.allowed
        for lo_pos in range(movers, len(bracket)):
            j = bracket[lo_pos]
            in_bracket = lo_pos < resident_end
            mask = allowed[j, vertices[:lo_pos]]
            his = vertices[:lo_pos][mask]
            if not his.size:
                continue
            his_kinds = kinds[:lo_pos][mask]
            table: dict[int, int] = {}
            for kind, first in zip(*np.unique(his_kinds, return_index=True), strict=True):
                table[int(kind)] = weight(int(his[first]), j, in_bracket)
            lookup = table.__getitem__
            packed.update(
                zip(
                    zip(his.tolist(), repeat(j)),
                    map(lookup, his_kinds.tolist()),
                    strict=True,
                )
            )
        return Stage(packed.keys(), packed, layout, scale, block, position)

    def full_edges(self, stage: Stage) -> list[tuple[int, int, int]]:
        """Every edge between players still to pair: the bracket's own weights,
        and completion-only weights (C4) for everybody else."""
        pairer = self.pairer
        compat = pairer.compat
        layout = stage.layout
        position = stage.position
        initial_single = pairer.single_initial
        edges: list[tuple[int, int, int]] = []
        alive = sorted(pairer.alive)
        for index, i in enumerate(alive):
            row = compat[i]
            i_in = i in position
            for j in alive[index + 1 :]:
                if not row[j] or (i_in and j in position):
                    continue  # bracket edges come from the stage; movers never meet
                if initial_single:
                    c9 = self._c9(i, j)
                    edges.append((i, j, layout.pack({"c9": c9} if c9 else {})))
                else:
                    edges.append((i, j, 0))
        return edges

    def _layout(
        self,
        bracket: list[int],
        movers: int,
        resident_end: int,
        single: bool,
        scale: int,
        block: int,
    ) -> Layout:
        players = self.players
        inside = [players[v] for v in bracket[:resident_end]]
        everyone = [players[v] for v in bracket]
        half = len(inside) // 2

        tallies: dict[str, Counter[Fraction]] = {}

        def count(group: list[PlayerState], score: Fraction, name: str) -> int:
            tally = tallies.get(name)
            if tally is None:
                tally = tallies[name] = Counter(p.pairing_score for p in group)
            return tally[score]

        # the lowest score's count is the number of pairs less the others: no room
        lowest_inside = min(p.pairing_score for p in inside)
        lowest = min(p.pairing_score for p in everyone)
        bounds: list[tuple[object, int]] = [("pairs", half)]
        bounds += [
            (("scores", s), count(inside, s, "inside")) for s in self.scores if s != lowest_inside
        ]
        bounds.append(("next", len(everyone) // 2))
        bounds += [
            (("next-scores", s), count(everyone, s, "everyone")) for s in self.scores if s != lowest
        ]
        if single or self.pairer.single_initial:
            bounds.append(("c9", self.bye_count * self.bye_count))
        top_rule = self.pairer.last_round
        bounds.append(
            ("colour1", sum(p.absolute_imbalance for p in inside) // 2 if top_rule else 0)
        )
        bounds.append(("colour2", sum(p.absolute for p in inside) // 2 if top_rule else 0))
        bounds.append(("colour3", sum(p.preference is not Colour.NONE for p in inside) // 2))
        bounds.append(("colour4", sum(p.strong or p.absolute for p in inside) // 2))
        scores_inside = sorted({p.pairing_score for p in inside}, reverse=True)
        rounds = self.pairer.played_rounds
        for back, keys in ((0, ("c14", "c15")), (1, ("c16", "c17"))):
            if rounds > back:
                bounds.append((keys[0], sum(1 for p in inside if p.floats[back] is Float.DOWN)))
                bounds.append((keys[1], sum(1 for p in inside if p.floats[back] is Float.UP)))
        for back, keys in ((0, ("c18", "c19")), (1, ("c20", "c21"))):
            if rounds > back:
                downs = [p for p in inside if p.floats[back] is Float.DOWN]
                ups = sum(1 for p in inside if p.floats[back] is Float.UP)
                bounds += [((keys[0], s), count(downs, s, keys[0])) for s in scores_inside]
                bounds += [
                    ((keys[1], s), min(ups, count(inside, s, "inside"))) for s in scores_inside
                ]
        residents = resident_end - movers
        unit = 1 << (exchange_shift(residents) + 1)
        exchange = (residents // 2 + 1) * (unit + 2)
        hint_bound = hint_range(residents)
        choice = max((SHORTLIST + 1) ** block, residents + 2) * scale + hint_bound
        movers_bound = (movers + 1) * (len(bracket) + residents + 2)
        return Layout(bounds, max(exchange, choice, movers_bound))


def hint_range(residents: int) -> int:
    """Largest sum of the S1/S2 hint over one matching (see the engine)."""
    half = residents // 2 + 1
    return half * half * (residents + 1)


def exchange_shift(residents: int) -> int:
    """Bits that keep "fewest exchanges" above "smallest BSN difference"."""
    return (residents * residents + 1).bit_length()


def _colour_fields(p: PlayerState, q: PlayerState, fields: Fields) -> None:
    """C10–C13 as penalties for the pair (bbpPairings' order of arguments)."""
    same = p.preference is q.preference and p.preference is not Colour.NONE
    if same and p.absolute_imbalance and q.absolute_imbalance:
        fields["colour1"] = -1
    if same and p.absolute and q.absolute:
        if p.imbalance == q.imbalance:
            bad = p.repeated is not Colour.NONE and p.repeated is q.repeated
        else:
            weaker = q if p.imbalance > q.imbalance else p
            bad = weaker.repeated is p.preference.opposite()
        if bad:
            fields["colour2"] = -1
    if same:
        fields["colour3"] = -1
        strong_p = p.strong or p.absolute
        strong_q = q.strong or q.absolute
        if strong_p and strong_q and not (p.absolute and q.absolute):
            fields["colour4"] = -1


class _Packer:
    """Packed edge weights of one bracket, fast: per-player parts added up.

    Gives the same numbers as ``layout.pack(fields.base(i, j, …))`` (a test
    checks it), without building the fields of every edge.
    """

    def __init__(self, fields: EdgeFields, layout: Layout, single: bool) -> None:
        shift = layout.shift

        def unit(key: object) -> int:
            place = shift.get(key)
            return 0 if place is None else 1 << place

        def per_level(name: str) -> list[int]:
            return [unit((name, score)) for score in fields.scores]

        level = fields.level
        self.score_of = level
        pairs, following = unit("pairs"), unit("next")
        scores_now = per_level("scores")
        self.current = [pairs + scores_now[k] for k in level]
        scores_next = per_level("next-scores")
        self.next = [following + scores_next[k] for k in level]
        c9 = unit("c9") if single else 0
        self.c9 = [rank * c9 for rank in fields.c9_rank]
        self.low_part: list[int] = []
        self.high_part: list[int] = []
        c18, c20 = per_level("c18"), per_level("c20")
        c14, c16 = unit("c14"), unit("c16")
        for k, (last, before) in zip(level, fields.down, strict=True):
            own = (c18[k] if last else 0) + (c20[k] if before else 0)
            self.low_part.append(own + (c14 if last else 0) + (c16 if before else 0))
            self.high_part.append(own)
        self.up = fields.up
        self.up_count = (unit("c15"), unit("c17"))
        c19, c21 = per_level("c19"), per_level("c21")
        self.up_score = [(c19[k], c21[k]) for k in level]
        self.colour_class = fields.colour_class
        self.colour_memo: dict[tuple[int, int], int] = {}
        self.players = fields.players
        self.layout = layout

    def classes(self, vertices: list[int]) -> npt.NDArray[np.intp]:
        """A class number per vertex: equal classes give equal weights."""
        found: dict[tuple[object, ...], int] = {}
        kinds = [
            found.setdefault(
                (
                    self.current[v],
                    self.next[v],
                    self.c9[v],
                    self.colour_class[v],
                    self.score_of[v],
                    self.low_part[v],
                    self.high_part[v],
                    self.up[v],
                    self.up_score[v],
                ),
                len(found),
            )
            for v in vertices
        ]
        return np.array(kinds, dtype=np.intp)

    def _colour(self, lo: int, hi: int) -> int:
        key = (self.colour_class[lo], self.colour_class[hi])
        value = self.colour_memo.get(key)
        if value is None:
            found: Fields = {}
            _colour_fields(self.players[lo], self.players[hi], found)
            value = self.layout.pack(found)
            self.colour_memo[key] = value
        return value

    def weight(self, i: int, j: int, in_bracket: bool) -> int:
        """Packed weight of the edge between ``i`` (higher) and ``j`` (lower)."""
        if not in_bracket:
            return self.next[i] + self.c9[i] + self.c9[j]
        value = self.current[i] + self.c9[i] + self.c9[j] + self._colour(j, i)
        if self.score_of[i] == self.score_of[j]:
            return value + self.low_part[i] + self.low_part[j]
        value += self.high_part[i] + self.low_part[j]
        up = self.up[j]
        if up & 1:
            value -= self.up_count[0] + self.up_score[i][0]
        if up & 2:
            value -= self.up_count[1] + self.up_score[i][1]
        return value
