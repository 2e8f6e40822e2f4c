"""Type B tie-breaks: the player's own record (C.07 art. 7) and the points.

>>> from crosstable.core.model import Game, GameResult, Player, Round, Tournament
>>> from crosstable.core.tiebreaks.field import compile_field
>>> from crosstable.core.tiebreaks.spec import parse_code
>>> t = Tournament(players=(Player(1, "A"), Player(2, "B")), rounds=(
...     Round(1, (Game(1, 1, 1, 2, GameResult.WHITE_WINS()),)),
...     Round(2, (Game(2, 1, 2, 1, GameResult.DRAW()),))))
>>> f = compile_field(t)
>>> REGISTRY["PS"].compute(f, parse_code("PS")).natural(0)
Fraction(5, 2)
"""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar

from crosstable.core.model import RulesEdition
from crosstable.core.text import Message
from crosstable.core.tiebreaks.base import REGISTRY, TieBreak, Value, edition, register
from crosstable.core.tiebreaks.explain import Explanation, Item, join_sum, show
from crosstable.core.tiebreaks.explain import amount as as_amount
from crosstable.core.tiebreaks.field import (
    BLACK,
    FLOSS,
    FREE,
    FWIN,
    GAME,
    HPB,
    KIND_NAMES,
    PENDING,
    WIN,
    ZPB,
    Field,
)
from crosstable.core.tiebreaks.spec import CUT, REVERSE, TieBreakSpec

__all__ = ["REGISTRY"]


def _round_text(f: Field, p: int, r: int) -> str:
    k = f.kind[p][r]
    o = f.opp[p][r]
    # Messages: English as before, translated on the web
    if k == GAME:
        white = f.col[p][r] == 1
        result = f.res[p][r]
        if result == 2:
            if white:
                return Message("won with White against {opponent}", opponent=o + 1)
            return Message("won with Black against {opponent}", opponent=o + 1)
        if result == 1:
            if white:
                return Message("drew with White against {opponent}", opponent=o + 1)
            return Message("drew with Black against {opponent}", opponent=o + 1)
        if white:
            return Message("lost with White against {opponent}", opponent=o + 1)
        return Message("lost with Black against {opponent}", opponent=o + 1)
    if o >= 0:
        return Message("{what} against {opponent}", what=KIND_NAMES[k], opponent=o + 1)
    return KIND_NAMES[k]


class _Counting(TieBreak):
    """A count of rounds with some property; subclasses say which rounds count."""

    integral = True

    def counts(self, f: Field, p: int, r: int) -> bool:
        raise NotImplementedError

    def counts_for(self, f: Field, spec: TieBreakSpec, p: int, r: int) -> bool:
        """The definition: does round index ``r`` of player ``p`` count (for this spec)?"""
        return self.counts(f, p, r)

    def note(self, f: Field, spec: TieBreakSpec) -> str:
        return self.article

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        return [self.player_value(f, spec, p) for p in f.indices()]

    def player_value(self, f: Field, spec: TieBreakSpec, p: int) -> Value | None:
        return sum(1 for r in range(f.rounds) if self.counts_for(f, spec, p, r))

    def explain(self, f: Field, spec: TieBreakSpec, p: int) -> Explanation:
        items = tuple(
            Item(
                f.round_numbers[r],
                f.opp[p][r] + 1 if f.opp[p][r] >= 0 else None,
                _round_text(f, p, r),
                1,
            )
            for r in range(f.rounds)
            if self.counts_for(f, spec, p, r)
        )
        value = len(items)
        formula = Message("{title}: {value}", title=self.title, value=value)
        return Explanation(spec.code, p + 1, value, str(value), items, formula, self.note(f, spec))


@register
class Points(TieBreak):
    """The score itself (``PTS``), always the first criterion."""

    name = "PTS"
    title = "Points"
    article = "C.07 4.2"
    tb_type = "B"

    def denominator(self, f: Field, spec: TieBreakSpec) -> int:
        return f.scale

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        return list(f.score)

    def player_value(self, f: Field, spec: TieBreakSpec, p: int) -> Value | None:
        return f.score[p]

    def explain(self, f: Field, spec: TieBreakSpec, p: int) -> Explanation:
        items = []
        parts: list[object] = []
        for r in range(f.rounds):
            if f.kind[p][r] == PENDING:
                continue
            amount = f.points(f.pts[p][r])
            parts.append(as_amount(amount))
            items.append(
                Item(
                    f.round_numbers[r],
                    f.opp[p][r] + 1 if f.opp[p][r] >= 0 else None,
                    _round_text(f, p, r),
                    amount,
                )
            )
        value = f.points(f.score[p])
        formula = Message("{sum} = {value}", sum=join_sum(parts), value=as_amount(value))
        return Explanation(spec.code, p + 1, value, show(value), tuple(items), formula)


@register
class Wins(_Counting):
    """WIN: rounds with a win's points, with or without playing (7.1)."""

    name = "WIN"
    title = Message("Number of wins")  # (shown in the explanation's formula, translated)
    article = Message("C.07 7.1: rounds with as many points as a win, played or not")
    tb_type = "B"

    def counts(self, f: Field, p: int, r: int) -> bool:
        k = f.kind[p][r]
        return k != FREE and k != PENDING and f.pts[p][r] == f.win

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        win = f.win
        out: list[Value | None] = []
        for kinds, pts in zip(f.kind, f.pts, strict=True):
            out.append(sum(1 for k, v in zip(kinds, pts, strict=True) if v == win and k < FREE))
        return out

    def player_value(self, f: Field, spec: TieBreakSpec, p: int) -> Value | None:
        win = f.win
        return sum(1 for k, v in zip(f.kind[p], f.pts[p], strict=True) if v == win and k < FREE)


def forfeit_wins_are_games(f: Field, spec: TieBreakSpec) -> bool:
    """C.07 2026 15.2: with pre-determined pairings a forfeit win is a regular game for
    the Type B tie-breaks (only forfeit losses stay unplayed rounds), so it counts in
    WON, BWG and BPG. The 2024 text (and Swiss events, art. 16) keep 7.2–7.4's "over
    the board". The reasoning, with the article numbers, is in docs/tiebreaks.md."""
    return f.predetermined and edition(f, spec) is RulesEdition.C07_2026


class _OverTheBoard(_Counting):
    """WON, BPG, BWG: games over the board, forfeit wins too in a 2026 round robin."""

    games_only: ClassVar[str]
    with_forfeit_wins: ClassVar[str]

    def played(self, f: Field, spec: TieBreakSpec) -> tuple[int, ...]:
        """The kinds of round that are games for this tie-break."""
        return (GAME, FWIN) if forfeit_wins_are_games(f, spec) else (GAME,)

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        kinds = self.played(f, spec)
        return [
            sum(1 for r in range(f.rounds) if self.counted(f, p, r, kinds)) for p in f.indices()
        ]

    def player_value(self, f: Field, spec: TieBreakSpec, p: int) -> Value | None:
        kinds = self.played(f, spec)
        return sum(1 for r in range(f.rounds) if self.counted(f, p, r, kinds))

    def counted(self, f: Field, p: int, r: int, kinds: tuple[int, ...]) -> bool:
        raise NotImplementedError

    def counts_for(self, f: Field, spec: TieBreakSpec, p: int, r: int) -> bool:
        return self.counted(f, p, r, self.played(f, spec))

    def counts(self, f: Field, p: int, r: int) -> bool:
        return self.counted(f, p, r, (GAME,))

    def note(self, f: Field, spec: TieBreakSpec) -> str:
        return self.with_forfeit_wins if forfeit_wins_are_games(f, spec) else self.games_only


@register
class GamesWon(_OverTheBoard):
    """WON: games won over the board (7.2); in a 2026 round robin forfeit wins too (15.2)."""

    name = "WON"
    title = Message("Number of games won")  # (shown in the explanation's formula, translated)
    article = Message("C.07 7.2: games won over the board (forfeits and byes do not count)")
    games_only = article
    with_forfeit_wins = Message(
        "C.07 7.2 with 15.2 (2026): games won, a forfeit win counted as a game "
        "(pre-determined pairings)"
    )
    tb_type = "B"

    def counted(self, f: Field, p: int, r: int, kinds: tuple[int, ...]) -> bool:
        return f.kind[p][r] in kinds and f.res[p][r] == WIN


@register
class BlackGames(_OverTheBoard):
    """BPG: games played over the board with Black (7.3); in a 2026 round robin a forfeit
    win with Black too, never a forfeit loss (15.2)."""

    name = "BPG"
    title = Message(
        "Number of games played with Black"
    )  # (shown in the explanation's formula, translated)
    article = Message("C.07 7.3: games played over the board with Black")
    games_only = article
    with_forfeit_wins = Message(
        "C.07 7.3 with 15.2 (2026): games played with Black, a forfeit win counted as a "
        "game, a forfeit loss not (pre-determined pairings)"
    )
    tb_type = "B"

    def counted(self, f: Field, p: int, r: int, kinds: tuple[int, ...]) -> bool:
        return f.kind[p][r] in kinds and f.col[p][r] == BLACK


@register
class BlackWins(_OverTheBoard):
    """BWG: games won over the board with Black (7.4); in a 2026 round robin forfeit wins
    with Black too (15.2)."""

    name = "BWG"
    title = Message(
        "Number of games won with Black"
    )  # (shown in the explanation's formula, translated)
    article = Message("C.07 7.4: games won over the board with Black")
    games_only = article
    with_forfeit_wins = Message(
        "C.07 7.4 with 15.2 (2026): games won with Black, a forfeit win counted as a "
        "game (pre-determined pairings)"
    )
    tb_type = "B"

    def counted(self, f: Field, p: int, r: int, kinds: tuple[int, ...]) -> bool:
        return f.kind[p][r] in kinds and f.col[p][r] == BLACK and f.res[p][r] == WIN


@register
class RoundsElectedToPlay(_Counting):
    """REP: rounds minus half-point byes, zero-point byes and forfeit losses (7.6).

    The free round of an odd round robin is no round of the player's, so it
    does not count either; a round not played yet counts (the player is there).
    """

    name = "REP"
    title = Message(
        "Rounds one elected to play"
    )  # (shown in the explanation's formula, translated)
    article = Message("C.07 7.6: rounds minus half-point byes, zero-point byes and forfeit losses")
    tb_type = "B"

    def counts(self, f: Field, p: int, r: int) -> bool:
        return f.kind[p][r] not in (HPB, ZPB, FLOSS, FREE)


@register
class ProgressiveScores(TieBreak):
    """PS: the sum of the running score after each round (7.5); /C1 drops round 1."""

    name = "PS"
    title = "Sum of progressive scores"
    article = "C.07 7.5"
    tb_type = "B"
    modifiers = frozenset({CUT})

    def denominator(self, f: Field, spec: TieBreakSpec) -> int:
        return f.scale

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        rounds = f.rounds
        cut = min(spec.cut_low, rounds)
        weights = [rounds - r for r in range(rounds)]
        return [_progressive(pts, cut, weights) for pts in f.pts]

    def player_value(self, f: Field, spec: TieBreakSpec, p: int) -> Value | None:
        rounds = f.rounds
        weights = [rounds - r for r in range(rounds)]
        return _progressive(f.pts[p], min(spec.cut_low, rounds), weights)

    def explain(self, f: Field, spec: TieBreakSpec, p: int) -> Explanation:
        running = 0
        items = []
        parts = []
        for r in range(f.rounds):
            running += f.pts[p][r]
            counted = r >= spec.cut_low
            amount = f.points(running)
            after = Message("score after the round")
            items.append(Item(f.round_numbers[r], None, after, amount, counted))
            if counted:
                parts.append(as_amount(amount))
        value = self.compute(f, spec).natural(p)
        formula = Message("{sum} = {value}", sum=join_sum(parts), value=as_amount(value))
        return Explanation(spec.code, p + 1, value, show(value), tuple(items), formula)


def _progressive(pts: list[int], cut: int, weights: list[int]) -> int:
    """Σ of the running score after each round, the first ``cut`` rounds' left out."""
    if not cut:
        return sum(w * v for w, v in zip(weights, pts, strict=True))
    running = 0
    total = 0
    for r, v in enumerate(pts):
        running += v
        if r >= cut:
            total += running
    return total


@register
class StandardPoints(TieBreak):
    """STD: 1 per round won against the scheduled opponent, ½ per round level (7.7).

    Without playing, the points are compared with a draw's. It counts 1-½-0
    inside a 3-1-0 event. A free round of an odd round robin is no element.
    """

    name = "STD"
    title = "Standard points"
    article = "C.07 7.7 (2026)"
    tb_type = "B"

    def denominator(self, f: Field, spec: TieBreakSpec) -> int:
        return 2

    def element(self, f: Field, p: int, r: int) -> int | None:
        k = f.kind[p][r]
        if k in (FREE, PENDING):
            return None
        mine = f.pts[p][r]
        # A game is compared with the opponent's points; an unplayed round with a
        # draw's. Forfeits are unplayed rounds here (and C.07 15.2, 2026, keeps a
        # forfeit loss unplayed for Type B even in a round robin), so a double
        # forfeit gives 0, not ½.
        theirs = f.pts[f.opp[p][r]][r] if k == GAME else f.draw
        return 2 if mine > theirs else 1 if mine == theirs else 0

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        return [self.player_value(f, spec, p) for p in f.indices()]

    def player_value(self, f: Field, spec: TieBreakSpec, p: int) -> Value | None:
        return sum(e for r in range(f.rounds) if (e := self.element(f, p, r)) is not None)

    def explain(self, f: Field, spec: TieBreakSpec, p: int) -> Explanation:
        items = []
        for r in range(f.rounds):
            e = self.element(f, p, r)
            if e is not None:
                items.append(Item(f.round_numbers[r], None, _round_text(f, p, r), Fraction(e, 2)))
        value = self.compute(f, spec).natural(p)
        return Explanation(spec.code, p + 1, value, show(value), tuple(items))


@register
class PairingNumber(TieBreak):
    """TPN: the tournament pairing number, lowest first (7.8); /R reverses it."""

    name = "TPN"
    title = "Tournament pairing number"
    article = "C.07 7.8 (2026)"
    tb_type = "B"
    modifiers = frozenset({REVERSE})
    higher_is_better = False
    integral = True

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        return [p + 1 for p in f.indices()]
