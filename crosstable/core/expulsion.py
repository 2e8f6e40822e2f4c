"""Expelled players, as a tournament's regulations keep them.

An arbiter may expel a player (FIDE's checklist Q197-198): a withdrawal with the reason
"expelled", from a given round. Their remaining games are not paired and, in a Swiss,
they are left out of the standings' ranking (shown apart), while their games still
count for their opponents' tie-breaks, as C.07 has it for withdrawn players. The
regulations keep them under :data:`EXPELLED` as a JSON text (the details are texts):
each a starting number, the first round missed and the reason.

>>> details = with_expulsion({}, Expulsion(4, 3, "an insult to the arbiter"))
>>> expulsions_in(details)
(Expulsion(start=4, from_round=3, reason='an insult to the arbiter'),)
>>> expelled_starts(details), expelled_starts({EXPELLED: "not json"})
(frozenset({4}), frozenset())
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: the regulations' key of the expelled players
EXPELLED = "expelled"
#: the longest reason kept
REASON_LENGTH = 200


@dataclass(frozen=True, slots=True)
class Expulsion:
    """A player expelled from ``from_round`` on, and why."""

    start: int
    from_round: int
    reason: str

    def as_json(self) -> dict[str, Any]:
        return {"start": self.start, "from_round": self.from_round, "reason": self.reason}


def expulsions_in(details: Mapping[str, Any] | None) -> tuple[Expulsion, ...]:
    """The expulsions the details keep, by starting number (what does not read is left
    out: the service wrote them)."""
    text = (details or {}).get(EXPELLED)
    try:
        kept = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        kept = None
    found: dict[int, Expulsion] = {}
    for item in kept if isinstance(kept, list) else []:
        if not isinstance(item, dict):
            continue
        try:
            expulsion = Expulsion(int(item["start"]), int(item["from_round"]), str(item["reason"]))
        except (KeyError, TypeError, ValueError):
            continue
        found[expulsion.start] = expulsion
    return tuple(found[start] for start in sorted(found))


def expelled_starts(details: Mapping[str, Any] | None) -> frozenset[int]:
    """The starting numbers of the expelled players."""
    return frozenset(e.start for e in expulsions_in(details))


def with_expulsion(details: Mapping[str, Any] | None, expulsion: Expulsion) -> dict[str, Any]:
    """The details with ``expulsion`` kept (one per player)."""
    kept = [e for e in expulsions_in(details) if e.start != expulsion.start] + [expulsion]
    ordered = sorted(kept, key=lambda e: e.start)
    text = json.dumps([e.as_json() for e in ordered], ensure_ascii=False)
    return {**{k: v for k, v in (details or {}).items() if k != EXPELLED}, EXPELLED: text}


__all__ = [
    "EXPELLED",
    "REASON_LENGTH",
    "Expulsion",
    "expelled_starts",
    "expulsions_in",
    "with_expulsion",
]
