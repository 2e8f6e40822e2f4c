"""Who can still finish first, or in the top K, on points alone (docs/race.md).

For each player three answers, each over every way the remaining games can end:

* ``first``: "clinched" when in every completion the player ends with more points than
  everyone else; "eliminated" when in none the player reaches the highest score (a
  shared highest score counts as reaching it); "possible" otherwise.
* ``top`` (K places): "clinched" when in every completion fewer than K others have at
  least the player's points; "eliminated" when in none are fewer than K others strictly
  ahead; "possible" otherwise. K = 1 is ``first``.
* ``needs``: the fewest points from the player's own remaining games with which first
  place is still possible, and the fewest that make it certain whatever those points
  are made of and however the other games end (None: none do).

Tie-breaks are not looked at: a shared first place is "possible", never "clinched".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Literal

from crosstable.core.race import integer
from crosstable.core.race.feasible import Budget, above, below
from crosstable.core.race.problem import RaceProblem
from crosstable.core.scoring import points_json

Status = Literal["clinched", "possible", "eliminated"]


@dataclass(frozen=True, slots=True)
class RaceRow:
    """One player's answers."""

    start: int
    points: Fraction
    maximum: Fraction
    first: Status
    top: Status
    needs_possible: Fraction | None
    needs_clinch: Fraction | None
    exact: bool

    def to_json(self) -> dict[str, object]:
        return {
            "start": self.start,
            "points": points_json(self.points),
            "max": points_json(self.maximum),
            "first": self.first,
            "top": self.top,
            "needs": {
                "possible": points_json(self.needs_possible),
                "clinch": points_json(self.needs_clinch),
            },
            "exact": self.exact,
        }


@dataclass(frozen=True, slots=True)
class RaceReport:
    """Every player's answers, by starting number."""

    top_k: int
    games_left: int
    exact: bool
    rows: tuple[RaceRow, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "top_k": self.top_k,
            "games_left": self.games_left,
            "exact": self.exact,
            "rows": [row.to_json() for row in self.rows],
        }

    def row(self, start: int) -> RaceRow:
        return self.rows[start - 1]


#: nodes each question's branch and bound may visit (a flow each) before the question
#: goes to the integer programme (crosstable.core.race.integer), which always answers
NODES = 60


def race(problem: RaceProblem, top: int = 1, *, nodes: int = NODES) -> RaceReport:
    """Every player's answers (module docstring). ``top`` is K, at least 1; ``nodes``
    bounds each question's search."""
    memo: dict[object, bool] = {}

    def budget() -> Budget:
        return Budget(nodes, memo)

    rows = [_row(problem, p, max(1, top), budget) for p in range(problem.size)]
    real_games = sum(k for i, j, k in problem.pairs if j < problem.size)
    return RaceReport(
        top_k=max(1, top),
        games_left=real_games,
        exact=problem.exact and all(r.exact for r in rows),
        rows=tuple(rows),
    )


def _row(problem: RaceProblem, p: int, top: int, budget: Callable[[], Budget]) -> RaceRow:
    exact = problem.exact
    first, sure = _status(problem, p, 1, budget())
    exact = exact and sure
    if top == 1:
        top_status = first
    else:
        top_status, sure = _status(problem, p, top, budget())
        exact = exact and sure
    degree = problem.degree(p)
    possible = None if first == "eliminated" else _needs_possible(problem, p, budget())
    clinch = _needs_clinch(problem, p)
    return RaceRow(
        start=p + 1,
        points=problem.points(problem.base[p], 0) - problem.loss * degree,
        maximum=problem.points(problem.maximum(p), 0),
        first=first,
        top=top_status,
        needs_possible=None if possible is None else problem.points(possible, degree),
        needs_clinch=None if clinch is None else problem.points(clinch, degree),
        exact=exact,
    )


def _status(problem: RaceProblem, p: int, top: int, budget: Budget) -> tuple[Status, bool]:
    """The player's answer for the top ``top`` places, and whether it was decided exactly
    (always: a search past its budget hands the question to the integer programme)."""
    if clinched(problem, p, top, budget):
        return "clinched", True
    return ("possible" if possible(problem, p, top, budget) else "eliminated"), True


def possible(problem: RaceProblem, p: int, top: int, budget: Budget) -> bool:
    """Whether some completion leaves fewer than ``top`` others strictly ahead of ``p``.

    ``p`` wins every game (that only lowers the others); then at most ``top - 1`` others
    may pass p's score, the rest must stay at or under it: choose who passes (those
    already past must), and the others' games must fit under the caps."""
    ceiling = problem.maximum(p)
    others = [j for j in range(problem.size) if j != p]
    pairs = [(i, j, k) for i, j, k in problem.pairs if p not in (i, j)]
    caps = {j: ceiling - problem.base[j] for j in others}
    passed = {j for j, c in caps.items() if c < 0}
    if len(passed) >= top:
        return False
    pairs = [(i, j, k) for i, j, k in pairs if i not in passed and j not in passed]
    for j in passed:
        del caps[j]
    degree = _degrees(pairs)
    can_pass = [j for j in caps if caps[j] < problem.win * degree.get(j, 0)]
    slots = top - 1 - len(passed)
    if len(can_pass) <= slots:
        return True
    can_pass.sort(key=lambda j: caps[j] - problem.win * degree.get(j, 0))
    for chosen in combinations(can_pass, slots):
        left = {j: c for j, c in caps.items() if j not in chosen}
        if below(left, pairs, problem.win, problem.draw, budget):
            return True
    return False


def clinched(problem: RaceProblem, p: int, top: int, budget: Budget) -> bool:
    """Whether in every completion fewer than ``top`` others end with at least p's points.

    ``p`` loses every game (that only raises the others); then ``top`` others must all
    reach p's score, each winning its games against p and against everyone outside the
    chosen ``top``: choose them (those already there always belong), and the games among
    them must lift each to the mark."""
    floor = problem.base[p]
    others = [j for j in range(problem.size) if j != p]
    reach = [j for j in others if problem.maximum(j) >= floor]
    if len(reach) < top:
        return True
    against_p = {j: problem.games_between(j, p) for j in others}
    there = [j for j in reach if problem.base[j] + problem.win * against_p[j] >= floor]
    if len(there) >= top:
        return False
    rest = [j for j in reach if j not in there]
    degree = {j: problem.degree(j) for j in others}
    rest.sort(key=lambda j: floor - problem.maximum(j))
    for chosen in combinations(rest, top - len(there)):
        group = set(there) | set(chosen)
        inside = [(i, j, k) for i, j, k in problem.pairs if i in group and j in group]
        inner = _degrees(inside)
        needs = {
            j: floor - problem.base[j] - problem.win * (degree[j] - inner.get(j, 0)) for j in group
        }
        if above(needs, inside, problem.win, problem.draw, budget):
            return False
    return True


def _needs_possible(problem: RaceProblem, p: int, budget: Budget) -> int | None:
    """The fewest extras from p's own games with which p can still end level or ahead of
    everyone (scaled, above the losses), or None."""
    if problem.constant_total:
        degree = problem.degree(p)
        for own in sorted(_sums(problem, degree)):
            mark = problem.base[p] + own
            caps = {j: mark - problem.base[j] for j in range(problem.size) if j != p}
            caps[p] = own
            caps[problem.outsider] = problem.win * degree + max(problem.base) + 1
            # p's extras can be raised one draw at a time from any completion under these
            # caps, lowering only p's opponents: at most ``own`` is as good as exactly
            if below(caps, problem.pairs, problem.win, problem.draw, budget):
                return own
        return None
    real = problem.base[: problem.size]
    return integer.least_first(p, real, problem.pairs, problem.win, problem.draw)


def _needs_clinch(problem: RaceProblem, p: int) -> int | None:
    """The fewest extras x from p's own games such that every completion in which p gets
    x or more leaves p strictly ahead of everyone, or None.

    Against a rival j only j's and p's games matter: j wins all it can, and of the games
    between them j takes as much as p's x leaves (p must still make x from the rest)."""
    degree = problem.degree(p)
    sums = sorted(_sums(problem, degree))
    answer: int | None = None
    for own in reversed(sums):
        if not _sure(problem, p, own):
            break
        answer = own
    return answer


def _sure(problem: RaceProblem, p: int, own: int) -> bool:
    win, draw = problem.win, problem.draw
    degree = problem.degree(p)
    for j in range(problem.size):
        if j == p:
            continue
        mutual = problem.games_between(j, p)
        rest = _sums(problem, degree - mutual)
        best = None
        for wins in range(mutual + 1):
            for draws in range(mutual - wins + 1):
                if own - wins * win - draws * draw in rest:
                    taken = (mutual - wins - draws) * win + draws * draw
                    best = taken if best is None else max(best, taken)
        if best is None:
            continue
        rival = problem.base[j] + win * (problem.degree(j) - mutual) + best
        if rival >= problem.base[p] + own:
            return False
    return True


def _sums(problem: RaceProblem, games: int) -> frozenset[int]:
    """Every extra a player can make from ``games`` games (scaled)."""
    return frozenset(
        wins * problem.win + draws * problem.draw
        for wins in range(games + 1)
        for draws in range(games - wins + 1)
    )


def _degrees(pairs: list[tuple[int, int, int]]) -> dict[int, int]:
    degree: dict[int, int] = {}
    for i, j, k in pairs:
        degree[i] = degree.get(i, 0) + k
        degree[j] = degree.get(j, 0) + k
    return degree
