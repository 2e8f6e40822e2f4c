"""What a tournament file declares besides its games, as the checker needs it.

A TRF says how the Swiss was paired (initial colour, accelerations, prohibited
pairings, players not paired in a round) and how the standings are ordered
(the tie-break list and the rank column). The file's reader fills this in; the
checker reads nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from crosstable.core.model import Colour, Tournament
from crosstable.core.pairing.dutch.from_tournament import request_for
from crosstable.core.pairing.dutch.model import PairingRequest
from crosstable.core.schedule.kinds import ScheduleKind

__all__ = ["Declared", "Prohibition"]


@dataclass(frozen=True, slots=True)
class Prohibition:
    """Players who may not meet one another in rounds ``first_round…last_round``
    (``last_round`` None: to the end)."""

    players: tuple[int, ...]
    first_round: int = 1
    last_round: int | None = None

    def applies(self, number: int) -> bool:
        return self.first_round <= number and (self.last_round is None or number <= self.last_round)


@dataclass(frozen=True)
class Declared:
    """The file's declarations.

    ``accelerations`` maps a starting number to its fictitious points per round
    (index 0 is round 1), as records 250 / ``XXA`` or the Baku method give them;
    ``absent`` maps a round to the players with a bye entered for it (record 240);
    ``ranks`` is the rank column (None: blank); ``tiebreaks`` the order of the
    standings (``PTS`` first or not), None for the regulations' list; ``schedule`` the
    table a round robin is played on (the file's ``### Schedule`` comment; Berger when
    it states none).
    """

    initial_colour: Colour = Colour.WHITE
    accelerations: Mapping[int, Sequence[Fraction]] = field(default_factory=dict)
    prohibited: tuple[Prohibition, ...] = ()
    absent: Mapping[int, frozenset[int]] = field(default_factory=dict)
    ranks: Mapping[int, int | None] = field(default_factory=dict)
    tiebreaks: tuple[str, ...] | None = None
    total_rounds: int | None = None
    schedule: ScheduleKind = ScheduleKind.BERGER  # a round robin's table (### Schedule)
    #: a round robin's rounds paired by hand or re-planned (### Pairing lines)
    hand_rounds: frozenset[int] = frozenset()

    def request(self, cut: Tournament, number: int) -> PairingRequest:
        """The pairing request of round ``number`` from the tournament ``cut`` before it."""
        return request_for(
            cut,
            number,
            initial_colour=self.initial_colour,
            accelerations=self.accelerations,
            forbidden=[p.players for p in self.prohibited if p.applies(number)],
            absent=self.absent.get(number, frozenset()),
            total_rounds=self.total_rounds or cut.settings.rounds,
        )
