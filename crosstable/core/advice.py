"""Format advice by field size (seeds 001 and 004).

The arbiters' bounds that seeds 001 and 004 quote for a club event:

* up to 6 players — a round robin, no discussion (a Swiss runs out of pairings);
* 7–10 — a round robin if the calendar allows (10 players are 9 rounds);
* 11–12 — the ceiling of a round robin, and hard work (11 rounds);
* 13 and more — not a round robin: a Swiss, rating groups of round robins, or quads.

>>> format_advice(6).kind, format_advice(9).kind, format_advice(12).kind, format_advice(13).kind
('round-robin', 'round-robin-if-calendar', 'round-robin-ceiling', 'not-round-robin')
>>> format_advice(16).rounds
15

For 13 and more the advice offers rating groups of round robins (of six unless the
caller chooses another size: :mod:`crosstable.core.schedule.rating_groups`) with the
rounds and the club evenings they need — the groups play side by side, so the event
takes its longest group's rounds:

>>> format_advice(23, rounds_per_evening=2).groups.to_json()
{'size': 6, 'groups': [6, 6, 6, 5], 'rounds': 5, 'rounds_per_evening': 2, 'evenings': 3}
"""

from __future__ import annotations

from dataclasses import dataclass

from crosstable.core.errors import RuleError
from crosstable.core.schedule.rating_groups import (
    MOST_PLAYERS,
    groups_rounds,
    rating_group_sizes,
)

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


#: the size of the rating groups the advice offers
ADVISED_GROUP_SIZE = 6

GROUPS_TEXT = (
    "rating groups of {size}: {count} round robins ({sizes}), {rounds} rounds — "
    "{evenings} evenings at {per_evening} rounds an evening"
)


@dataclass(frozen=True, slots=True)
class GroupsAdvice:
    """Rating groups of ``size`` for a field too large for one round robin."""

    size: int
    sizes: tuple[int, ...]
    rounds: int
    rounds_per_evening: int

    @property
    def evenings(self) -> int:
        return -(-self.rounds // self.rounds_per_evening)

    @property
    def text(self) -> str:
        return GROUPS_TEXT.format(
            size=self.size,
            count=len(self.sizes),
            sizes=", ".join(str(s) for s in self.sizes),
            rounds=self.rounds,
            evenings=self.evenings,
            per_evening=self.rounds_per_evening,
        )

    def to_json(self) -> dict[str, object]:
        return {
            "size": self.size,
            "groups": list(self.sizes),
            "rounds": self.rounds,
            "rounds_per_evening": self.rounds_per_evening,
            "evenings": self.evenings,
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """The advice for a field of ``players``: its ``kind`` (a key of :data:`TEXTS`)."""

    players: int
    kind: str
    rounds: int  # a single round robin's rounds for this field
    #: 13 and more: the rating groups offered instead, with their evenings
    groups: GroupsAdvice | None = None

    @property
    def text(self) -> str:
        return TEXTS[self.kind].format(players=self.players, rounds=self.rounds)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"players": self.players, "kind": self.kind, "text": self.text}
        if self.groups is not None:
            data["rating_groups"] = self.groups.to_json()
        return data


def format_advice(
    players: int, *, group_size: int = ADVISED_GROUP_SIZE, rounds_per_evening: int = 1
) -> Advice:
    """Which format suits a field of ``players`` (at least 2); for a field too large for
    one round robin, the rating groups of ``group_size`` offered, at
    ``rounds_per_evening`` rounds a club evening."""
    if rounds_per_evening < 1:
        raise RuleError("rounds per evening: {rounds} — at least one", rounds=rounds_per_evening)
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
        # rating groups are offered where they can be made: not for a field past their
        # bound, nor one no split of that size fits (the advice itself never refuses)
        groups = None
        if players <= MOST_PLAYERS:
            try:
                sizes = rating_group_sizes(players, group_size)
            except RuleError:
                sizes = ()
            if sizes:
                groups = GroupsAdvice(group_size, sizes, groups_rounds(sizes), rounds_per_evening)
        return Advice(players, "not-round-robin", rounds, groups)
    return Advice(players, kind, rounds)
