"""The arbiter's check of a tournament file: pairings by its system, places by its tie-breaks.

:func:`check_event` goes round by round: a round robin against its own table (FIDE
Berger, or the circle method the file states: :mod:`.round_robin`), a Swiss against
the Dutch system re-pairing each round with the file's declarations (:mod:`.swiss`);
other systems' pairings are listed unchecked. Then the rank column against the
standings computed with the declared tie-break order (:mod:`.ranks`). What it needs
from the file besides the games is a :class:`Declared`.

>>> from crosstable.core.model import Game, GameResult, Player, Round, Settings, Tournament
>>> players = tuple(Player(s, f"P{s}") for s in range(1, 5))
>>> t = Tournament(Settings(), players, (Round(1, (Game(1, 1, 1, 4, GameResult.DRAW()),
...                                                Game(1, 2, 3, 2, GameResult.DRAW()))),))
>>> report = check_event(t)
>>> report.method, report.ok, [f.message for f in report.findings]
('berger', False, ['3-2: the rules give 2 White against 3'])
"""

from __future__ import annotations

from crosstable.core.checker.declared import Declared, Prohibition
from crosstable.core.checker.findings import (
    CheckReport,
    Finding,
    RankCheck,
    RoundVerdict,
    boards_text,
)
from crosstable.core.checker.hand_rounds import hand_verdicts
from crosstable.core.checker.ranks import check_ranks
from crosstable.core.checker.round_robin import check_round_robin, played_rounds
from crosstable.core.checker.swiss import check_swiss
from crosstable.core.model import System, Tournament

__all__ = [
    "CheckReport",
    "Declared",
    "Finding",
    "Prohibition",
    "RankCheck",
    "RoundVerdict",
    "boards_text",
    "check_event",
]


def check_event(tournament: Tournament, declared: Declared | None = None) -> CheckReport:
    """Every round against the tournament's system, then the file's ranks."""
    declared = declared or Declared()
    system = tournament.settings.system
    notes: tuple[str, ...] = ()
    if system is System.ROUND_ROBIN:
        method = declared.schedule.value
        rounds, notes = check_round_robin(tournament, declared.schedule)
        players = len(tournament.players)
        rounds, hand_notes = hand_verdicts(rounds, declared.hand_rounds, players - 1 + players % 2)
        notes += hand_notes
    elif system is System.SWISS_DUTCH:
        method = "dutch"
        rounds = check_swiss(tournament, declared)
        if any(declared.accelerations.values()):
            notes = ("accelerated rounds paired with their fictitious points",)
    else:
        method = "none"
        rounds = tuple(
            RoundVerdict(number, boards, bye, None, None)
            for number, boards, bye in played_rounds(tournament)
        )
        notes = (f"the pairings of a {system.value} tournament are not rebuilt",)
    return CheckReport(system, method, rounds, check_ranks(tournament, declared), notes)
