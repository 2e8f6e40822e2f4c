"""Random Dutch-system tournaments, reproducible from a seed.

Ratings are drawn from a range, starting numbers follow the ratings, every
round is paired by :func:`pair_round`, and results are drawn from the rating
difference (Elo expectation, with draws most likely between equals). Optional
rates add requested half-point byes, zero-point absences and forfeits, so the
generated events exercise every rule the pairing engine knows.
"""

from __future__ import annotations

import random
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
from crosstable.core.pairing.dutch.engine import pair_round
from crosstable.core.pairing.dutch.model import Competitor, PairingRequest, RoundRecord


@dataclass(frozen=True, slots=True)
class GeneratorSettings:
    """What to generate; rates are probabilities per player and round."""

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


def generate(settings: GeneratorSettings) -> Tournament:
    """A finished tournament of ``settings.rounds`` rounds.

    >>> t = generate(GeneratorSettings(players=7, rounds=3, seed=1))
    >>> len(t.rounds), len(t.rounds[0].games), len(t.rounds[0].byes)
    (3, 3, 1)
    """
    rng = random.Random(settings.seed)
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
    histories: list[list[RoundRecord]] = [[] for _ in players]
    rounds: list[Round] = []
    one = Fraction(1)
    half = Fraction(1, 2)
    for number in range(1, settings.rounds + 1):
        byes: list[Bye] = []
        absent: set[int] = set()
        for player in players:
            draw = rng.random()
            if draw < settings.half_bye_rate:
                byes.append(Bye(number, player.start, ByeKind.HALF))
            elif draw < settings.half_bye_rate + settings.absence_rate:
                byes.append(Bye(number, player.start, ByeKind.ZERO))
        absent = {b.player for b in byes}
        if len(absent) > settings.players - 2:
            byes, absent = [], set()
        request = PairingRequest(
            round=number,
            total_rounds=settings.rounds,
            competitors=tuple(Competitor(p.start, tuple(histories[p.start - 1])) for p in players),
            initial_colour=settings.initial_colour,
            absent=frozenset(absent),
        )
        pairing = pair_round(request)
        games: list[Game] = []
        for board, (white, black) in enumerate(pairing.boards, 1):
            result = _result(rng, settings, ratings[white - 1], ratings[black - 1])
            games.append(Game(number, board, white, black, result))
            for me, opponent, colour, outcome in (
                (white, black, Colour.WHITE, result.white),
                (black, white, Colour.BLACK, result.black),
            ):
                points = outcome.points(_CLASSIC)
                if outcome.is_forfeit:
                    histories[me - 1].append(RoundRecord.forfeit(opponent, points))
                else:
                    histories[me - 1].append(RoundRecord.game(opponent, colour, points))
        if pairing.bye is not None:
            byes.append(Bye(number, pairing.bye, ByeKind.PAIRING))
            histories[pairing.bye - 1].append(RoundRecord.pairing_bye(one))
        for bye in byes:
            if bye.kind is ByeKind.HALF:
                histories[bye.player - 1].append(RoundRecord.absence(half))
            elif bye.kind is ByeKind.ZERO:
                histories[bye.player - 1].append(RoundRecord.absence(Fraction(0)))
        rounds.append(Round(number, tuple(games), tuple(sorted(byes, key=lambda b: b.player))))
    return Tournament(
        settings=Settings(system=System.SWISS_DUTCH, rounds=settings.rounds),
        players=players,
        rounds=tuple(rounds),
        name=f"Generated Swiss {settings.players}x{settings.rounds} seed {settings.seed}",
    )


_CLASSIC = Settings().point_system


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
