"""What is left of a tournament, as whole numbers: the players' points so far and the
games still to play.

Points are scaled to whole numbers (``scale``: the least common denominator of every
value met) and measured above the loss value: a player's ``base`` is what they have now
plus a loss in each of their remaining games (and the free rounds still to come), and
each remaining game adds ``win`` (the winner's extra) or ``draw`` to each player
(a draw's extra) on top. The extras of a game are (win, 0), (draw, draw) or (0, win);
``2 * draw <= win`` always (the point system refuses two draws worth more than a win
and a loss), with equality for 1-½-0 and any system whose games all hand out the same
points.

A Swiss's later rounds are not paired yet: each player's unknown games are games
against an *outsider*, a player of its own (index ``size``) whom nobody asks about and
who wins or loses as the question in hand allows; the answers are then estimates.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from crosstable.core.errors import RuleError
from crosstable.core.model import ByeKind, Tournament


@dataclass(frozen=True, slots=True)
class RaceProblem:
    """The remaining games of a tournament, scaled to whole numbers (module docstring)."""

    size: int  # real players 0 … size - 1 (starting number - 1); ``size`` is the outsider
    base: tuple[int, ...]  # points now + a loss in every remaining game, scaled
    pairs: tuple[tuple[int, int, int], ...]  # (i, j, games left between them), i < j
    win: int  # a win's extra over a loss, scaled
    draw: int  # a draw's extra over a loss, scaled
    loss: Fraction  # a loss's points, unscaled
    scale: int
    exact: bool = True  # False: a Swiss's unknown pairings are estimated

    def __post_init__(self) -> None:
        if self.win <= 0 or self.draw < 0 or 2 * self.draw > self.win:
            raise RuleError("a win must be worth more than a draw, a draw at least a loss")

    @property
    def outsider(self) -> int:
        return self.size

    @property
    def constant_total(self) -> bool:
        """Every game hands out the same points (1-½-0, 2-1-0 …): a flow decides exactly."""
        return 2 * self.draw == self.win

    def degree(self, player: int) -> int:
        """The player's remaining games."""
        return sum(k for i, j, k in self.pairs if player in (i, j))

    def maximum(self, player: int) -> int:
        """The most the player can end with, scaled."""
        return self.base[player] + self.win * self.degree(player)

    def games_between(self, a: int, b: int) -> int:
        lo, hi = min(a, b), max(a, b)
        return sum(k for i, j, k in self.pairs if (i, j) == (lo, hi))

    def points(self, scaled: int, games: int = 0) -> Fraction:
        """Real points of ``scaled`` extras won from ``games`` games (their losses added)."""
        return Fraction(scaled, self.scale) + self.loss * games


def race_problem(tournament: Tournament, *, round_robin: bool | None = None) -> RaceProblem:
    """The remaining games of ``tournament``.

    A round robin's remaining games are every pair (per cycle) that has not met yet; a game
    met is one with a result (a forfeit counts as met), a scheduled game without one is
    still to be played. A Swiss (``round_robin`` False; None: the tournament's system
    says) has its current round's known pairings still to play and, for each player, the
    planned rounds not paired yet as games of unknown opponent (estimate).
    """
    rr = (
        tournament.settings.system.has_predetermined_pairings
        if round_robin is None
        else round_robin
    )
    size = len(tournament.players)
    system = tournament.settings.point_system
    scores = [tournament.score(p.start) for p in tournament.players]
    met: Counter[tuple[int, int]] = Counter()
    pending: Counter[tuple[int, int]] = Counter()
    free_rounds: Counter[int] = Counter()
    for rnd in tournament.rounds:
        for game in rnd.games:
            key = (min(game.white, game.black) - 1, max(game.white, game.black) - 1)
            if game.result is not None and game.result.is_decided:
                met[key] += 1
            else:
                pending[key] += 1
        for bye in rnd.byes:
            if bye.kind is ByeKind.FREE:
                free_rounds[bye.player - 1] += 1
    future_bye = [Fraction(0)] * size
    pairs: list[tuple[int, int, int]] = []
    if rr:
        cycles = _cycles(tournament, met)
        for i in range(size):
            for j in range(i + 1, size):
                left = cycles - met[(i, j)]
                if left:
                    pairs.append((i, j, left))
        if size % 2 == 1:
            bye_value = tournament.settings.free_round_points
            for i in range(size):
                future_bye[i] = bye_value * max(0, cycles - free_rounds[i])
    else:
        pairs.extend((i, j, k) for (i, j), k in sorted(pending.items()))
        planned = tournament.settings.rounds or len(tournament.rounds)
        unknown = max(0, planned - len(tournament.rounds))
        if unknown:
            pairs.extend((i, size, unknown) for i in range(size))
    degree = Counter[int]()
    for i, j, k in pairs:
        degree[i] += k
        degree[j] += k
    raw = [scores[i] + future_bye[i] + system.loss * degree[i] for i in range(size)]
    win, draw = system.win - system.loss, system.draw - system.loss
    values = [*raw, win, draw]
    scale = math.lcm(*(v.denominator for v in values))
    return RaceProblem(
        size=size,
        base=tuple(int(v * scale) for v in raw),
        pairs=tuple(pairs),
        win=int(win * scale),
        draw=int(draw * scale),
        loss=system.loss,
        scale=scale,
        exact=rr,
    )


def _cycles(tournament: Tournament, met: Counter[tuple[int, int]]) -> int:
    """The cycles of a round robin: the settings', or more when the planned rounds or a
    pair's meetings say so (as the TRF reader counts them)."""
    size = len(tournament.players)
    per_cycle = size - 1 if size % 2 == 0 else size
    planned = tournament.settings.rounds or 0
    by_rounds = -(-planned // per_cycle) if per_cycle else 1
    return max(tournament.settings.cycles, by_rounds, max(met.values(), default=1), 1)
