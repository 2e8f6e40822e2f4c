"""What the Dutch system needs to know about each player before a round.

Scores (with fictitious acceleration points), colour difference and colour
preference (absolute, strong, mild — C.04.3 art. 1.7), the last colours, float
history of the two previous rounds, eligibility for the pairing-allocated bye
(C2) and the pairing number used for colours and ties.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from crosstable.core.model import Colour
from crosstable.core.pairing.dutch.model import Competitor, PairingRequest


class Float(Enum):
    DOWN = "D"
    UP = "U"
    NONE = " "


@dataclass(slots=True)
class PlayerState:
    """A player's pairing data for the round being paired."""

    start: int
    rank: int  # effective pairing number, 0-based, among the players of the event
    score: Fraction  # points so far, no acceleration
    pairing_score: Fraction  # with acceleration: what brackets use
    imbalance: int  # |whites - blacks| over played games
    preference: Colour  # colour preferred (NONE: no preference)
    repeated: Colour  # colour of the last two played games when equal, else NONE
    strong: bool  # strong preference (|CD| = 1, not absolute)
    bye_eligible: bool  # C2: no PAB, FPB or forfeit win so far
    played_games: int
    played_colours: tuple[Colour, ...]  # colours of played games, oldest first
    floats: tuple[Float, Float]  # one and two rounds ago
    opponents: frozenset[int]  # opponents met over the board

    @property
    def absolute(self) -> bool:
        """Absolute preference: |CD| > 1 or the same colour twice in a row."""
        return self.imbalance > 1 or self.repeated is not Colour.NONE

    @property
    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1


def colour_data(colours: tuple[Colour, ...]) -> tuple[int, Colour, Colour, bool]:
    """(imbalance, preference, repeated colour, strong) from played colours.

    >>> colour_data((Colour.WHITE, Colour.WHITE))[1:3]
    (<Colour.BLACK: 'b'>, <Colour.WHITE: 'w'>)
    >>> colour_data((Colour.WHITE, Colour.BLACK))
    (0, <Colour.WHITE: 'w'>, <Colour.NONE: '-'>, False)
    """
    whites = sum(1 for c in colours if c is Colour.WHITE)
    blacks = len(colours) - whites
    lower = Colour.BLACK if whites > blacks else Colour.WHITE
    imbalance = abs(whites - blacks)
    consecutive = 0
    last = Colour.NONE
    for colour in colours:
        consecutive = consecutive + 1 if consecutive and colour is last else 1
        last = colour
    if imbalance > 1:
        preference = lower
    elif consecutive > 1:
        preference = last.opposite()
    elif imbalance > 0:
        preference = lower
    elif consecutive:
        preference = last.opposite()
    else:
        preference = Colour.NONE
    repeated = last if consecutive > 1 else Colour.NONE
    absolute = imbalance > 1 or repeated is not Colour.NONE
    strong = not absolute and imbalance != 0
    return imbalance, preference, repeated, strong


def build_states(request: PairingRequest) -> tuple[list[PlayerState], dict[int, PlayerState]]:
    """Pairing data for the players to pair, and for every valid player by start.

    A player absent from this round who has never been paired has no pairing
    number this round (as in the endorsed engines): the later players move up.
    """
    paired_round = request.round - 1
    valid: list[Competitor] = []
    for competitor in request.competitors:
        ever_paired = any(record.paired for record in competitor.history)
        if competitor.start in request.absent and not ever_paired:
            continue
        valid.append(competitor)
    states: dict[int, PlayerState] = {}
    for rank, competitor in enumerate(valid):
        states[competitor.start] = _state(competitor, rank, paired_round)
        states[competitor.start].bye_eligible = bye_eligible(competitor, request.win)
    for competitor in valid:
        state = states[competitor.start]
        state.floats = (
            _float(competitor, 1, paired_round, request, states),
            _float(competitor, 2, paired_round, request, states),
        )
    to_pair = [states[c.start] for c in valid if c.start not in request.absent]
    return to_pair, states


def _state(competitor: Competitor, rank: int, paired_round: int) -> PlayerState:
    history = competitor.history
    colours = tuple(r.colour for r in history if r.played)
    imbalance, preference, repeated, strong = colour_data(colours)
    score = competitor.score()
    return PlayerState(
        start=competitor.start,
        rank=rank,
        score=score,
        pairing_score=score + competitor.acceleration_in(paired_round + 1),
        imbalance=imbalance,
        preference=preference,
        repeated=repeated,
        strong=strong,
        bye_eligible=True,
        played_games=len(colours),
        played_colours=colours,
        floats=(Float.NONE, Float.NONE),
        opponents=frozenset(r.opponent for r in history if r.played and r.opponent is not None),
    )


def score_before(competitor: Competitor, rounds_back: int) -> Fraction:
    """Pairing score (with that round's acceleration) before the round ``rounds_back`` ago."""
    history = competitor.history
    index = len(history) - rounds_back
    points = sum((r.points for r in history[:index]), Fraction(0))
    return points + competitor.acceleration_in(index + 1)


def _float(
    competitor: Competitor,
    rounds_back: int,
    paired_round: int,
    request: PairingRequest,
    states: dict[int, PlayerState],
) -> Float:
    if paired_round < rounds_back:
        return Float.NONE
    record = competitor.history[paired_round - rounds_back]
    if not record.played:
        return Float.DOWN if record.points > request.loss else Float.NONE
    assert record.opponent is not None
    opponent = request.competitors[record.opponent - 1]
    mine = score_before(competitor, rounds_back)
    theirs = score_before(opponent, rounds_back)
    if mine > theirs:
        return Float.DOWN
    if mine < theirs:
        return Float.UP
    return Float.NONE


def bye_eligible(competitor: Competitor, win: Fraction) -> bool:
    """C2: a player who already scored a win's points without playing gets no PAB."""
    return not any(not r.played and r.points >= win for r in competitor.history)
