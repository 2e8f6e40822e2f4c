"""The definitional path: every tie-break computed straight from the words of C.07.

This module is the specification. It is written for reading, not for speed: one
player at a time, round by round, every element built and cut as the articles say,
with no cache, no shortcut and no code shared with the fast paths (the registered
tie-breaks' ``values``, ``player_value`` and ``update``). The property tests in
``tests/test_tiebreak_definitions.py`` prove every fast path, the live table and
every explanation equal to :func:`definition`, for every code, modifier and edition.

What it reads from the compiled :class:`~.field.Field` is the record itself — per
round the opponent, the kind of round, the points, the result and the colour — and
the two editions' rules (:func:`~.base.edition`).

>>> from crosstable.core.model import Game, GameResult, Player, Round, System, Tournament
>>> from crosstable.core.model import Settings
>>> from crosstable.core.tiebreaks.field import compile_field
>>> from crosstable.core.tiebreaks.spec import parse_code
>>> t = Tournament(settings=Settings(system=System.SWISS_DUTCH),
...     players=tuple(Player(i, str(i)) for i in (1, 2, 3, 4)), rounds=(
...     Round(1, (Game(1, 1, 1, 2, GameResult.WHITE_WINS()), Game(1, 2, 3, 4, GameResult.DRAW()))),
...     Round(2, (Game(2, 1, 3, 1, GameResult.BLACK_WINS()), Game(2, 2, 4, 2, GameResult.DRAW()))),
...     Round(3, (Game(3, 1, 1, 4, GameResult.DRAW()), Game(3, 2, 2, 3, GameResult.DRAW())))))
>>> f = compile_field(t)
>>> [str(definition(f, parse_code(c), 0)) for c in ("BH", "BH/C1", "BH/C2")]
['7/2', '5/2', '3/2']
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from crosstable.core.model import RulesEdition
from crosstable.core.tiebreaks.base import Value, edition
from crosstable.core.tiebreaks.fide_tables import dp, expected
from crosstable.core.tiebreaks.field import (
    BLACK,
    FLOSS,
    FPB,
    FREE,
    FWIN,
    GAME,
    HPB,
    PAB,
    PENDING,
    WIN,
    ZPB,
    Field,
)
from crosstable.core.tiebreaks.spec import TieBreakSpec

#: C.07 16.1.2: a voluntary unplayed round is a requested bye or a forfeit loss
VOLUNTARY = (HPB, ZPB, FLOSS)
#: the rounds a round robin's opponent-based tie-breaks count (15.2: forfeits are games)
PREDETERMINED_GAMES = (GAME, FWIN, FLOSS)


@dataclass(frozen=True, slots=True)
class Record:
    """Everyone's rounds: the field's own, or those of the Fore Buchholz field (8.3)."""

    kind: list[list[int]]
    pts: list[list[int]]
    opp: list[list[int]]


@dataclass(frozen=True, slots=True)
class Part:
    """One element of an opponent-based tie-break (a round's opponent score and the
    points the player scored in that round), scaled; ``voluntary`` for 16.5."""

    score: int
    weight: int
    voluntary: bool

    def contribution(self, product: bool) -> int:
        return self.score * self.weight if product else self.score


def definition(f: Field, spec: TieBreakSpec, p: int) -> Value | None:
    """Player index ``p``'s value of ``spec`` by the definition (None: does not apply).

    The value is exact and in points (``Fraction``) or a count (``int``), as
    :meth:`~.base.Column.natural` shows it. DE is decided on a tied group during
    ranking; outside it every player's DE is 0.
    """
    name = spec.name
    ed = edition(f, spec)
    if name in ("BH", "FB", "AOB") and f.predetermined and ed is RulesEdition.C07_2026:
        return None  # C.07 2026, note to art. 8: not in round robins
    if name in _RATED and name != "ARO_RATED" and _unrated_present(f, spec):
        return None  # art. 10: dropped
    own = _OWN.get(name)
    if own is not None:
        return own(f, spec, p)
    if name == "BH":
        return _points(f, _buchholz(f, spec, _record(f), p))
    if name == "FB":
        return _points(f, _buchholz(f, spec, _fore_record(f), p))
    if name == "AOB":
        return _average_of_buchholz(f, spec, p)
    if name in ("SB", "DSB"):
        factor = 2 if name == "DSB" else 1
        total = _sonneborn(f, spec, p)
        return Fraction(total * factor, f.scale * f.scale)
    if name == "KS":
        return _koya(f, spec, p)
    if name in _RATED:
        return _rated(f, spec, p)
    raise KeyError(f"no definition of {name}")


# -- Type B: the player's own record (art. 7) ------------------------------------------


def _points_total(f: Field, spec: TieBreakSpec, p: int) -> Value:
    return Fraction(sum(f.pts[p]), f.scale)


def _wins(f: Field, spec: TieBreakSpec, p: int) -> Value:
    # 7.1: rounds with a win's points, with or without playing; the free round of an
    # odd round robin is no round of the player's, a game not played yet no result
    return sum(
        1 for r in range(f.rounds) if f.kind[p][r] not in (FREE, PENDING) and f.pts[p][r] == f.win
    )


def _games(f: Field, spec: TieBreakSpec) -> tuple[int, ...]:
    # 7.2–7.4 "over the board"; 15.2 (2026) makes a forfeit win a regular game for
    # Type B in a round robin (a forfeit loss stays unplayed). docs/tiebreaks.md.
    if f.predetermined and edition(f, spec) is RulesEdition.C07_2026:
        return (GAME, FWIN)
    return (GAME,)


def _won(f: Field, spec: TieBreakSpec, p: int) -> Value:
    games = _games(f, spec)
    return sum(1 for r in range(f.rounds) if f.kind[p][r] in games and f.res[p][r] == WIN)


def _black(f: Field, spec: TieBreakSpec, p: int) -> Value:
    games = _games(f, spec)
    return sum(1 for r in range(f.rounds) if f.kind[p][r] in games and f.col[p][r] == BLACK)


def _black_won(f: Field, spec: TieBreakSpec, p: int) -> Value:
    games = _games(f, spec)
    return sum(
        1
        for r in range(f.rounds)
        if f.kind[p][r] in games and f.col[p][r] == BLACK and f.res[p][r] == WIN
    )


def _elected(f: Field, spec: TieBreakSpec, p: int) -> Value:
    # 7.6: the rounds less half-point byes, zero-point byes and forfeit losses
    return sum(1 for r in range(f.rounds) if f.kind[p][r] not in (HPB, ZPB, FLOSS, FREE))


def _progressive(f: Field, spec: TieBreakSpec, p: int) -> Value:
    # 7.5: the score after each round, added up; Cut-n leaves out the first n rounds
    total = 0
    for r in range(f.rounds):
        if r >= spec.cut_low:
            total += sum(f.pts[p][: r + 1])
    return Fraction(total, f.scale)


def _standard(f: Field, spec: TieBreakSpec, p: int) -> Value:
    # 7.7: 1 for scoring more than the scheduled opponent (unplayed: than a draw's
    # points), ½ for the same; forfeits are unplayed (15.2 keeps forfeit losses
    # unplayed for Type B, and a forfeit win beats a draw's points either way)
    halves = 0
    for r in range(f.rounds):
        k = f.kind[p][r]
        if k in (FREE, PENDING):
            continue
        mine = f.pts[p][r]
        theirs = f.pts[f.opp[p][r]][r] if k == GAME else f.draw
        halves += 2 if mine > theirs else 1 if mine == theirs else 0
    return Fraction(halves, 2)


def _pairing_number(f: Field, spec: TieBreakSpec, p: int) -> Value:
    return p + 1  # 7.8


def _rating(f: Field, spec: TieBreakSpec, p: int) -> Value | None:
    return _ratings(f, spec)[p]  # 10.6


def _direct(f: Field, spec: TieBreakSpec, p: int) -> Value:
    return 0  # art. 6 works on tied groups, during ranking


_OWN = {
    "PTS": _points_total,
    "WIN": _wins,
    "WON": _won,
    "BPG": _black,
    "BWG": _black_won,
    "REP": _elected,
    "PS": _progressive,
    "STD": _standard,
    "TPN": _pairing_number,
    "RTNG": _rating,
    "DE": _direct,
}


# -- scores as the opponents see them (15.2, 16.3) ---------------------------------------


def _record(f: Field) -> Record:
    return Record(f.kind, f.pts, f.opp)


def _fore_record(f: Field) -> Record:
    """8.3: every paired game of the final round as a draw (for everyone)."""
    kind = [list(row) for row in f.kind]
    pts = [list(row) for row in f.pts]
    last = f.rounds - 1
    if last >= 0:
        for q in range(f.n):
            if f.opp[q][last] >= 0 and f.kind[q][last] in (GAME, FWIN, FLOSS, PENDING):
                kind[q][last] = GAME
                pts[q][last] = f.draw
    return Record(kind, pts, f.opp)


def _score(rec: Record, q: int) -> int:
    return sum(rec.pts[q])


def _adjusted(f: Field, rec: Record, q: int) -> int:
    """16.3: in a Swiss event a requested bye followed only by voluntary unplayed rounds
    (or in the last round, 16.2.5) counts as a draw; in a round robin the score itself."""
    score = _score(rec, q)
    if f.predetermined:
        return score
    available = [r for r in range(f.rounds) if rec.kind[q][r] not in VOLUNTARY]
    last = available[-1] if available else -1
    for r in range(last + 1, f.rounds):
        if rec.kind[q][r] in (HPB, ZPB):
            score += f.draw - rec.pts[q][r]
    return score


def _parts(f: Field, ed: RulesEdition, rec: Record, p: int) -> list[Part]:
    """Every round's element for BH and SB (15.2; art. 16 in a Swiss event)."""
    out: list[Part] = []
    for r in range(f.rounds):
        k = rec.kind[p][r]
        o = rec.opp[p][r]
        v = rec.pts[p][r]
        if f.predetermined:
            # 15.2: forfeits are games against the scheduled opponent; the free round
            # of an odd field (and a game the withdrawal rule annulled) is nothing
            if k in PREDETERMINED_GAMES and o >= 0:
                out.append(Part(_score(rec, o), v, False))
            continue
        if k in (PENDING, FREE):
            continue
        if k == GAME:
            out.append(Part(_adjusted(f, rec, o), v, False))
            continue
        # 16.4: a dummy opponent with the player's own score; capped under 2026 at the
        # scheduled opponent's adjusted score (forfeits, 16.4.1) and at a draw's points
        # times the number of rounds (byes, 16.4.2)
        dummy = _score(rec, p)
        if ed is RulesEdition.C07_2026:
            if k in (FWIN, FLOSS):
                dummy = min(dummy, _adjusted(f, rec, o))
            elif k in (PAB, FPB, HPB, ZPB):
                dummy = min(dummy, f.draw * f.rounds)
        out.append(Part(dummy, v, k in VOLUNTARY))
    return out


def _cut(parts: list[Part], low: int, high: int, product: bool) -> list[Part]:
    """Art. 14 with 16.5: cut ``low`` least significant values, then ``high`` most.

    The least significant value is the element with the lowest opponent score and,
    among those, the lowest contribution (14.1.2). With voluntary unplayed rounds
    left, the lowest contribution coming from one of them is cut instead, unless the
    least significant value's contribution is higher (16.5.2: cut the higher of the
    two); this is repeated for each further cut.
    """
    kept = list(parts)
    for _ in range(low):
        if not kept:
            break
        least = min(kept, key=lambda e: (e.score, e.contribution(product)))
        victim = least
        voluntary = [e for e in kept if e.voluntary]
        if voluntary:
            lowest = min(voluntary, key=lambda e: (e.contribution(product), e.score))
            if lowest.contribution(product) >= least.contribution(product):
                victim = lowest
        kept.remove(victim)
    for _ in range(high):
        if not kept:
            break
        kept.remove(max(kept, key=lambda e: (e.score, e.contribution(product))))
    return kept


def _buchholz(f: Field, spec: TieBreakSpec, rec: Record, p: int) -> int:
    """8.1: the sum of the opponents' scores (scaled), after the spec's cuts."""
    kept = _cut(_parts(f, edition(f, spec), rec, p), spec.cut_low, spec.cut_high, False)
    return sum(e.score for e in kept)


def _sonneborn(f: Field, spec: TieBreakSpec, p: int) -> int:
    """9.1: Σ opponent's score × points scored against them (scale² units), cut."""
    parts = _parts(f, edition(f, spec), _record(f), p)
    kept = _cut(parts, spec.cut_low, spec.cut_high, True)
    return sum(e.score * e.weight for e in kept)


def _average_of_buchholz(f: Field, spec: TieBreakSpec, p: int) -> Value | None:
    """8.2: the average Buchholz (``/F``: Fore Buchholz) of the opponents played over
    the board, to the hundredth (.005 up)."""
    rec = _fore_record(f) if spec.fore else _record(f)
    found = [_buchholz(f, spec, rec, f.opp[p][r]) for r in range(f.rounds) if f.kind[p][r] == GAME]
    if not found:
        return None
    mean = Fraction(sum(found), len(found) * f.scale)
    return Fraction(_half_up(mean * 100), 100)


def _points(f: Field, scaled: int) -> Fraction:
    return Fraction(scaled, f.scale)


# -- Koya (9.2) ----------------------------------------------------------------------------


def _koya(f: Field, spec: TieBreakSpec, p: int) -> Value:
    """The points scored against everyone with at least 50 % of the maximum score
    (``/L``: the bar moved by half points, by points, or set as a share)."""
    if f.round_robin:  # (the pairing system's, whatever the forfeit setting)
        # the maximum counts the rounds with an opponent: a player of an odd field
        # has a free round per cycle (withdrawn players, taken out, are not counted)
        free = [f.kind[q].count(FREE) for q in range(f.n) if f.active[q]]
        games = f.rounds - (min(free) if free else 0)
    else:
        games = f.rounds
    maximum = Fraction(f.win * games, f.scale)
    share = spec.limit_percent if spec.limit_percent is not None else Fraction(50)
    bar = maximum * share / 100 + Fraction(spec.limit_steps, 2)
    if spec.limit_points is not None:
        bar += spec.limit_points
    total = 0
    for r in range(f.rounds):
        o = f.opp[p][r]
        if o >= 0 and f.kind[p][r] in PREDETERMINED_GAMES and _points(f, f.score[o]) >= bar:
            total += f.pts[p][r]
    return Fraction(total, f.scale)


# -- rating-based (art. 10) ------------------------------------------------------------------

_RATED = ("ARO", "TPR", "PTP", "APRO", "APPO", "ARO_RATED", "RTNG")


def _ratings(f: Field, spec: TieBreakSpec) -> list[int | None]:
    return [r if r is not None else spec.unrated_rating for r in f.rating]


def _unrated_present(f: Field, spec: TieBreakSpec) -> bool:
    return any(r is None for r in _ratings(f, spec))


def _opponents(f: Field, spec: TieBreakSpec, p: int) -> list[tuple[int, int]]:
    """(rating, result 2/1/0) of each rated opponent played over the board (their rating
    of the game's round when the event counts ratings per round), the spec's
    lowest and then highest ratings cut (14.1.2 b). Forfeits never count (10.1;
    15.2 of 2026 says so for round robins)."""
    ratings = _ratings(f, spec)
    games = []
    for r in range(f.rounds):
        if f.kind[p][r] == GAME:
            rating = ratings[f.opp[p][r]]
            if f.round_rating is not None:  # an event over 30 days: the round's rating
                rating = f.round_rating[f.opp[p][r]][r]
                rating = spec.unrated_rating if rating is None else rating
            if rating is not None:
                games.append((rating, f.res[p][r]))
    games.sort(key=lambda g: g[0])
    games = games[spec.cut_low :]
    return games[: len(games) - spec.cut_high] if spec.cut_high else games


def _half_up(value: Fraction) -> int:
    """To the nearest integer, .5 up."""
    whole = value.numerator // value.denominator
    return whole + 1 if value - whole >= Fraction(1, 2) else whole


def _average(games: list[tuple[int, int]]) -> int | None:
    if not games:
        return None
    return _half_up(Fraction(sum(g[0] for g in games), len(games)))


def _performance(games: list[tuple[int, int]]) -> int | None:
    """10.2: ARO + dp(fractional score in games over the board, to the hundredth)."""
    aro = _average(games)
    if aro is None:
        return None
    share = Fraction(sum(g[1] for g in games), 2 * len(games))
    return aro + dp(_half_up(share * 100))


def _perfect(games: list[tuple[int, int]]) -> int | None:
    """10.3: the lowest whole rating whose expected score reaches the score (full
    scale); a zero score gives 800 below the lowest-rated opponent."""
    if not games:
        return None
    lowest = min(g[0] for g in games)
    target = 50 * sum(g[1] for g in games)  # hundredths of a point
    if target == 0:
        return lowest - 800
    # the expected score grows with the rating: 800 below everyone it is 0, 800 above
    # everyone it is the number of games; halve the interval between them
    below, enough = lowest - 800, max(g[0] for g in games) + 800
    while enough - below > 1:
        middle = (below + enough) // 2
        if sum(expected(middle - g[0]) for g in games) >= target:
            enough = middle
        else:
            below = middle
    return enough


def _rated(f: Field, spec: TieBreakSpec, p: int) -> Value | None:
    name = spec.name
    if name == "ARO":
        return _average(_opponents(f, spec, p))
    if name == "ARO_RATED":
        games = _opponents(f, spec, p)
        return Fraction(sum(g[0] for g in games), len(games)) if games else None
    if name == "TPR":
        return _performance(_opponents(f, spec, p))
    if name == "PTP":
        return _perfect(_opponents(f, spec, p))
    # APRO, APPO (10.4, 10.5): the opponents' own TPR or PTP, averaged, .5 up
    own = _performance if name == "APRO" else _perfect
    found = []
    for r in range(f.rounds):
        if f.kind[p][r] == GAME:
            value = own(_opponents(f, spec, f.opp[p][r]))
            if value is not None:
                found.append(value)
    return _half_up(Fraction(sum(found), len(found))) if found else None
