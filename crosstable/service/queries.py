"""Reading a tournament: lists, an overview for screens, the live standings, the core value.

The pages read through here too: :meth:`Queries.crosstable` and
:meth:`Queries.revision` answer from the service's read model
(:mod:`crosstable.service.tables`, which says which copy of a tournament's state is
the truth and why the kept ones are safe); the byes, teams, planned rounds and
idempotency keys the pages of a Swiss or Scheveningen need are plain reads.
"""

from __future__ import annotations

import threading

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from crosstable.core.model import ByeKind, Tournament
from crosstable.service.crosstable import Crosstable
from crosstable.service.errors import NotFoundError
from crosstable.service.frame import ChangeFrame
from crosstable.service.loading import Loaded
from crosstable.service.read_views import JsonObject
from crosstable.service.tables import ReadModel, TableState, snapshot
from crosstable.service.views import (
    ByeRequest,
    GameView,
    PlayerView,
    TournamentSummary,
    TournamentView,
    tournament_view,
)
from crosstable.store.models import (
    ByeRow,
    EntryRow,
    EventRow,
    LiveStandingsRow,
    PreferenceRow,
    TournamentRow,
)


class Queries:
    """Read-only use cases (a consistent snapshot each; never blocks a writer)."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def tournaments(self) -> list[TournamentSummary]:
        with self.frame.store.reading() as session:
            counts = dict(
                session.execute(
                    select(EntryRow.tournament_id, func.count()).group_by(EntryRow.tournament_id)
                ).all()
            )
            rows = session.scalars(select(TournamentRow).order_by(TournamentRow.id)).all()
            return [
                TournamentSummary(r.id, r.name, r.status, r.system, counts.get(r.id, 0), r.revision)
                for r in rows
            ]

    def overview(self, tournament_id: int) -> TournamentView:
        with self.frame.store.reading() as session:
            loaded = Loaded(session, _row(session, tournament_id))
        return tournament_view(loaded)

    def tournament(self, tournament_id: int) -> Tournament:
        """The core value, for standings, tie-breaks and exports."""
        with self.frame.store.reading() as session:
            return Loaded(session, _row(session, tournament_id)).tournament()

    def live_standings(self, tournament_id: int) -> JsonObject | None:
        """The standings stored with the latest change (None before the draw)."""
        with self.frame.store.reading() as session:
            _row(session, tournament_id)
            row = session.get(LiveStandingsRow, tournament_id)
            if row is None:
                return None
            return dict(row.body) | {"revision": row.revision}

    # -- what the pages read ---------------------------------------

    @property
    def read_model(self) -> ReadModel:
        """This service's read model (made on first use; one per service)."""
        model: ReadModel | None = self.__dict__.get("_read_model")
        if model is None:
            with _MAKING:
                model = self.__dict__.setdefault("_read_model", ReadModel(self.frame.store))
        return model

    def revision(self, tournament_id: int) -> int:
        """The tournament's current revision (one indexed read; NotFoundError if none)."""
        return self.read_model.revision(tournament_id)

    def crosstable(self, tournament_id: int) -> tuple[TournamentView, Crosstable]:
        """The screen view and the crosstable at the current revision (computed once
        per revision for every reader)."""
        return self.read_model.get(tournament_id)

    def table_state(self, tournament_id: int) -> TableState:
        """The view, the core value and the crosstable at the current revision."""
        return self.read_model.current(tournament_id)

    def snapshot(self, tournament_id: int) -> tuple[TournamentView, Tournament]:
        """The screen view and the core value from one consistent read (no kept copy)."""
        return snapshot(self.frame.store, tournament_id)

    def byes(self, tournament_id: int) -> list[ByeRequest]:
        """Every bye of the tournament (paired rounds and requests for later rounds), by
        round."""
        with self.frame.store.reading() as session:
            rows = session.execute(
                select(ByeRow.round, ByeRow.kind, EntryRow.start, EntryRow.name)
                .join(
                    EntryRow,
                    (EntryRow.tournament_id == ByeRow.tournament_id)
                    & (EntryRow.number == ByeRow.player),
                )
                .where(ByeRow.tournament_id == tournament_id)
                .order_by(ByeRow.round, EntryRow.start)
            ).all()
        return [
            ByeRequest(int(r.round), int(r.start or 0), str(r.name), str(r.kind))
            for r in rows
            if r.kind != ByeKind.FREE.value
        ]

    def teams(self, tournament_id: int) -> dict[int, str]:
        """Registration number → team (Scheveningen; empty elsewhere)."""
        with self.frame.store.reading() as session:
            rows = session.execute(
                select(EntryRow.number, EntryRow.team).where(
                    EntryRow.tournament_id == tournament_id
                )
            ).all()
        return {int(r.number): str(r.team) for r in rows if r.team}

    def planned_rounds(self, tournament_id: int) -> int | None:
        """The rounds of a Swiss, fixed at the start (None before it: ⌈log₂ N⌉ unless set)."""
        with self.frame.store.reading() as session:
            value = session.scalar(
                select(TournamentRow.rounds_planned).where(TournamentRow.id == tournament_id)
            )
        return None if value is None else int(value)

    def key_used(self, tournament_id: int, key: str | None) -> bool:
        """True when a change with this idempotency key was made (a repeated request)."""
        if not key:
            return False
        with self.frame.store.reading() as session:
            found = session.scalar(
                select(EventRow.id).where(
                    EventRow.tournament_id == tournament_id, EventRow.idempotency_key == key
                )
            )
        return found is not None

    def preference(self, key: str) -> str | None:
        with self.frame.store.reading() as session:
            row = session.get(PreferenceRow, key)
            return None if row is None else row.value

    def set_preference(self, key: str, value: str | None) -> None:
        """Small settings outside any tournament's history (e.g. the current tournament)."""
        with self.frame.store.transaction() as session:
            row = session.get(PreferenceRow, key)
            if value is None:
                if row is not None:
                    session.delete(row)
            elif row is None:
                session.add(PreferenceRow(key=key, value=value))
            else:
                row.value = value


#: (the first use of a service's read model makes it once, also from two threads)
_MAKING = threading.Lock()


def _row(session: Session, tournament_id: int) -> TournamentRow:
    row = session.get(TournamentRow, tournament_id)
    if row is None:
        raise NotFoundError(
            "there is no tournament {tournament} in this database", tournament=tournament_id
        )
    return row


__all__ = [
    "ByeRequest",
    "GameView",
    "PlayerView",
    "Queries",
    "TournamentSummary",
    "TournamentView",
]
