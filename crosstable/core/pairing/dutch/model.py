"""Plain input and output values of the Dutch pairing engine.

The engine needs, for every player, the history of the rounds played so far as
an arbiter reads it off the crosstable: opponent, colour, whether the game was
played over the board, the points scored and whether the player took part in
the pairing of that round (a game, a forfeit or the pairing-allocated bye).
Nothing here knows about files or databases.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from crosstable.core.errors import RuleError
from crosstable.core.model import Colour


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One past round of one player.

    ``opponent`` is None for a round without an opponent (any bye, or absence).
    ``played`` is True only for a game played over the board (forfeits are not
    played). ``paired`` is True when the player was paired that round: a game
    (forfeited or not) or the pairing-allocated bye.
    """

    opponent: int | None
    colour: Colour
    played: bool
    points: Fraction
    paired: bool
    pab: bool = False  # the pairing-allocated bye

    @classmethod
    def game(cls, opponent: int, colour: Colour, points: Fraction) -> RoundRecord:
        """A game played over the board.

        >>> RoundRecord.game(7, Colour.WHITE, Fraction(1)).played
        True
        """
        return cls(opponent, colour, True, points, True)

    @classmethod
    def forfeit(cls, opponent: int | None, points: Fraction) -> RoundRecord:
        return cls(opponent, Colour.NONE, False, points, True)

    @classmethod
    def pairing_bye(cls, points: Fraction) -> RoundRecord:
        return cls(None, Colour.NONE, False, points, True, pab=True)

    @classmethod
    def absence(cls, points: Fraction) -> RoundRecord:
        """A half-, full- or zero-point bye, or a known absence (not paired)."""
        return cls(None, Colour.NONE, False, points, False)


@dataclass(frozen=True, slots=True)
class Competitor:
    """A player as the pairing engine sees them: starting number and history."""

    start: int
    history: tuple[RoundRecord, ...] = ()
    # fictitious points for pairing only, per round (index 0 = round 1): Baku / 250 / XXA
    acceleration: tuple[Fraction, ...] = ()

    def score(self) -> Fraction:
        return sum((record.points for record in self.history), Fraction(0))

    def acceleration_in(self, round_number: int) -> Fraction:
        index = round_number - 1
        if 0 <= index < len(self.acceleration):
            return self.acceleration[index]
        return Fraction(0)


@dataclass(frozen=True, slots=True)
class PairingRequest:
    """Everything needed to pair round ``round`` of a Dutch Swiss.

    ``competitors`` holds every player of the event (starting numbers 1…N);
    every history has ``round - 1`` records. ``absent`` players are not paired
    this round (a requested bye or a known absence). ``forbidden`` pairs may not
    meet (besides the rematch rule); ``initial_colour`` is the colour drawn for
    the first player in round 1.
    """

    round: int
    total_rounds: int
    competitors: tuple[Competitor, ...]
    initial_colour: Colour = Colour.WHITE
    absent: frozenset[int] = frozenset()
    forbidden: frozenset[frozenset[int]] = frozenset()
    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        if self.round < 1:
            raise RuleError("round {round}: rounds are numbered from 1", round=self.round)
        if self.total_rounds < self.round:
            raise RuleError(
                "round {round} cannot be paired: the event has {rounds} rounds",
                round=self.round,
                rounds=self.total_rounds,
            )
        if self.initial_colour is Colour.NONE:
            raise RuleError("the initial colour (white or black) must be known")
        for index, competitor in enumerate(self.competitors, start=1):
            if competitor.start != index:
                raise RuleError("starting numbers must be 1…N in order")
            if len(competitor.history) != self.round - 1:
                raise RuleError(
                    "player {start}: {count} past rounds, expected {expected}",
                    start=competitor.start,
                    count=len(competitor.history),
                    expected=self.round - 1,
                )
            for number, record in enumerate(competitor.history, start=1):
                opponent = record.opponent
                if opponent is not None and not (
                    1 <= opponent <= len(self.competitors) and opponent != competitor.start
                ):
                    raise RuleError(
                        "player {start}, round {round}: no opponent {opponent}",
                        start=competitor.start,
                        round=number,
                        opponent=opponent,
                    )


@dataclass(frozen=True, slots=True)
class Pairing:
    """The pairing of one round: boards in order as (white, black), and the PAB."""

    round: int
    boards: tuple[tuple[int, int], ...]
    bye: int | None
    absent: tuple[int, ...] = ()

    def as_json(self) -> dict[str, object]:
        """The command-line JSON shape.

        >>> Pairing(3, ((1, 2),), None).as_json()
        {'round': 3, 'boards': [[1, 2]], 'bye': None}
        """
        return {
            "round": self.round,
            "boards": [[white, black] for white, black in self.boards],
            "bye": self.bye,
        }
