"""Random Dutch-system tournaments, reproducible from a seed.

Ratings are drawn from a range, starting numbers follow the ratings, every
round is paired by :func:`pair_round` from the tournament so far (as a checker
re-pairs it), and results are drawn from the rating difference (Elo
expectation, with draws most likely between equals).

Optional rates (probabilities per player or game) add requested half-point
byes, zero-point absences and forfeits. :class:`Amount` settings add, by count
or by share and optionally in chosen rounds only, full-, half- and zero-point
byes, forfeits and the results an arbiter may decide (½-0, 0-½, 0-0); the Baku
acceleration pairs the first rounds with fictitious points, and the tie-break
list (the Swiss preset when none is given) goes into the settings. Everything
comes from the seed: the same settings give the same tournament.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction

from crosstable.core.errors import RuleError
from crosstable.core.model import (
    Bye,
    ByeKind,
    Colour,
    Game,
    GameResult,
    Outcome,
    Player,
    Round,
    Settings,
    System,
    Tournament,
)
from crosstable.core.pairing.dutch.acceleration import baku
from crosstable.core.pairing.dutch.engine import pair_round
from crosstable.core.pairing.dutch.from_tournament import request_for
from crosstable.core.tiebreaks.presets import default_tiebreaks
from crosstable.core.tiebreaks.spec import parse_codes

__all__ = ["Amount", "GeneratorSettings", "accelerations_of", "generate"]

_AMOUNT = re.compile(
    r"^\s*(?:(?P<percent>\d+(?:\.\d+)?)%|(?P<share>\d*\.\d+)|(?P<count>\d+))"
    r"\s*(?:@\s*(?P<rounds>\d+(?:\s*-\s*\d+)?(?:\s*,\s*\d+(?:\s*-\s*\d+)?)*))?\s*$"
)


#: the most rounds a TRF file holds, and the longest amount text read
MOST_ROUNDS = 999
MOST_AMOUNT_TEXT = 200


@dataclass(frozen=True, slots=True)
class Amount:
    """How many of something: ``count`` in all, spread at random over ``rounds``, or
    a ``share`` (0…1) of the round's players (byes) or games (results) in each of
    ``rounds``, rounded to the nearest whole number; ``rounds`` empty: every round.

    >>> Amount.parse("3")
    Amount(count=3, share=None, rounds=())
    >>> Amount.parse("10%@2-3")
    Amount(count=None, share=Fraction(1, 10), rounds=(2, 3))
    >>> Amount.parse("0.25@1,4").share, Amount.parse("0.25@1,4").rounds
    (Fraction(1, 4), (1, 4))
    """

    count: int | None = None
    share: Fraction | None = None
    rounds: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if (self.count is None) == (self.share is None):
            raise RuleError("an amount is a count or a share, not both")
        if self.count is not None and self.count < 0:
            raise RuleError("a count is 0 or more, not {count}", count=self.count)
        if self.share is not None and not 0 <= self.share <= 1:
            raise RuleError("a share is between 0 and 1, not {share}", share=str(self.share))
        if any(number < 1 for number in self.rounds):
            raise RuleError("rounds are numbered from 1")

    @classmethod
    def parse(cls, text: str) -> Amount:
        """``N`` (a count), ``P%`` or ``0.x`` (a share), then optionally ``@ROUNDS``:
        ``@3``, ``@1-4``, ``@1,3,5-6``."""
        found = _AMOUNT.match(text) if len(text) <= MOST_AMOUNT_TEXT else None
        if found is None:
            raise RuleError(
                "amount {text}: use a count (3), a share (0.1 or 10%), optionally @rounds "
                "(3@2, 10%@1-4)",
                text=repr(text),
            )
        rounds: list[int] = []
        for part in (found["rounds"] or "").split(","):
            if part.strip():
                low, _, high = part.partition("-")
                last = int(high or low)
                if last > MOST_ROUNDS:  # checked before the range is built
                    raise RuleError(
                        "{name}: round {round} — the tournament has {rounds} rounds",
                        name=repr(text),
                        round=last,
                        rounds=MOST_ROUNDS,
                    )
                rounds.extend(range(int(low), last + 1))
        numbers = tuple(sorted(set(rounds)))
        if found["count"] is not None:
            return cls(count=int(found["count"]), rounds=numbers)
        if found["percent"] is not None:
            return cls(share=Fraction(found["percent"]) / 100, rounds=numbers)
        return cls(share=Fraction(found["share"]), rounds=numbers)

    def applies(self, number: int) -> bool:
        return not self.rounds or number in self.rounds


@dataclass(frozen=True, slots=True)
class GeneratorSettings:
    """What to generate; rates are probabilities per player and round (byes) or game."""

    players: int
    rounds: int
    seed: int = 0
    highest_rating: int = 2400
    lowest_rating: int = 1400
    draw_rate: float = 0.3
    half_bye_rate: float = 0.0
    absence_rate: float = 0.0
    forfeit_rate: float = 0.0
    initial_colour: Colour = Colour.WHITE
    full_byes: tuple[Amount, ...] = ()
    half_byes: tuple[Amount, ...] = ()
    zero_byes: tuple[Amount, ...] = ()
    forfeits: tuple[Amount, ...] = ()
    half_zero: tuple[Amount, ...] = ()  # ½-0: White drew, Black lost (an arbiter's decision)
    zero_half: tuple[Amount, ...] = ()  # 0-½
    zero_zero: tuple[Amount, ...] = ()  # 0-0: both lost
    baku: bool = False
    tiebreaks: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.players < 2:
            raise RuleError(
                "players: {players} — a Swiss needs at least 2 players", players=self.players
            )
        if self.rounds < 1:
            raise RuleError("rounds: {rounds} — at least one round", rounds=self.rounds)
        if self.lowest_rating > self.highest_rating:
            raise RuleError("the lowest rating is above the highest")
        for name in ("draw_rate", "half_bye_rate", "absence_rate", "forfeit_rate"):
            value = getattr(self, name)
            if not 0 <= value <= 1:
                raise RuleError(
                    "{name}: {value} — a rate is between 0 and 1", name=name, value=value
                )
        for name in _AMOUNTS:
            for amount in getattr(self, name):
                late = [n for n in amount.rounds if n > self.rounds]
                if late:
                    raise RuleError(
                        "{name}: round {round} — the tournament has {rounds} rounds",
                        name=name,
                        round=late[0],
                        rounds=self.rounds,
                    )
        if self.tiebreaks:
            parse_codes(self.tiebreaks)


_AMOUNTS = (
    "full_byes",
    "half_byes",
    "zero_byes",
    "forfeits",
    "half_zero",
    "zero_half",
    "zero_zero",
)
_BYE_KINDS = {"full_byes": ByeKind.FULL, "half_byes": ByeKind.HALF, "zero_byes": ByeKind.ZERO}
_RESULTS = {
    "half_zero": GameResult(Outcome.DRAW, Outcome.LOSS),
    "zero_half": GameResult(Outcome.LOSS, Outcome.DRAW),
    "zero_zero": GameResult(Outcome.LOSS, Outcome.LOSS),
}


def accelerations_of(settings: GeneratorSettings) -> dict[int, list[Fraction]]:
    """The fictitious points the rounds are paired with (Baku, or none).

    >>> [str(p) for p in accelerations_of(GeneratorSettings(8, 5, baku=True))[1]]
    ['1', '1', '1/2']
    """
    return baku(settings.players, settings.rounds) if settings.baku else {}


def generate(settings: GeneratorSettings) -> Tournament:
    """A finished tournament of ``settings.rounds`` rounds.

    >>> t = generate(GeneratorSettings(players=7, rounds=3, seed=1))
    >>> len(t.rounds), len(t.rounds[0].games), len(t.rounds[0].byes)
    (3, 3, 1)
    >>> t = generate(GeneratorSettings(8, 3, zero_zero=(Amount(count=1, rounds=(2,)),)))
    >>> [str(g.result.label()) for g in t.rounds[1].games if g.result].count("0-0")
    1
    """
    rng = random.Random(settings.seed)
    extra = random.Random(f"{settings.seed}/amounts")  # the amounts' own stream
    ratings = sorted(
        (
            rng.randint(settings.lowest_rating, settings.highest_rating)
            for _ in range(settings.players)
        ),
        reverse=True,
    )
    players = tuple(
        Player(start, f"Player {start:04d}", rating) for start, rating in enumerate(ratings, 1)
    )
    tiebreaks = settings.tiebreaks or default_tiebreaks(System.SWISS_DUTCH)
    base = Settings(system=System.SWISS_DUTCH, rounds=settings.rounds, tiebreaks=tiebreaks)
    quotas = {name: _spread(extra, getattr(settings, name), settings.rounds) for name in _AMOUNTS}
    accelerations = accelerations_of(settings)
    rounds: list[Round] = []
    for number in range(1, settings.rounds + 1):
        byes: list[Bye] = []
        for player in players:
            draw = rng.random()
            if draw < settings.half_bye_rate:
                byes.append(Bye(number, player.start, ByeKind.HALF))
            elif draw < settings.half_bye_rate + settings.absence_rate:
                byes.append(Bye(number, player.start, ByeKind.ZERO))
        byes += _chosen_byes(extra, settings, quotas, number, {b.player for b in byes})
        if len(byes) > settings.players - 2:
            byes = []
        cut = Tournament(
            settings=base,
            players=players,
            rounds=(*rounds, Round(number, (), tuple(byes))) if byes else tuple(rounds),
        )
        request = request_for(
            cut,
            number,
            initial_colour=settings.initial_colour,
            accelerations=accelerations,
            total_rounds=settings.rounds,
        )
        pairing = pair_round(request)
        results = [
            _result(rng, settings, ratings[white - 1], ratings[black - 1])
            for white, black in pairing.boards
        ]
        _decide(extra, settings, quotas, number, results)
        games = tuple(
            Game(number, board, white, black, result)
            for board, ((white, black), result) in enumerate(
                zip(pairing.boards, results, strict=True), 1
            )
        )
        if pairing.bye is not None:
            byes.append(Bye(number, pairing.bye, ByeKind.PAIRING))
        rounds.append(Round(number, games, tuple(sorted(byes, key=lambda b: b.player))))
    return Tournament(
        settings=base,
        players=players,
        rounds=tuple(rounds),
        name=f"Generated Swiss {settings.players}x{settings.rounds} seed {settings.seed}",
    )


def _spread(
    rng: random.Random, amounts: tuple[Amount, ...], rounds: int
) -> dict[int, list[Amount | int]]:
    """Per round, what each amount asks there: a count drawn for it, or the share."""
    plan: dict[int, list[Amount | int]] = {}
    for amount in amounts:
        chosen = list(amount.rounds) or list(range(1, rounds + 1))
        if amount.count is None:
            for number in chosen:
                plan.setdefault(number, []).append(amount)
            continue
        counts = dict.fromkeys(chosen, 0)
        for _ in range(amount.count):
            counts[rng.choice(chosen)] += 1
        for number, count in counts.items():
            plan.setdefault(number, []).append(count)
    return plan


def _how_many(asked: list[Amount | int], size: int) -> int:
    total = 0
    for item in asked:
        if isinstance(item, int):
            total += item
        elif item.share is not None:
            total += int(item.share * size + Fraction(1, 2))
    return total


def _chosen_byes(
    rng: random.Random,
    settings: GeneratorSettings,
    quotas: dict[str, dict[int, list[Amount | int]]],
    number: int,
    taken: set[int],
) -> list[Bye]:
    """The round's byes asked by count or share, to players without one yet, leaving
    at least two players to pair."""
    byes: list[Bye] = []
    for name, kind in _BYE_KINDS.items():
        wanted = _how_many(quotas[name].get(number, []), settings.players)
        free = [s for s in range(1, settings.players + 1) if s not in taken]
        room = max(0, len(free) - 2)
        for start in sorted(rng.sample(free, min(wanted, room))):
            byes.append(Bye(number, start, kind))
            taken.add(start)
    return byes


def _decide(
    rng: random.Random,
    settings: GeneratorSettings,
    quotas: dict[str, dict[int, list[Amount | int]]],
    number: int,
    results: list[GameResult],
) -> None:
    """Replace drawn results by the forfeits and arbiter's results asked for the round,
    each on a different board."""
    boards = list(range(len(results)))
    rng.shuffle(boards)
    for name in ("forfeits", *_RESULTS):
        wanted = min(_how_many(quotas[name].get(number, []), len(results)), len(boards))
        for _ in range(wanted):
            board = boards.pop()
            if name == "forfeits":
                white_won = rng.random() < 0.5
                results[board] = GameResult(
                    Outcome.FORFEIT_WIN if white_won else Outcome.FORFEIT_LOSS,
                    Outcome.FORFEIT_LOSS if white_won else Outcome.FORFEIT_WIN,
                )
            else:
                results[board] = _RESULTS[name]


def _result(
    rng: random.Random, settings: GeneratorSettings, white: int | None, black: int | None
) -> GameResult:
    if rng.random() < settings.forfeit_rate:
        return (
            GameResult(Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS)
            if rng.random() < 0.5
            else (GameResult(Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN))
        )
    expected = 1 / (1 + 10 ** (((black or 0) - (white or 0)) / 400))
    draw = settings.draw_rate * (1 - abs(2 * expected - 1))
    roll = rng.random()
    if roll < expected - draw / 2:
        return GameResult.WHITE_WINS()
    if roll < expected + draw / 2:
        return GameResult.DRAW()
    return GameResult.BLACK_WINS()
