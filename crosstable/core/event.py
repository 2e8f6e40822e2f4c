"""One competition: an :class:`Event` of stages, each of sections.

A :class:`Section` is what today's tournament is — one round robin, Swiss, knockout
or Scheveningen — seen through its competitors: ``games`` holds what is played,
player against player, board by board (a :class:`~crosstable.core.model.Tournament`),
and ``competitors`` who sits in a pairing (players, or teams of a registered kind).
Its :meth:`~Section.table` is the tournament of the competitors, which the pairing
systems pair and the standings rank; a team section's table is its matches.

Today's tournaments, stages and groups map onto it: a single round robin is an event
of one stage with one section; quads and rating groups are one stage of several
sections; a group stage + knockout is two stages; a series' editions have a stage per
step (groups, final, super-final).

>>> from crosstable.core.model import Game, GameResult, Player, Round, StageKind, Tournament
>>> t = Tournament(players=(Player(1, "A"), Player(2, "B")),
...     rounds=(Round(1, (Game(1, 1, 1, 2, GameResult.DRAW()),)),))
>>> event = Event.single("Club", Section("Club", t))
>>> [c.name for c in event.sections()[0].competitors], event.stages[0].kind
(['A', 'B'], <StageKind.GROUPS: 'groups'>)
>>> [row.points for row in event.sections()[0].standings("DE").rows]
[Fraction(1, 2), Fraction(1, 2)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from crosstable.core.competitor import Competitor, competitor_kind, players_as_competitors
from crosstable.core.model import StageKind, Tournament
from crosstable.core.pairing_systems import fixed_pairing
from crosstable.core.schedule import Schedule
from crosstable.core.standings import Standings, compute_standings


@dataclass(frozen=True)
class Section:
    """One section: its games and its competitors (none given: the players themselves)."""

    name: str
    games: Tournament
    competitors: tuple[Competitor, ...] = ()
    kind: str = "player"

    def __post_init__(self) -> None:
        if not self.competitors and self.kind == "player":
            object.__setattr__(self, "competitors", players_as_competitors(self.games.players))
        self.table()  # every competitor of the kind, numbered 1…N

    def table(self) -> Tournament:
        """The competitors' tournament: what is paired and ranked."""
        return competitor_kind(self.kind).table(self.games, self.competitors)

    def standings(self, tiebreaks: str | Sequence[str] | None = None, **options: Any) -> Standings:
        """The competitors' standings (options as
        :func:`~crosstable.core.standings.compute_standings` takes them)."""
        return compute_standings(self.table(), tiebreaks, **options)

    def schedule(
        self,
        *,
        cycles: int | None = None,
        swap_last_rounds: bool | None = None,
        details: Mapping[str, object] | None = None,
    ) -> Schedule:
        """The whole schedule of a system paired before round 1, by starting number
        (``details``: the regulations' details, e.g. a round robin's table)."""
        settings = self.games.settings
        return fixed_pairing(settings.system).schedule(
            self.competitors,
            cycles=settings.cycles if cycles is None else cycles,
            swap_last_rounds=(
                settings.swap_last_rounds if swap_last_rounds is None else swap_last_rounds
            ),
            details=details,
        )


@dataclass(frozen=True, slots=True)
class Stage:
    """One step of an event (groups, a knockout, a final): sections played side by side."""

    name: str
    kind: StageKind
    sections: tuple[Section, ...] = ()


@dataclass(frozen=True, slots=True)
class Event:
    """An event of one or more stages (a single round robin is one stage of one section)."""

    name: str
    stages: tuple[Stage, ...] = field(default=())

    @classmethod
    def single(cls, name: str, section: Section) -> Event:
        """An event of one section."""
        return cls(name, (Stage(name, StageKind.GROUPS, (section,)),))

    def sections(self) -> tuple[Section, ...]:
        """Every section, stage by stage."""
        return tuple(section for stage in self.stages for section in stage.sections)


__all__ = ["Event", "Section", "Stage"]
