"""Format advice by field size (R-X-9, seeds 001 and 004).

The arbiters' bounds that seeds 001 and 004 quote for a club event:

* up to 6 players — a round robin, no discussion (a Swiss runs out of pairings);
* 7–10 — a round robin if the calendar allows (10 players are 9 rounds);
* 11–12 — the ceiling of a round robin, and hard work (11 rounds);
* 13 and more — not a round robin: a Swiss, rating groups of round robins, or quads.

>>> format_advice(6).kind, format_advice(9).kind, format_advice(12).kind, format_advice(13).kind
('round-robin', 'round-robin-if-calendar', 'round-robin-ceiling', 'not-round-robin')
>>> format_advice(16).rounds
15
"""

from __future__ import annotations

from dataclasses import dataclass

from crosstable.core.errors import RuleError

#: the largest field for which a round robin is the plain answer
PLAIN_ROUND_ROBIN = 6
#: the largest field for which a round robin is fine if the calendar allows
CALENDAR_ROUND_ROBIN = 10
#: the ceiling of a round robin
CEILING = 12

TEXTS = {
    "round-robin": "{players} players: a round robin — a Swiss would run out of pairings",
    "round-robin-if-calendar": (
        "{players} players: a round robin if the calendar allows ({rounds} rounds)"
    ),
    "round-robin-ceiling": (
        "{players} players: the ceiling of a round robin ({rounds} rounds — long enough "
        "for players to lose interest and withdraw)"
    ),
    "not-round-robin": (
        "{players} players: too many for a round robin ({rounds} rounds); "
        "play a Swiss, rating groups of round robins, or quads"
    ),
}


@dataclass(frozen=True, slots=True)
class Advice:
    """The advice for a field of ``players``: its ``kind`` (a key of :data:`TEXTS`)."""

    players: int
    kind: str
    rounds: int  # a single round robin's rounds for this field

    @property
    def text(self) -> str:
        return TEXTS[self.kind].format(players=self.players, rounds=self.rounds)

    def to_json(self) -> dict[str, object]:
        return {"players": self.players, "kind": self.kind, "text": self.text}


def format_advice(players: int) -> Advice:
    """Which format suits a field of ``players`` (at least 2)."""
    if players < 2:
        raise RuleError(
            "players: {players} — a tournament needs at least 2 players", players=players
        )
    rounds = players - 1 if players % 2 == 0 else players
    if players <= PLAIN_ROUND_ROBIN:
        kind = "round-robin"
    elif players <= CALENDAR_ROUND_ROBIN:
        kind = "round-robin-if-calendar"
    elif players <= CEILING:
        kind = "round-robin-ceiling"
    else:
        kind = "not-round-robin"
    return Advice(players, kind, rounds)
