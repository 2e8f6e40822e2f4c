"""A tournament's timed start as the organiser sets it and everyone reads it: the same
JSON for ``crosstable autostart``, ``GET/PUT /api/v1/tournaments/{id}/autostart`` and the
organiser's page (settings: :mod:`crosstable.service.timed_start`; the clock that acts
on them: :mod:`crosstable.service.clockwork`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import func, select

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.regulations import RegulationDetails
from crosstable.service.eligibility import venue_kind
from crosstable.service.errors import NotFoundError
from crosstable.service.frame import Change
from crosstable.service.read_views import JsonObject, Shown
from crosstable.service.series.needs import StoreAndClock
from crosstable.service.timed_start import (
    CAPACITY,
    KEYS,
    TimedStart,
    derived_seed,
    timed_start,
)
from crosstable.store.models import EntryRow, TournamentRow

#: the longest value of one setting
LONGEST = 60


class RegulationsEditor(Protocol):
    def edit_regulations(
        self,
        tournament_id: int,
        *,
        actor: str = "",
        override_reason: str | None = None,
        **given: Any,
    ) -> Change: ...


class StoreAndClockEditor(StoreAndClock, RegulationsEditor, Protocol):
    """The service: the store and clock to read, the regulations' edit to write."""


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class StartPlan(Shown):
    """A tournament's start by the clock: its settings, the field so far and the draw.

    Read by key it is the JSON of ``GET /api/v1/tournaments/{id}/autostart``: the
    tournament, then the settings (:meth:`TimedStart.as_json`), then the field."""

    tournament: int
    system: str
    status: str
    settings: TimedStart
    players: int
    #: seats left before the capacity (None: no capacity)
    seats_left: int | None
    full: bool
    #: ``random`` (from the seed), ``rating`` or ``lots``
    draw: str
    lots_seed: int | None

    def as_json(self) -> JsonObject:
        return {
            "tournament": self.tournament,
            "system": self.system,
            "status": self.status,
            **self.settings.as_json(),
            "players": self.players,
            "seats_left": self.seats_left,
            "full": self.full,
            "draw": self.draw,
            "lots_seed": self.lots_seed,
        }


def start_plan(service: StoreAndClock, tournament_id: int) -> StartPlan:
    """The settings, the field (players, seats left, full) and how the clock will draw."""
    with service.store.reading() as session:
        row = session.get(TournamentRow, tournament_id)
        if row is None:
            raise NotFoundError(
                "there is no tournament {tournament} in this database", tournament=tournament_id
            )
        players = int(
            session.scalar(
                select(func.count())
                .select_from(EntryRow)
                .where(EntryRow.tournament_id == tournament_id)
            )
            or 0
        )
        details = RegulationDetails(row.regulations)
        settings = timed_start(row.system, details)
        capacity = settings.capacity
        draw = _draw(row.system, details)
        seed = str(details.get("lots_seed") or "").strip()
        lots_seed = int(seed) if seed.isdigit() else None
        if draw == "random" and lots_seed is None:
            lots_seed = derived_seed(row)
        return StartPlan(
            tournament=row.id,
            system=row.system,
            status=row.status,
            settings=settings,
            players=players,
            seats_left=None if capacity is None else max(capacity - players, 0),
            full=capacity is not None and players >= capacity,
            draw=draw,
            lots_seed=lots_seed,
        )


def _draw(system: str, details: RegulationDetails) -> str:
    """How the clock's start orders the field: ``random`` (from the seed), ``rating``
    (a knockout seeded 1 v N, a Swiss) or ``lots`` (a round robin's lots, from the seed)."""
    if system == System.KNOCKOUT.value:  # the portal's rule, whatever bracket is named
        return "rating" if venue_kind(details) == "otb" else "random"
    return "rating" if system == System.SWISS_DUTCH.value else "lots"


def set_start_settings(
    service: StoreAndClockEditor, tournament_id: int, *, actor: str = "", **values: str | None
) -> Change:
    """Set the timed-start settings given (an empty text clears one); checked by the
    regulations' edit, which refuses a bad value naming it and changes nothing."""
    unknown = sorted(set(values) - set(KEYS))
    if unknown:
        raise RuleError("unknown start setting {name}", name=repr(unknown[0]))
    changes = {key: value.strip() for key, value in values.items() if value is not None}
    for key, value in changes.items():
        if len(value) > LONGEST:
            raise RuleError("regulations, {key}: at most {most} characters", key=key, most=LONGEST)
    if not changes:
        raise RuleError("nothing to change")
    capacity = changes.get(CAPACITY, "")
    if capacity.isdigit() and len(capacity) <= 4:
        players = start_plan(service, tournament_id).players
        if int(capacity) < players:
            raise RuleError(
                "capacity {capacity}: {players} players have registered already",
                capacity=int(capacity),
                players=players,
            )
    return service.edit_regulations(tournament_id, actor=actor, detail_changes=changes)
