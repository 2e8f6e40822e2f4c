"""Can the remaining games end so that every player's extra points keep within bounds?

Two questions, each exact:

* :func:`below` — every *capped* player gets at most their cap (the others take what
  they like): can one player still reach the top?
* :func:`above` — every player of a set gets at least their demand from the games among
  them: can K players all reach a score?

When every game hands out the same points (``2 * draw == win``, e.g. 1-½-0) each is a
maximum flow: a game is ``2`` units of ``draw`` shared between its two players in any
whole split (2-0 a win, 1-1 a draw), which is exactly the real outcomes. Otherwise
(3-1-0) a game hands out 3 when decisive and 2 when drawn, and the question is
NP-complete in general; a branch and bound decides it: the flow of a relaxation (a
game worth 2 draws to share, or a win to share in any split) refutes most cases at
once, its flow read back as real results proves most others, and else one game of a
player whose bound is broken is tried each of its three ways. A node budget bounds the
search; when it runs out (:class:`TooHard`) the question goes to the integer programme
of :mod:`crosstable.core.race.integer`, so every answer is exact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from crosstable.core.race import integer

#: (i, j, games left between them)
Pairs = Sequence[tuple[int, int, int]]


class TooHard(Exception):  # noqa: N818 - a state of the search, not a fault
    """The search's node budget ran out before an answer."""


@dataclass(slots=True)
class Budget:
    """Nodes the searches may still visit (shared by every question of one report)."""

    nodes: int = 200_000
    memo: dict[object, bool] = field(default_factory=dict)

    def spend(self) -> None:
        self.nodes -= 1
        if self.nodes < 0:
            raise TooHard


def max_flow(
    sources: Sequence[int], edges: Sequence[tuple[int, int, int]], sinks: Mapping[int, int]
) -> tuple[int, list[int]]:
    """Flow from the source to the sink through games then players.

    ``sources[g]`` is game node ``g``'s supply, ``edges`` are (game, player, index) arcs of
    unbounded capacity, ``sinks[player]`` the player's capacity. Returns the flow's value
    and the flow on each edge (by its position in ``edges``). Augmenting paths found by
    breadth-first search (the graphs have a few hundred nodes)."""
    games = len(sources)
    players = sorted(sinks)
    where = {p: games + k for k, p in enumerate(players)}
    source, sink = games + len(players), games + len(players) + 1
    nodes = sink + 1
    head: list[list[int]] = [[] for _ in range(nodes)]
    to: list[int] = []
    cap: list[int] = []

    def arc(a: int, b: int, c: int) -> int:
        head[a].append(len(to))
        to.append(b)
        cap.append(c)
        head[b].append(len(to))
        to.append(a)
        cap.append(0)
        return len(to) - 2

    for g, supply in enumerate(sources):
        arc(source, g, supply)
    big = sum(sources) + 1
    edge_arcs = [arc(g, where[p], big) for g, p, _index in edges]
    for p in players:
        arc(where[p], sink, max(0, sinks[p]))
    total = 0
    while True:
        parent = [-1] * nodes
        parent[source] = -2
        queue = [source]
        for node in queue:
            if node == sink:
                break
            for a in head[node]:
                if cap[a] > 0 and parent[to[a]] == -1:
                    parent[to[a]] = a
                    queue.append(to[a])
        if parent[sink] == -1:
            break
        push, node = big, sink
        while node != source:
            a = parent[node]
            push = min(push, cap[a])
            node = to[a ^ 1]
        node = sink
        while node != source:
            a = parent[node]
            cap[a] -= push
            cap[a ^ 1] += push
            node = to[a ^ 1]
        total += push
    return total, [cap[a ^ 1] for a in edge_arcs]


def _split(pairs: Pairs, units: int, caps: Mapping[int, int]) -> tuple[bool, list[int]]:
    """Each pair's games share ``units`` units each, every player within ``caps``: whether
    all can be placed, and the units each pair's first player gets."""
    sources = [units * k for _i, _j, k in pairs]
    edges = [(g, p, 0) for g, (i, j, _k) in enumerate(pairs) for p in (i, j)]
    value, flows = max_flow(sources, edges, caps)
    return value == sum(sources), flows[0::2]


def below(
    caps: Mapping[int, int],
    pairs: Pairs,
    win: int,
    draw: int,
    budget: Budget,
    floors: Mapping[int, int] | None = None,
) -> bool:
    """Whether the games can end with each player in ``caps`` getting at most their cap
    (and, with ``floors``, each player there at least their floor). A player without a
    cap wins every game against a capped one. Exact: past the budget the integer
    programme decides."""
    floors = dict(floors or {})
    live = [p for p in pairs if p[2] > 0]
    try:  # each question its own allowance of nodes, the answers remembered in common
        return _below(dict(caps), live, win, draw, Budget(budget.nodes, budget.memo), floors)
    except TooHard:
        return integer.below(caps, live, win, draw, floors)


def _below(
    caps: dict[int, int],
    pairs: list[tuple[int, int, int]],
    win: int,
    draw: int,
    budget: Budget,
    floors: dict[int, int],
) -> bool:
    budget.spend()
    pairs = [p for p in pairs if p[0] in caps and p[1] in caps]
    while True:  # a player who cannot pass the cap is free: they win every game
        degree = _degrees(pairs)
        tied = {q for i, j, _k in pairs if i in floors or j in floors for q in (i, j)}
        free = {
            p
            for p, c in caps.items()
            if p not in tied and c >= win * degree.get(p, 0) and degree.get(p, 0)
        }
        if not free:
            break
        pairs = [p for p in pairs if p[0] not in free and p[1] not in free]
    degree = _degrees(pairs)
    if any(c < 0 for c in caps.values()):
        return False
    if any(f > min(caps.get(p, f), win * degree.get(p, 0)) for p, f in floors.items() if f > 0):
        return False
    if not pairs:
        return True
    key = (
        "below",
        tuple(sorted(caps.items())),
        tuple(sorted(pairs)),
        tuple(sorted(floors.items())),
    )
    if key in budget.memo:
        return budget.memo[key]
    answer = _below_search(caps, pairs, win, draw, budget, floors)
    budget.memo[key] = answer
    return answer


def _below_search(
    caps: dict[int, int],
    pairs: list[tuple[int, int, int]],
    win: int,
    draw: int,
    budget: Budget,
    floors: dict[int, int],
) -> bool:
    if draw == 0:  # draws cost nothing: all drawn is the best there is … for the caps
        if not floors:
            return True
        loads = {p: 0 for p in caps}
    else:
        units = {p: c // draw for p, c in caps.items()}
        placed, firsts = _split(pairs, 2, units)
        if not placed:
            return False
        if 2 * draw == win and not floors:
            return True
        loads = {p: 0 for p in caps}
        for (i, j, k), first in zip(pairs, firsts, strict=True):
            second = 2 * k - first
            drawn = min(first, second)
            loads[i] += drawn * draw + (first - drawn) // 2 * win
            loads[j] += drawn * draw + (second - drawn) // 2 * win
    over = [p for p in caps if loads[p] > caps[p]]
    under = [p for p, f in floors.items() if loads.get(p, 0) < f]
    if not over and not under:
        return True
    player = (over or under)[0]
    index = next(n for n, (i, j, _k) in enumerate(pairs) if player in (i, j))
    i, j, k = pairs[index]
    rest = pairs[:index] + ([(i, j, k - 1)] if k > 1 else []) + pairs[index + 1 :]
    for gain_i, gain_j in (
        ((0, win), (draw, draw), (win, 0)) if over else ((win, 0), (draw, draw), (0, win))
    ):
        if player == j:
            gain_i, gain_j = gain_j, gain_i
        new_caps = dict(caps)
        new_caps[i] -= gain_i
        new_caps[j] -= gain_j
        new_floors = dict(floors)
        for p, gain in ((i, gain_i), (j, gain_j)):
            if p in new_floors:
                new_floors[p] -= gain
        if _below(new_caps, rest, win, draw, budget, new_floors):
            return True
    return False


def above(needs: Mapping[int, int], pairs: Pairs, win: int, draw: int, budget: Budget) -> bool:
    """Whether the games among the players of ``needs`` can end with each getting at
    least their need. Exact: past the budget the integer programme decides."""
    inside = [p for p in pairs if p[0] in needs and p[1] in needs and p[2] > 0]
    try:
        return _above(dict(needs), inside, win, draw, Budget(budget.nodes, budget.memo))
    except TooHard:
        return integer.above(needs, inside, win, draw)


def _above(
    needs: dict[int, int], pairs: list[tuple[int, int, int]], win: int, draw: int, budget: Budget
) -> bool:
    budget.spend()
    wanting = {p: n for p, n in needs.items() if n > 0}
    if not wanting:
        return True
    degree = _degrees(pairs)
    if any(n > win * degree.get(p, 0) for p, n in wanting.items()):
        return False
    key = ("above", tuple(sorted(needs.items())), tuple(sorted(pairs)))
    if key in budget.memo:
        return budget.memo[key]
    answer = _above_search(needs, pairs, win, draw, budget)
    budget.memo[key] = answer
    return answer


def _above_search(
    needs: dict[int, int], pairs: list[tuple[int, int, int]], win: int, draw: int, budget: Budget
) -> bool:
    if 2 * draw == win:  # units of a draw, 2 a game: any split is a real result
        sinks = {p: max(0, -(-n // draw)) for p, n in needs.items()}
        sources = [2 * k for _i, _j, k in pairs]
        edges = [(g, p, 0) for g, (i, j, _k) in enumerate(pairs) for p in (i, j)]
        value, _flows = max_flow(sources, edges, sinks)
        return value == sum(sinks.values())
    # relaxation: a game is a win to share in any split (a draw gives no more than that)
    sinks = {p: max(0, n) for p, n in needs.items()}
    sources = [win * k for _i, _j, k in pairs]
    edges = [(g, p, 0) for g, (i, j, _k) in enumerate(pairs) for p in (i, j)]
    value, flows = max_flow(sources, edges, sinks)
    if value < sum(sinks.values()):
        return False
    loads = dict.fromkeys(needs, 0)
    split: list[int] = []
    for g, (i, j, k) in enumerate(pairs):
        first, second = flows[2 * g], flows[2 * g + 1]
        second += win * k - first - second  # what nobody needed goes to the second
        wins_i, wins_j = first // win, second // win
        loads[i] += wins_i * win
        loads[j] += wins_j * win
        if wins_i + wins_j < k:  # one game shared: the bigger share wins it
            split.append(g)
            if first % win >= second % win:
                loads[i] += win
            else:
                loads[j] += win
    short = [p for p, n in needs.items() if loads[p] < n]
    if not short:
        return True
    player = short[0]
    index = next(n for n, (i, j, _k) in enumerate(pairs) if player in (i, j))
    i, j, k = pairs[index]
    rest = pairs[:index] + ([(i, j, k - 1)] if k > 1 else []) + pairs[index + 1 :]
    for gain_i, gain_j in ((win, 0), (draw, draw), (0, win)):
        if player == j:
            gain_i, gain_j = gain_j, gain_i
        new_needs = dict(needs)
        new_needs[i] -= gain_i
        new_needs[j] -= gain_j
        if _above(new_needs, rest, win, draw, budget):
            return True
    return False


def _degrees(pairs: Pairs) -> dict[int, int]:
    degree: dict[int, int] = {}
    for i, j, k in pairs:
        degree[i] = degree.get(i, 0) + k
        degree[j] = degree.get(j, 0) + k
    return degree
