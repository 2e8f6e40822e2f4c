"""Who goes on from a finished stage of a series.

A stage's groups are round robins. When the last game of a stage ends its
places are final; each group sends its top ``k`` by the group's
standings (points, then the series' tie-breaks) — except that a player who
played no game in the stage (forfeits, no-shows or set-up timeouts only, or only
byes) cannot go on: the next player of the group moves up. A group whose
players who played are fewer than ``k`` sends those it has.

The qualifiers enter the next stage as :class:`~crosstable.core.series.groups.Entrant`
values carrying their place (among those who go on: a player who moved up
from 3rd to 2nd is seeded as a runner-up) and their group, so the next stage's
seeding puts every group winner first, then every runner-up, and so on.

>>> outcome = GroupOutcome(ranking=(17, 4, 9, 12), played=frozenset({4, 9, 12}))
>>> outcome.qualifiers(2)
(4, 9)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from crosstable.core.errors import RuleError
from crosstable.core.model import Tournament
from crosstable.core.pairing.knockout_groups import (
    group_qualifiers,
    group_ranking,
    played_a_game,
)
from crosstable.core.series.groups import Entrant


@dataclass(frozen=True, slots=True)
class GroupOutcome:
    """A finished group: its players (the caller's keys) in final ranking order,
    and the set of those who played at least one game."""

    ranking: tuple[int, ...]
    played: frozenset[int]
    #: players of the group barred from going on (an account flagged for computer help):
    #: left out like a player who played no game, the next one moves up
    barred: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if len(set(self.ranking)) != len(self.ranking):
            raise RuleError("a player is ranked twice in one group")
        if not self.played <= set(self.ranking):
            raise RuleError("a player who played is not in the group's ranking")

    def qualifiers(self, count: int) -> tuple[int, ...]:
        """The top ``count`` of those who played and are not barred,
        best first."""
        if count < 0:
            raise RuleError("qualifiers per group: {count} — never negative", count=count)
        going = (key for key in self.ranking if key in self.played and key not in self.barred)
        return tuple(going)[:count]


def outcome_of(
    group: Tournament,
    keys: Sequence[int],
    qualifiers: int,
    tiebreaks: str | Sequence[str] | None = None,
    *,
    lots_seed: int | None = None,
    label: str = "",
    barred: Collection[int] = (),
) -> GroupOutcome:
    """The outcome of a finished round robin whose starting number j is ``keys[j - 1]``.

    The ranking is the group's final standings; an unbroken tie at the cut (between
    the last of the ``qualifiers`` who played and the next) is an error, as for the
    knockout (break it by lots with ``lots_seed`` or by a play-off). ``barred`` keys
    (accounts flagged for computer help) do not go on: the next player of the
    group takes the place, as for a player who played no game.
    """
    if len(keys) != len(group.players):
        raise RuleError(
            "{keys} keys for a group of {players} players",
            keys=len(keys),
            players=len(group.players),
        )
    named = replace(group, name=label or group.name)
    out = frozenset(barred)
    starts = frozenset(start for start, key in enumerate(keys, 1) if key in out)
    group_qualifiers(  # the cut, among those who may go on
        named, qualifiers, tiebreaks, lots_seed=lots_seed, at_least=0, barred=starts
    )
    ranking = group_ranking(named, tiebreaks, lots_seed=lots_seed)
    played = frozenset(keys[s - 1] for s in ranking if played_a_game(group, s))
    ranked = tuple(keys[s - 1] for s in ranking)
    return GroupOutcome(ranked, played, frozenset(key for key in ranked if key in out))


def stage_entrants(
    outcomes: Sequence[GroupOutcome],
    per_group: int,
    ratings: Mapping[int, int | None] | None = None,
) -> tuple[Entrant, ...]:
    """The next stage's entrants: each group's qualifiers with their place and group."""
    entrants: list[Entrant] = []
    seen: set[int] = set()
    for index, outcome in enumerate(outcomes):
        for place, key in enumerate(outcome.qualifiers(per_group), 1):
            if key in seen:
                raise RuleError("player {player} qualifies twice", player=key)
            seen.add(key)
            rating = None if ratings is None else ratings.get(key)
            entrants.append(Entrant(key, rating, place, index))
    return tuple(entrants)


def barred_out(outcomes: Sequence[GroupOutcome]) -> tuple[int, ...]:
    """The players of the stage who were barred from going on, group by group."""
    return tuple(key for outcome in outcomes for key in outcome.ranking if key in outcome.barred)


def left_out(outcomes: Sequence[GroupOutcome]) -> tuple[int, ...]:
    """The players of the stage who played no game, group by group."""
    return tuple(
        key for outcome in outcomes for key in outcome.ranking if key not in outcome.played
    )
