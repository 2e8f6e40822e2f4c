"""One knockout match: its games, colours, score, and who goes on.

A match is played in *stages*. Stage 0 is the regular games of the
:class:`MatchFormat`: one game, two games with colours swapped (played one after
the other), or two games played at once, one with each colour. The player with
more points goes on (win 1, draw ½, loss 0; a forfeit win counts as a win). On
a tie the :class:`TieRule` decides: first its extra stages, each a mini-match of
its own (e.g. two rapid games, then two blitz games — the points of a stage are
not added to the regular score), then its *decider*:

* ``lower-rated`` — the portal's rule: the lower-rated player goes on; an
  unrated player counts as rating 0; equal ratings are decided by lot;
* ``lots`` — a drawing of lots;
* ``armageddon`` — one game, colours by lot, a draw counts as a win for Black;
* ``sudden-death`` — single games, colours by lot and then alternating, until
  a game is won.

Colours (RULES.md §6.1): in the first game of each stage they are drawn by lot,
then they alternate. Every lot is reproducible: it is drawn with
``random.Random(f"knockout:{seed}:{slot}:{what}")`` from the event's published
seed, the match's slot and what is drawn, so a match's colours do not depend on
the order in which other matches are set up.

A sequential stage is set up one game at a time and ends as soon as the leader
cannot be caught (a lead of more than the games left); the games of an
"at once" stage are set up together and all of them count.

>>> m = Match(slot=1, round=1, top=1, bottom=2, ratings=(1800, 1700))
>>> rules = MatchRules(MatchFormat(games=2), seed=7)
>>> [(g.number, g.white, g.black) for g in m.status(rules).pending]
[(1, 2, 1)]
>>> m = m.with_result(1, GameResult.parse("1-0"), rules)
>>> [(g.number, g.white, g.black) for g in m.status(rules).pending]
[(2, 1, 2)]
>>> s = m.with_result(2, GameResult.parse("1-0"), rules).status(rules)
>>> s.score, s.winner, s.decided_by
((Fraction(1, 1), Fraction(1, 1)), 2, 'lower-rated')
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from functools import lru_cache

from crosstable.core.errors import RuleError
from crosstable.core.model import GameResult, Outcome


class GameKind(Enum):
    REGULAR = "regular"
    RAPID = "rapid"
    BLITZ = "blitz"
    ARMAGEDDON = "armageddon"
    SUDDEN_DEATH = "sudden-death"


class Decider(Enum):
    """What settles a match still tied after every stage of games."""

    LOWER_RATED = "lower-rated"
    LOTS = "lots"
    ARMAGEDDON = "armageddon"
    SUDDEN_DEATH = "sudden-death"


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """The regular games of a match: how many, and whether played at once.

    >>> MatchFormat.parse("2-at-once")
    MatchFormat(games=2, at_once=True)
    """

    games: int = 1
    at_once: bool = False

    def __post_init__(self) -> None:
        if self.games < 1:
            raise RuleError("a match has at least one game, not {games}", games=self.games)
        if self.at_once and self.games % 2:
            raise RuleError("games played at once take both colours: an even number of games")

    @classmethod
    def parse(cls, text: str) -> MatchFormat:
        """``1`` (one game), ``2`` (two games, colours swapped), ``2-at-once``; any k, k-at-once."""
        cleaned = text.strip().lower()
        at_once = cleaned.endswith("-at-once")
        number = cleaned.removesuffix("-at-once")
        if not number.isdigit():
            raise RuleError("match format {text}: use 1, 2 or 2-at-once", text=repr(text))
        return cls(int(number), at_once)

    def label(self) -> str:
        return f"{self.games}-at-once" if self.at_once else str(self.games)


@dataclass(frozen=True, slots=True)
class TieStage:
    """An extra mini-match after a tie: ``games`` games of ``kind`` (rapid, blitz…)."""

    kind: GameKind
    games: int = 2

    def __post_init__(self) -> None:
        if self.kind in (GameKind.ARMAGEDDON, GameKind.SUDDEN_DEATH):
            raise RuleError("{kind} is a decider, not a stage of extra games", kind=self.kind.value)
        if self.games < 1:
            raise RuleError(
                "a stage of extra games has at least one game, not {games}", games=self.games
            )


@dataclass(frozen=True, slots=True)
class TieRule:
    """Extra stages (each with a fresh colour lot), then the decider.

    >>> TieRule.parse("rapid:2,blitz:2,armageddon") == TieRule.playoff()
    True
    >>> TieRule.parse("lower-rated").label()
    'lower-rated'
    """

    stages: tuple[TieStage, ...] = ()
    decider: Decider = Decider.LOWER_RATED

    @classmethod
    def playoff(cls) -> TieRule:
        """Two rapid games, two blitz games, then armageddon."""
        return cls((TieStage(GameKind.RAPID), TieStage(GameKind.BLITZ)), Decider.ARMAGEDDON)

    @classmethod
    def parse(cls, text: str) -> TieRule:
        """``lower-rated``, ``lots``, ``playoff``, or stages then a decider.

        A stage is ``kind:games`` (``rapid:2``, ``blitz:2``); the decider is one of
        ``lower-rated``, ``lots``, ``armageddon``, ``sudden-death``.
        """
        parts = [part.strip().lower() for part in text.split(",") if part.strip()]
        if parts == ["playoff"]:
            return cls.playoff()
        if not parts:
            raise RuleError("tie rule: empty")
        stages = []
        for part in parts[:-1]:
            kind, _, count = part.partition(":")
            try:
                stage_kind = GameKind(kind)
            except ValueError:
                raise RuleError(
                    "tie rule {text}: unknown stage {kind}", text=repr(text), kind=repr(kind)
                ) from None
            if count and not count.isdigit():
                raise RuleError(
                    "tie rule {text}: {count} is not a number of games",
                    text=repr(text),
                    count=repr(count),
                )
            stages.append(TieStage(stage_kind, int(count) if count else 2))
        try:
            decider = Decider(parts[-1])
        except ValueError:
            choices = ", ".join(d.value for d in Decider)
            raise RuleError(
                "tie rule {text}: end with a decider ({choices})", text=repr(text), choices=choices
            ) from None
        return cls(tuple(stages), decider)

    def label(self) -> str:
        return ",".join([f"{s.kind.value}:{s.games}" for s in self.stages] + [self.decider.value])


#: the round names a per-round format may name (besides ``round of N``)
ROUND_KEYS = ("final", "semi-final", "quarter-final", "third-place")


def parse_round_formats(text: str) -> tuple[tuple[str, MatchFormat], ...]:
    """``final:4,semi-final:2`` → formats by round name (``round of 16:2`` works too).

    >>> round_formats_label(parse_round_formats("final:4, Round of 16 : 2-at-once"))
    'final:4,round of 16:2-at-once'
    """
    found: dict[str, MatchFormat] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, colon, fmt = part.rpartition(":")
        name = " ".join(name.lower().split())
        if not colon or not name:
            raise RuleError(
                "round formats {text}: write round:format, e.g. final:4", text=repr(text)
            )
        known = name in ROUND_KEYS or (
            name.startswith("round of ") and name.removeprefix("round of ").isdigit()
        )
        if not known:
            raise RuleError(
                (
                    "round formats {text}: unknown round {round} (final, semi-final, "
                    "quarter-final, round of N, third-place)"
                ),
                text=repr(text),
                round=repr(name),
            )
        if name in found:
            raise RuleError(
                "round formats {text}: {round} is given twice", text=repr(text), round=name
            )
        found[name] = MatchFormat.parse(fmt)
    return tuple(found.items())


def round_formats_label(formats: tuple[tuple[str, MatchFormat], ...]) -> str:
    return ",".join(f"{name}:{fmt.label()}" for name, fmt in formats)


@dataclass(frozen=True, slots=True)
class MatchRules:
    """The settings every match of a knockout follows; ``seed`` drives every lot.

    ``round_formats`` gives some rounds a format of their own, by name (``final``,
    ``semi-final``, ``quarter-final``, ``round of N``, ``third-place``); the others
    play ``format``. The match for third place (``third_place``) plays the final's
    format unless ``third-place`` is named.

    ``ahead``: set up every game that is certain to be played, not only the next
    one — a sequential stage's later games as soon as no result can end the stage
    before them (both games of a two-game match at once, three of a four-game
    match). Their results may then come in any order. The tournament store works
    this way, so that the arbiter's list shows every game known in advance.
    """

    format: MatchFormat = MatchFormat()
    tie_rule: TieRule = TieRule()
    seed: int = 0
    ahead: bool = False
    round_formats: tuple[tuple[str, MatchFormat], ...] = ()
    third_place: bool = False

    def format_of(self, name: str) -> MatchFormat:
        """The format of the round called ``name`` (``final``, ``round of 16``…)."""
        for key, fmt in self.round_formats:
            if key == name:
                return fmt
        if name == "third-place":
            return self.format_of("final")
        return self.format


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One game of a match; ``stage`` 0 is the regular games, 1… the tie-break stages."""

    number: int
    stage: int
    kind: GameKind
    white: int
    black: int
    result: GameResult | None = None

    def points_of(self, player: int) -> Fraction:
        """The player's points in this game: 1, ½ or 0 (a forfeit win is a win)."""
        return Fraction(self.half_points(player), 2)

    def half_points(self, player: int) -> int:
        """Twice :meth:`points_of`, as an integer (2, 1 or 0)."""
        if self.result is None:
            return 0
        outcome = self.result.white if player == self.white else self.result.black
        return _HALF_POINTS.get(outcome, 0)


_HALF_POINTS = {
    Outcome.WIN: 2,
    Outcome.SHORT_WIN: 2,
    Outcome.FORFEIT_WIN: 2,
    Outcome.DRAW: 1,
    Outcome.SHORT_DRAW: 1,
}


@dataclass(frozen=True, slots=True)
class MatchStatus:
    """What the games so far say: games set up, stage scores, winner (None: not decided)."""

    games: tuple[MatchGame, ...]
    stage_scores: tuple[tuple[Fraction, Fraction], ...]  # (top, bottom) per stage reached
    winner: int | None
    decided_by: str  # "", "score", a stage kind, or the decider's name

    @property
    def score(self) -> tuple[Fraction, Fraction]:
        """The regular games' score, (top, bottom)."""
        return self.stage_scores[0]

    @property
    def pending(self) -> tuple[MatchGame, ...]:
        """Games set up and waiting for a result."""
        return tuple(g for g in self.games if g.result is None)

    @property
    def decided(self) -> bool:
        return self.winner is not None


@dataclass(frozen=True, slots=True)
class Match:
    """Two players in a slot; ``results[i]`` is game i + 1's result (None: not in yet)."""

    slot: int
    round: int
    top: int
    bottom: int
    ratings: tuple[int | None, int | None] = (None, None)
    results: tuple[GameResult | None, ...] = ()
    #: this match's own format (a round with a format of its own); None: the rules'
    format: MatchFormat | None = None

    def __post_init__(self) -> None:
        if self.top == self.bottom:
            raise RuleError(
                "slot {slot}: player {player} cannot meet themself", slot=self.slot, player=self.top
            )

    @property
    def players(self) -> tuple[int, int]:
        return (self.top, self.bottom)

    def status(self, rules: MatchRules) -> MatchStatus:
        """Replay the results stage by stage (raises when a result has no game)."""
        return _status(self, rules)

    def with_result(self, game: int, result: GameResult | None, rules: MatchRules) -> Match:
        """A copy with game ``game``'s result set (None clears it); checked by replaying."""
        if result is not None and not result.is_decided:
            raise RuleError(
                "slot {slot}, game {game}: enter a final result, not pending",
                slot=self.slot,
                game=game,
            )
        known = self.status(rules).games
        if not 1 <= game <= len(known):
            raise RuleError(
                "slot {slot}: there is no game {game} to enter (games set up: {numbers})",
                slot=self.slot,
                game=game,
                numbers=_numbers(known),
            )
        results = list(self.results) + [None] * (game - len(self.results))
        results[game - 1] = result
        while results and results[-1] is None:
            results.pop()
        changed = replace(self, results=tuple(results))
        changed.status(rules)  # a correction may leave a later result without its game
        return changed


def _numbers(games: tuple[MatchGame, ...]) -> str:
    return ", ".join(str(g.number) for g in games) or "none"


@lru_cache(maxsize=8192)
def _status(match: Match, rules: MatchRules) -> MatchStatus:
    """Memoised: a knockout asks for every match's status again after each result."""
    return _Replay(match, rules).run()


class _Replay:
    """Walks the stages of one match over its recorded results."""

    def __init__(self, match: Match, rules: MatchRules) -> None:
        self.match = match
        self.rules = rules
        self.games: list[MatchGame] = []
        self.scores: list[tuple[int, int]] = []  # half-points (top, bottom) per stage

    def run(self) -> MatchStatus:
        fmt, tie = self.match.format or self.rules.format, self.rules.tie_rule
        stages = [(GameKind.REGULAR, fmt.games, fmt.at_once)]
        stages += [(s.kind, s.games, False) for s in tie.stages]
        for index, (kind, count, at_once) in enumerate(stages):
            winner, complete = self._stage(index, kind, count, at_once)
            if winner is not None:
                return self._done(winner, "score" if index == 0 else kind.value)
            if not complete:
                return self._done(None, "")
        return self._decide(len(stages))

    def _done(self, winner: int | None, how: str) -> MatchStatus:
        used = len(self.games)
        extra = [n + 1 for n in range(used, len(self.match.results)) if self.match.results[n]]
        if extra:
            raise RuleError(
                (
                    "slot {slot}: game {game} has a result but is not part of the match (games "
                    "set up: {numbers}); clear it first"
                ),
                slot=self.match.slot,
                game=extra[0],
                numbers=_numbers(tuple(self.games)),
            )
        scores = tuple((Fraction(a, 2), Fraction(b, 2)) for a, b in self.scores)
        return MatchStatus(tuple(self.games), scores, winner, how)

    def _lot(self, what: str) -> random.Random:
        return random.Random(f"knockout:{self.rules.seed}:{self.match.slot}:{what}")

    def _first_white(self, stage: int) -> int:
        top, bottom = self.match.players
        return top if self._lot(f"colours:{stage}").random() < 0.5 else bottom

    def _add(self, stage: int, kind: GameKind, white: int, black: int) -> MatchGame:
        number = len(self.games) + 1
        results = self.match.results
        result = results[number - 1] if number <= len(results) else None
        game = MatchGame(number, stage, kind, white, black, result)
        self.games.append(game)
        return game

    def _stage(
        self, index: int, kind: GameKind, count: int, at_once: bool
    ) -> tuple[int | None, bool]:
        """Set up the stage's games; (winner, complete). A complete tie is (None, True)."""
        top, bottom = self.match.players
        first = self._first_white(index)
        second = bottom if first == top else top
        stage_games: list[MatchGame] = []
        for j in range(count):
            white, black = (first, second) if j % 2 == 0 else (second, first)
            game = self._add(index, kind, white, black)
            stage_games.append(game)
            if at_once:
                continue
            a, b = _score(stage_games, top, bottom)
            unknown = sum(1 for g in stage_games if g.result is None)
            if unknown and not self.rules.ahead:
                break
            # the leader cannot be caught — or, with results still to come, might not be
            if abs(a - b) + 2 * unknown > 2 * (count - len(stage_games)):
                break
        a, b = _score(stage_games, top, bottom)
        self.scores.append((a, b))
        if any(g.result is None for g in stage_games):
            return None, False
        if a == b:
            return None, True
        return (top if a > b else bottom), True

    def _decide(self, stage: int) -> MatchStatus:
        decider = self.rules.tie_rule.decider
        top, bottom = self.match.players
        if decider is Decider.LOWER_RATED:
            low_top, low_bottom = (r or 0 for r in self.match.ratings)
            if low_top != low_bottom:
                return self._done(top if low_top < low_bottom else bottom, decider.value)
            return self._done(self._drawn_winner(), "lots")
        if decider is Decider.LOTS:
            return self._done(self._drawn_winner(), decider.value)
        first = self._first_white(stage)
        second = bottom if first == top else top
        number = 0
        while True:
            white, black = (first, second) if number % 2 == 0 else (second, first)
            kind = GameKind.ARMAGEDDON if decider is Decider.ARMAGEDDON else GameKind.SUDDEN_DEATH
            game = self._add(stage, kind, white, black)
            number += 1
            if game.result is None:
                return self._done(None, "")
            if decider is Decider.ARMAGEDDON:  # a draw (or no win for White) sends Black on
                self.scores.append((game.half_points(top), game.half_points(bottom)))
                won = game.half_points(white) == 2
                return self._done(white if won else black, decider.value)
            if game.half_points(white) != game.half_points(black):
                self.scores.append((game.half_points(top), game.half_points(bottom)))
                return self._done(white if game.half_points(white) == 2 else black, decider.value)

    def _drawn_winner(self) -> int:
        top, bottom = self.match.players
        return top if self._lot("tie").random() < 0.5 else bottom


def _score(games: list[MatchGame], top: int, bottom: int) -> tuple[int, int]:
    """(top's half-points, bottom's half-points) in ``games``."""
    return sum(g.half_points(top) for g in games), sum(g.half_points(bottom) for g in games)
