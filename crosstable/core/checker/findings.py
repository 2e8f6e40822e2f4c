"""What the checker reports: findings, one round's verdict, the whole report.

A finding is one thing that breaks the rules, in words for the arbiter, with the
round it belongs to (None for the standings) and the players it names. A round's
verdict keeps the pairing as played and, where the system fixes one, the pairing
the rules give, so that both can be shown side by side.
"""

from __future__ import annotations

from dataclasses import dataclass

from crosstable.core.model import System

__all__ = ["CheckReport", "Finding", "RankCheck", "RoundVerdict", "boards_text"]

Boards = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Finding:
    """One breach of the rules.

    ``kind`` is one of ``pairing`` (players paired who the rules do not pair),
    ``colours`` (the right pair with the colours reversed), ``bye`` (the PAB or the
    free round given to the wrong player), ``missing`` (a pair of the rules not
    played while both players played someone else), ``no-pairing`` (the rules allow
    no pairing at all) or ``rank``
    (a place that does not follow the tie-break order).
    """

    kind: str
    message: str
    round: int | None = None
    players: tuple[int, ...] = ()

    def as_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "message": self.message,
            "round": self.round,
            "players": list(self.players),
        }


@dataclass(frozen=True, slots=True)
class RoundVerdict:
    """One round: the pairing played, the pairing the rules give (None: the system
    fixes none, or the rules allow none) and what differs."""

    round: int
    played: Boards
    played_bye: int | None
    expected: Boards | None
    expected_bye: int | None
    findings: tuple[Finding, ...] = ()

    @property
    def agrees(self) -> bool:
        return not self.findings

    def as_json(self) -> dict[str, object]:
        return {
            "round": self.round,
            "agrees": self.agrees,
            "played": {"boards": [list(b) for b in self.played], "bye": self.played_bye},
            "expected": (
                None
                if self.expected is None
                else {"boards": [list(b) for b in self.expected], "bye": self.expected_bye}
            ),
            "findings": [f.as_json() for f in self.findings],
        }


@dataclass(frozen=True, slots=True)
class RankCheck:
    """The rank column against the standings computed with the declared tie-breaks.

    ``checked`` is False when the file gives no rank at all or declares no tie-break
    list (``tiebreaks`` empty): nothing to compare with;
    ``after`` is the last round with a game, the round the places belong to.
    """

    tiebreaks: tuple[str, ...]
    checked: bool
    after: int
    findings: tuple[Finding, ...] = ()

    def as_json(self) -> dict[str, object]:
        return {
            "tiebreaks": list(self.tiebreaks),
            "checked": self.checked,
            "after_round": self.after,
            "findings": [f.as_json() for f in self.findings],
        }


@dataclass(frozen=True, slots=True)
class CheckReport:
    """Every round of the tournament against its system, then the standings' order.

    ``method`` says what the pairings were compared with (``berger``, ``dutch``, or
    ``none`` for a system whose pairings the checker does not rebuild); ``notes``
    say what was assumed (the double round robin's round order, the acceleration).
    """

    system: System
    method: str
    rounds: tuple[RoundVerdict, ...]
    ranks: RankCheck | None
    notes: tuple[str, ...] = ()

    @property
    def findings(self) -> tuple[Finding, ...]:
        found = [f for r in self.rounds for f in r.findings]
        if self.ranks is not None:
            found.extend(self.ranks.findings)
        return tuple(found)

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def differing(self) -> list[int]:
        """The rounds whose pairing breaks the rules."""
        return [r.round for r in self.rounds if not r.agrees]

    def as_json(self) -> dict[str, object]:
        return {
            "system": self.system.value,
            "method": self.method,
            "ok": self.ok,
            "notes": list(self.notes),
            "rounds": [r.as_json() for r in self.rounds],
            "differing": self.differing,
            "standings": None if self.ranks is None else self.ranks.as_json(),
        }


def boards_text(boards: Boards, bye: int | None = None, word: str = "PAB") -> str:
    """``1-4 3-2 PAB 5``: boards as white-black, then the bye.

    >>> boards_text(((1, 4), (3, 2)), 5)
    '1-4 3-2 PAB 5'
    """
    text = " ".join(f"{w}-{b}" for w, b in boards)
    if bye is not None:
        text += f" {word} {bye}"
    return text.strip()
