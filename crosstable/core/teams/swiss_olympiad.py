"""A team Swiss round paired by FIDE's Olympiad Pairing Rules (2022).

In plain words (docs/teams.md gives the sections):

* the teams are ranked by the primary score (match points at an Olympiad), then by
  their pairing numbers (3.2);
* with an odd number of teams the bye goes to the lowest-ranked team that may have it:
  not one that had the bye already or won a match by default (4.1, 4.2), and one whose
  absence leaves the others a pairing;
* the score groups are paired from the top: in a group the top half meets the bottom
  half (the first against the first of the lower half, and so on); a team that cannot
  be paired in its group meets the highest-ranked team it can of the next groups;
* two teams never meet twice (a match forfeited on every board was no meeting);
* the colour of a team is the colour of its first board: in round 1 the higher-ranked
  team of the first match has the initial colour and it alternates down the matches;
  later the team that had White fewer times gets White, then the team whose colours
  differ from the other's most recently takes the other colour from that round, then
  the higher-ranked team alternates.

>>> from crosstable.core.teams.swiss import SwissTeam, TeamSwissRequest
>>> request = TeamSwissRequest(1, 5, tuple(SwissTeam(n) for n in range(1, 6)))
>>> olympiad_pairing(request)
TeamPairing(round=1, boards=((1, 3), (4, 2)), bye=5)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import networkx as nx  # type: ignore[import-untyped,unused-ignore]

from crosstable.core.errors import RuleError
from crosstable.core.model import Colour
from crosstable.core.teams.swiss import SwissTeam, TeamPairing, TeamSwissRequest

#: the depth-first search's steps before it is guided by a perfect-matching check
SEARCH_STEPS = 20_000


class _OutOfStepsError(Exception):
    pass


def olympiad_pairing(request: TeamSwissRequest) -> TeamPairing:
    """The round's matches, colours given (see the module's text)."""
    kind = request.primary
    by_start = {t.start: t for t in request.teams}
    present = [t for t in request.teams if t.start not in request.absent]
    present.sort(key=lambda t: (-t.score(kind), t.start))
    order = [t.start for t in present]
    score = {t.start: t.score(kind) for t in present}
    met = {t.start: t.met for t in present}
    bye: int | None = None
    pairs: list[tuple[int, int]] | None = None
    if len(order) % 2:
        for candidate in reversed(order):
            team = by_start[candidate]
            if team.had_bye or team.won_by_default:
                continue
            rest = [s for s in order if s != candidate]
            pairs = _pair(rest, score, met)
            if pairs is not None:
                bye = candidate
                break
        if bye is None:
            raise RuleError(
                "round {round}: no team may take the bye and leave the others a pairing",
                round=request.round,
            )
    else:
        pairs = _pair(order, score, met)
    if pairs is None:
        raise RuleError(
            "round {round}: the teams cannot be paired without a rematch", round=request.round
        )
    rank = {s: k for k, s in enumerate(order)}
    pairs.sort(
        key=lambda p: (-max(score[p[0]], score[p[1]]), -(score[p[0]] + score[p[1]]), rank[p[0]])
    )
    boards = tuple(
        _colours(by_start[a], by_start[b], table, request.initial_colour)
        for table, (a, b) in enumerate(pairs, 1)
    )
    return TeamPairing(request.round, boards, bye)


def _preference(remaining: Sequence[int], score: dict[int, Fraction]) -> list[int]:
    """The opponents of the first team of ``remaining`` in the order they are tried."""
    first = remaining[0]
    same = [s for s in remaining[1:] if score[s] == score[first]]
    lower = [s for s in remaining[1:] if score[s] < score[first]]
    half = (len(same) + 1) // 2  # the first of the lower half, counted in ``same``
    return same[half - 1 :] + same[: half - 1][::-1] + lower if same else lower


def _pair(
    order: list[int], score: dict[int, Fraction], met: dict[int, frozenset[int]]
) -> list[tuple[int, int]] | None:
    """A pairing of ``order`` (ranked) without a rematch, or None."""
    steps = [0]

    def search(remaining: list[int]) -> list[tuple[int, int]] | None:
        if not remaining:
            return []
        first = remaining[0]
        for other in _preference(remaining, score):
            steps[0] += 1
            if steps[0] > SEARCH_STEPS:
                raise _OutOfStepsError
            if other in met[first]:
                continue
            rest = [s for s in remaining[1:] if s != other]
            found = search(rest)
            if found is not None:
                return [(first, other), *found]
        return None

    try:
        return search(order)
    except _OutOfStepsError:
        return _guided(order, score, met)


def _guided(
    order: list[int], score: dict[int, Fraction], met: dict[int, frozenset[int]]
) -> list[tuple[int, int]] | None:
    """The same choices, each kept only when the teams left can still all be paired
    (a maximum matching of who may meet whom decides)."""
    if not _pairable(order, met):
        return None
    remaining = list(order)
    pairs: list[tuple[int, int]] = []
    while remaining:
        first = remaining[0]
        for other in _preference(remaining, score):
            if other in met[first]:
                continue
            rest = [s for s in remaining[1:] if s != other]
            if _pairable(rest, met):
                pairs.append((first, other))
                remaining = rest
                break
        else:  # pragma: no cover - the check above found a pairing
            return None
    return pairs


def _pairable(teams: Sequence[int], met: dict[int, frozenset[int]]) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(teams)
    graph.add_edges_from(
        (a, b) for k, a in enumerate(teams) for b in teams[k + 1 :] if b not in met[a]
    )
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return 2 * len(matching) == len(teams)


def _colours(higher: SwissTeam, lower: SwissTeam, table: int, initial: Colour) -> tuple[int, int]:
    """(team White on board 1, the other) for the match of ``higher`` (the higher-ranked
    team) and ``lower`` on ``table``."""
    first, second = higher.colours, lower.colours
    if not first and not second:
        colour = initial if table % 2 else initial.opposite()
        white_first = colour is Colour.WHITE
        return (higher.start, lower.start) if white_first else (lower.start, higher.start)
    balance = [sum(1 if c is Colour.WHITE else -1 for c in cs) for cs in (first, second)]
    if balance[0] != balance[1]:
        white_first = balance[0] < balance[1]
    else:
        white_first = _alternation(first, second)
    return (higher.start, lower.start) if white_first else (lower.start, higher.start)


def _alternation(first: Sequence[Colour], second: Sequence[Colour]) -> bool:
    """True when the higher-ranked team gets White by alternation: the latest match in
    which the two had different colours decides; else it alternates its own last."""
    for a, b in zip(reversed(first), reversed(second), strict=False):
        if a is not b:
            return a is Colour.BLACK
    if first:
        return first[-1] is Colour.BLACK
    return second[-1] is Colour.WHITE


__all__ = ["SEARCH_STEPS", "olympiad_pairing"]
