"""The compiled field: every player's rounds as flat integer arrays.

Tie-breaks are sums over rounds, so they are computed on a :class:`Field`
built once from a :class:`~crosstable.core.model.Tournament`: per player and
round the opponent (an index, ``-1`` for none), the kind of round (a game over
the board, a forfeit, a bye…), the points *scaled to integers* (``scale`` is
the least common denominator of the point system, 2 for 1-½-0) and the colour.
Hot loops add integers; :class:`fractions.Fraction` appears only at the edges.

Players are indexed from 0 (index = starting number − 1).

>>> from crosstable.core.model import Game, GameResult, Player, Round, Tournament
>>> t = Tournament(players=(Player(1, "A"), Player(2, "B")),
...                rounds=(Round(1, (Game(1, 1, 1, 2, GameResult.DRAW()),)),))
>>> f = compile_field(t)
>>> f.score, f.scale
([1, 1], 2)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from crosstable.core.model import (
    ByeKind,
    GameResult,
    Outcome,
    RulesEdition,
    System,
    Tournament,
)
from crosstable.core.text import Message

# Kinds of round, from one player's side.
GAME = 0  # a game over the board (incl. games shorter than one move, W/D/L)
FWIN = 1  # forfeit win (+)
FLOSS = 2  # forfeit loss (-), also each side of a double forfeit
PAB = 3  # pairing-allocated bye (U)
FPB = 4  # full-point bye (F)
HPB = 5  # half-point bye (H)
ZPB = 6  # zero-point bye (Z), known absence, any round after a withdrawal
FREE = 7  # the free round of an odd round robin; a game annulled by the withdrawal rule
PENDING = 8  # paired, no result yet

#: what each kind of element is called (Messages: translated on the web)
KIND_NAMES: dict[int, str] = {
    GAME: Message("game"),
    FWIN: Message("forfeit win"),
    FLOSS: Message("forfeit loss"),
    PAB: Message("pairing-allocated bye"),
    FPB: Message("full-point bye"),
    HPB: Message("half-point bye"),
    ZPB: Message("zero-point bye"),
    FREE: Message("free round"),
    PENDING: Message("not played yet"),
}

WIN = 2
DRAW = 1
LOSS = 0
NONE = -1

WHITE = 1
BLACK = 2

_GAME_OUTCOMES: dict[Outcome, tuple[int, int]] = {
    Outcome.WIN: (GAME, WIN),
    Outcome.SHORT_WIN: (GAME, WIN),
    Outcome.DRAW: (GAME, DRAW),
    Outcome.SHORT_DRAW: (GAME, DRAW),
    Outcome.LOSS: (GAME, LOSS),
    Outcome.SHORT_LOSS: (GAME, LOSS),
    Outcome.FORFEIT_WIN: (FWIN, WIN),
    Outcome.FORFEIT_LOSS: (FLOSS, LOSS),
    Outcome.PENDING: (PENDING, NONE),
    Outcome.UNKNOWN: (PENDING, NONE),
}

_BYE_KINDS = {
    ByeKind.PAIRING: PAB,
    ByeKind.FULL: FPB,
    ByeKind.HALF: HPB,
    ByeKind.ZERO: ZPB,
}


@dataclass(slots=True)
class Field:
    """Every player's record, compiled; mutable only through :mod:`..standings.live`."""

    n: int
    rounds: int
    scale: int
    win: int
    draw: int
    loss: int
    # forfeits count as games (C.07 15.2): a round robin / Scheveningen whose
    # regulations do not say otherwise (Settings.forfeits_in_tiebreaks)
    predetermined: bool
    edition: RulesEdition
    opp: list[list[int]]
    kind: list[list[int]]
    pts: list[list[int]]
    res: list[list[int]]
    col: list[list[int]]
    rating: list[int | None]
    active: list[bool]
    score: list[int] = field(default_factory=list)
    round_numbers: list[int] = field(default_factory=list)
    outcome_points: dict[Outcome, int] = field(default_factory=dict)
    cache: dict[str, object] = field(default_factory=dict)  # values results cannot change
    # pairings fixed in advance (round robin / Scheveningen), whatever the forfeit setting
    round_robin: bool = False
    #: round index → its byes: (player, kind and points once the round has begun, kind
    #: before: a round robin's free round stays one, other byes are not played yet)
    round_byes: dict[int, list[tuple[int, int, int, int]]] = field(default_factory=dict)
    #: events longer than 30 days, ratings per round chosen: each player's rating in each
    #: round index (None: every rating-based tie-break reads ``rating``, the first one)
    round_rating: list[list[int | None]] | None = None
    _adjusted: list[int] | None = None

    def __post_init__(self) -> None:
        if not self.score:
            self.score = [sum(row) for row in self.pts]

    # -- conversions -------------------------------------------------------------------

    def points(self, scaled: int) -> Fraction:
        """Scaled points back to exact points."""
        return fraction(scaled, self.scale)

    def indices(self) -> range:
        return range(self.n)

    # -- C.07 art. 16: unplayed rounds in Swiss events ----------------------------------

    @property
    def adjusted(self) -> list[int]:
        """Each player's score as their opponents see it (C.07 16.3), scaled.

        In a round robin (15.2) it is the plain score. In a Swiss event a requested
        bye that is followed only by voluntary unplayed rounds, or that falls in the
        last round (category 16.2.5), counts as a draw.
        """
        if self._adjusted is None:
            if self.predetermined:
                self._adjusted = list(self.score)
            else:
                self._adjusted = [self.adjusted_score(p) for p in range(self.n)]
        return self._adjusted

    def set_game(self, r: int, white: int, black: int, result: GameResult | None) -> None:
        """Record the result of the game ``white``–``black`` (indices) in round index ``r``.

        Scores and adjusted scores of the two players follow; nothing else changes.
        """
        wo, bo = (
            (Outcome.PENDING, Outcome.PENDING)
            if result is None
            else (
                result.white,
                result.black,
            )
        )
        for me, outcome in ((white, wo), (black, bo)):
            k, res = _GAME_OUTCOMES[outcome]
            self.kind[me][r] = k
            self.res[me][r] = res
            old = self.pts[me][r]
            new = self.outcome_points[outcome]
            self.pts[me][r] = new
            self.score[me] += new - old
        for key in [k for k in self.cache if k.startswith("elements:")]:
            del self.cache[key]
        if self._adjusted is not None:
            if self.predetermined:
                self._adjusted[white] = self.score[white]
                self._adjusted[black] = self.score[black]
            else:
                self._adjusted[white] = self.adjusted_score(white)
                self._adjusted[black] = self.adjusted_score(black)

    def set_byes(self, r: int, scored: bool) -> list[int]:
        """Score the byes of round index ``r`` (its round has begun), or hold them back
        as rounds not played yet; returns their players. Their scores follow."""
        changed = []
        for p, k, v, held in self.round_byes.get(r, ()):
            if not scored:
                k, v = held, 0
            self.kind[p][r] = k
            self.score[p] += v - self.pts[p][r]
            self.pts[p][r] = v
            changed.append(p)
        if changed:
            for key in [k for k in self.cache if k.startswith("elements:")]:
                del self.cache[key]
            if self._adjusted is not None:
                for p in changed:
                    self._adjusted[p] = (
                        self.score[p] if self.predetermined else (self.adjusted_score(p))
                    )
        return changed

    def adjusted_score(self, p: int) -> int:
        kinds = self.kind[p]
        last = self.last_available_round(p)
        total = self.score[p]
        pts = self.pts[p]
        for r in range(last + 1, self.rounds):
            if kinds[r] in (HPB, ZPB):
                total += self.draw - pts[r]
        return total

    def last_available_round(self, p: int) -> int:
        """The last round that is not a voluntary unplayed round (−1 if none)."""
        kinds = self.kind[p]
        for r in range(self.rounds - 1, -1, -1):
            if kinds[r] not in _VUR:
                return r
        return -1

    def is_vur(self, p: int, r: int) -> bool:
        """A voluntary unplayed round (16.1.2): a requested bye or a forfeit loss."""
        return self.kind[p][r] in _VUR

    def category(self, p: int, r: int) -> int | None:
        """The C.07 16.2 category (1–5) of an unplayed round in a Swiss event, else None."""
        k = self.kind[p][r]
        if k in (PAB, FPB):
            return 1
        if k == FWIN:
            return 2
        if k == FLOSS:
            return 4
        if k in (HPB, ZPB):
            return 3 if r < self.last_available_round(p) else 5
        return None


_VUR = frozenset({HPB, ZPB, FLOSS})

# Tables have few distinct values; Fractions are immutable, so each is made once.
_FRACTIONS: dict[tuple[int, int], Fraction] = {}


def fraction(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)``, shared for values seen before."""
    key = (numerator, denominator)
    found = _FRACTIONS.get(key)
    if found is None:
        found = Fraction(numerator, denominator)
        if len(_FRACTIONS) < 65536:
            _FRACTIONS[key] = found
    return found


def point_scale(values: Iterable[Fraction]) -> int:
    """The least common denominator of a point system's values."""
    scale = 1
    for value in values:
        scale = scale * value.denominator // math.gcd(scale, value.denominator)
    return scale


def expelled_out(tournament: Tournament, start: int) -> bool:
    """True when ``start`` is expelled from a Swiss (a system not paired before round 1):
    out of the ranking, their games kept for everyone else. A round robin's expelled
    player is a withdrawn one, under its withdrawal rule."""
    swiss = not tournament.settings.system.has_predetermined_pairings
    return swiss and start in tournament.expelled


def compile_field(
    tournament: Tournament,
    *,
    system: System | None = None,
    edition: RulesEdition | None = None,
    excluded: frozenset[int] = frozenset(),
    forfeit_pending: frozenset[int] = frozenset(),
    byes_from: int | None = None,
) -> Field:
    """Compile ``tournament`` for tie-break work.

    ``excluded`` players are taken out by the withdrawal rule: their games no
    longer exist for anyone else (a free round instead). Games of players in
    ``forfeit_pending`` that have no result yet become forfeits lost by them.
    Byes of the rounds from index ``byes_from`` on are rounds not played yet
    (no points; see :mod:`crosstable.core.standings.begun`); None: every bye counts.
    """
    settings = tournament.settings
    system = system or settings.system
    predetermined = system.has_predetermined_pairings
    ps = settings.point_system
    free_points = settings.bye_points if settings.bye_points is not None else Fraction(0)
    bye_points = {
        ByeKind.PAIRING: ps.pairing_bye_points,
        ByeKind.FULL: ps.full_bye_points,
        ByeKind.HALF: ps.half_bye_points,
        ByeKind.ZERO: ps.zero_bye,
    }
    scale = point_scale(
        [
            ps.win,
            ps.draw,
            ps.loss,
            ps.forfeit_win_points,
            ps.forfeit_loss_points,
            ps.zero_bye,
            free_points,
            *bye_points.values(),
        ]
    )
    outcome_points = {o: int(o.points(ps) * scale) for o in Outcome}
    n = len(tournament.players)
    rounds = len(tournament.rounds)
    absent_kind = FREE if predetermined else ZPB
    opp = [[-1] * rounds for _ in range(n)]
    kind = [[absent_kind] * rounds for _ in range(n)]
    pts = [[0] * rounds for _ in range(n)]
    res = [[NONE] * rounds for _ in range(n)]
    col = [[0] * rounds for _ in range(n)]
    # Enum members are singletons: look outcomes up by identity, the hot loop's cheapest key.
    table = {id(o): (*_GAME_OUTCOMES[o], outcome_points[o]) for o in _GAME_OUTCOMES}
    pending = table[id(Outcome.PENDING)]
    round_byes: dict[int, list[tuple[int, int, int, int]]] = {}
    for r, rnd in enumerate(tournament.rounds):
        for game in rnd.games:
            w, b = game.white - 1, game.black - 1
            result = game.result
            wo = Outcome.PENDING if result is None else result.white
            bo = Outcome.PENDING if result is None else result.black
            if (
                forfeit_pending
                and not wo.is_decided
                and (game.white in forfeit_pending or game.black in forfeit_pending)
            ):
                lost = Outcome.FORFEIT_LOSS
                wo = lost if game.white in forfeit_pending else Outcome.FORFEIT_WIN
                bo = lost if game.black in forfeit_pending else Outcome.FORFEIT_WIN
            wi = pending if wo is Outcome.PENDING else table[id(wo)]
            bi = pending if bo is Outcome.PENDING else table[id(bo)]
            if excluded and (game.white in excluded) != (game.black in excluded):
                if game.white in excluded:
                    kind[b][r] = FREE
                    b = -1
                else:
                    kind[w][r] = FREE
                    w = -1
            if w >= 0:
                opp[w][r] = b if b >= 0 else game.black - 1
                kind[w][r], res[w][r], pts[w][r] = wi
                col[w][r] = WHITE
            if b >= 0:
                opp[b][r] = w if w >= 0 else game.white - 1
                kind[b][r], res[b][r], pts[b][r] = bi
                col[b][r] = BLACK
        for bye in rnd.byes:
            p = bye.player - 1
            if bye.kind is ByeKind.FREE:  # (a free round stays one before its round, at 0)
                k, v, held = (
                    absent_kind,
                    int(free_points * scale) if predetermined else 0,
                    absent_kind,
                )
            else:
                k, v, held = _BYE_KINDS[bye.kind], int(bye_points[bye.kind] * scale), PENDING
            round_byes.setdefault(r, []).append((p, k, v, held))
            if byes_from is not None and r >= byes_from:
                k, v = held, 0  # the round has not begun: its bye is not scored yet
            kind[p][r], pts[p][r] = k, v
    ratings = [p.rating if p.rating else None for p in tournament.players]
    round_rating = None
    if settings.long_event and settings.ratings_per_round:
        round_rating = [
            [p.rating_in(rnd.number) or None for rnd in tournament.rounds]
            for p in tournament.players
        ]
    return Field(
        n=n,
        rounds=rounds,
        scale=scale,
        win=int(ps.win * scale),
        draw=int(ps.draw * scale),
        loss=int(ps.loss * scale),
        predetermined=predetermined and settings.forfeits_in_tiebreaks,
        edition=edition or settings.rules,
        opp=opp,
        kind=kind,
        pts=pts,
        res=res,
        col=col,
        rating=ratings,
        active=[i + 1 not in excluded and not expelled_out(tournament, i + 1) for i in range(n)],
        round_numbers=[rnd.number for rnd in tournament.rounds],
        outcome_points=outcome_points,
        round_robin=predetermined,
        round_byes=round_byes,
        round_rating=round_rating,
    )
