"""Re-pair every round of a finished Swiss and report where it differs.

FIDE asks an endorsed engine for a checker: for each round, the state before
the round (results of the earlier rounds, byes entered for the round) is
paired again and compared with the pairing actually played — the same pairs
with the same colours, and the same PAB. Board numbers are not compared: a TRF
does not record them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from crosstable.core.errors import RuleError
from crosstable.core.model import ByeKind, Tournament
from crosstable.core.pairing.dutch.engine import pair_round
from crosstable.core.pairing.dutch.from_tournament import before_round
from crosstable.core.pairing.dutch.model import Pairing, PairingRequest


@dataclass(frozen=True, slots=True)
class RoundCheck:
    """One round: what was played and what the rules give."""

    round: int
    played: Pairing
    expected: Pairing | None  # None: the rules allow no pairing at all
    error: str = ""

    @property
    def agrees(self) -> bool:
        if self.expected is None:
            return False
        return _same(self.played, self.expected)

    def as_json(self) -> dict[str, object]:
        return {
            "round": self.round,
            "agrees": self.agrees,
            "played": self.played.as_json(),
            "expected": self.expected.as_json() if self.expected else None,
            "error": self.error or None,
        }


def _same(a: Pairing, b: Pairing) -> bool:
    return set(a.boards) == set(b.boards) and a.bye == b.bye


def played_pairing(tournament: Tournament, round_number: int) -> Pairing:
    """The pairing of a round as it was played (boards by the file's order)."""
    for rnd in tournament.rounds:
        if rnd.number == round_number:
            bye = next((b.player for b in rnd.byes if b.kind is ByeKind.PAIRING), None)
            boards = tuple((g.white, g.black) for g in rnd.games)
            absent = tuple(sorted(b.player for b in rnd.byes if b.kind is not ByeKind.PAIRING))
            return Pairing(round_number, boards, bye, absent)
    return Pairing(round_number, (), None)


def check_tournament(
    tournament: Tournament, request: Callable[[Tournament, int], PairingRequest]
) -> list[RoundCheck]:
    """Check every round that has games; ``request`` builds the request for a round
    from the tournament cut before it (see :func:`before_round`)."""
    results: list[RoundCheck] = []
    for rnd in tournament.rounds:
        if not rnd.games and not any(b.kind is ByeKind.PAIRING for b in rnd.byes):
            continue
        played = played_pairing(tournament, rnd.number)
        try:
            expected = pair_round(request(before_round(tournament, rnd.number), rnd.number))
        except RuleError as error:
            results.append(RoundCheck(rnd.number, played, None, str(error)))
            continue
        results.append(RoundCheck(rnd.number, played, expected))
    return results
