"""A Swiss (FIDE Dutch) re-paired round by round and compared with the rounds played.

Each round is paired again from the state before it (the earlier results, the
byes entered for the round) with the file's declarations: the initial colour,
the accelerations (250 / ``XXA`` or Baku: accelerated rounds are paired with
their fictitious points), the prohibited pairings. The pairs, colours and PAB
must be the engine's.
"""

from __future__ import annotations

from dataclasses import replace

from crosstable.core.checker.compare import compare_round
from crosstable.core.checker.declared import Declared
from crosstable.core.checker.findings import Finding, RoundVerdict
from crosstable.core.model import Tournament
from crosstable.core.pairing.dutch.checker import RoundCheck, check_tournament

__all__ = ["check_swiss", "swiss_rounds"]


def swiss_rounds(tournament: Tournament, declared: Declared) -> list[RoundCheck]:
    """The Dutch checker's rounds (played and expected pairing) under ``declared``."""
    if declared.total_rounds is None:
        total = tournament.settings.rounds or len(tournament.rounds)
        declared = replace(declared, total_rounds=total)
    return check_tournament(tournament, declared.request)


def check_swiss(tournament: Tournament, declared: Declared) -> tuple[RoundVerdict, ...]:
    """Every paired round against the Dutch system."""
    verdicts = []
    for check in swiss_rounds(tournament, declared):
        played = check.played
        if check.expected is None:
            message = f"the rules allow no pairing of round {check.round}: {check.error}"
            finding = Finding("no-pairing", message, check.round)
            verdicts.append(
                RoundVerdict(check.round, played.boards, played.bye, None, None, (finding,))
            )
            continue
        expected = check.expected
        found = compare_round(check.round, played.boards, played.bye, expected.boards, expected.bye)
        verdicts.append(
            RoundVerdict(
                check.round, played.boards, played.bye, expected.boards, expected.bye, found
            )
        )
    return tuple(verdicts)
