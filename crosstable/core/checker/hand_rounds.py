"""A round robin's rounds paired by hand, as the checker reads them.

A round paired by hand (and the rounds re-planned with it) is stated in the TRF by a
``### Pairing @ Round n: round n paired by hand (…); rounds re-planned: 3, 4`` line.
Those rounds are not the table's: they are checked instead against the table's rule
that every pair meets once in a cycle (a double round robin's cycles apart).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from crosstable.core.checker.findings import Finding, RoundVerdict

_LINE = re.compile(
    r"^\s*Pairing @ Round (\d+):.*paired by hand.*?(?:rounds re-planned:\s*([\d,\s]*))?$"
)


def hand_rounds_from_comments(texts: Iterable[str]) -> frozenset[int]:
    """The rounds the ``### Pairing`` lines state paired by hand or re-planned.

    >>> sorted(hand_rounds_from_comments(
    ...     [" Pairing @ Round 2: round 2 paired by hand (1-2, 3-4); rounds re-planned: 3, 5"]))
    [2, 3, 5]
    """
    found: set[int] = set()
    for text in texts:
        match = _LINE.match(text.strip())
        if match is None:
            continue
        found.add(int(match.group(1)))
        found.update(int(n) for n in re.findall(r"\d+", match.group(2) or ""))
    return frozenset(found)


def hand_verdicts(
    verdicts: Iterable[RoundVerdict], hand: frozenset[int], per_cycle: int
) -> tuple[tuple[RoundVerdict, ...], tuple[str, ...]]:
    """``verdicts`` with each round of ``hand`` checked for pairs that meet twice in a
    cycle (of ``per_cycle`` rounds) instead of against the table, and the note saying so."""
    rounds = tuple(verdicts)
    if not hand or per_cycle < 1:
        return rounds, ()
    met: dict[tuple[int, frozenset[int]], int] = {}
    for verdict in rounds:
        cycle = (verdict.round - 1) // per_cycle
        for white, black in verdict.played:
            met.setdefault((cycle, frozenset((white, black))), verdict.round)
    out = []
    for verdict in rounds:
        if verdict.round not in hand:
            out.append(verdict)
            continue
        cycle = (verdict.round - 1) // per_cycle
        findings = tuple(
            Finding(
                "pairing",
                f"{white}-{black} met in round {met[(cycle, frozenset((white, black)))]} "
                "of this cycle already",
                verdict.round,
                (white, black),
            )
            for white, black in verdict.played
            if met[(cycle, frozenset((white, black)))] != verdict.round
        )
        out.append(
            RoundVerdict(verdict.round, verdict.played, verdict.played_bye, None, None, findings)
        )
    listed = ", ".join(map(str, sorted(hand)))
    note = (
        f"rounds paired by hand (### Pairing): {listed}, checked that no pair meets twice "
        "in a cycle"
    )
    return tuple(out), (note,)


__all__ = ["hand_rounds_from_comments", "hand_verdicts"]
