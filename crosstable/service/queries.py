"""Reading a tournament: lists, an overview for screens, the live standings, the core value.

The pages read through here too: :meth:`Queries.crosstable` and
:meth:`Queries.revision` answer from the service's read model
(:mod:`crosstable.service.tables`, which says which copy of a tournament's state is
the truth and why the kept ones are safe); the byes, teams, planned rounds and
idempotency keys the pages of a Swiss or Scheveningen need are plain reads.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from crosstable.core.model import ByeKind, Tournament
from crosstable.service.base import ServiceBase
from crosstable.service.errors import NotFoundError
from crosstable.service.loading import Loaded, result_label
from crosstable.store.models import (
    ByeRow,
    EntryRow,
    EventRow,
    LiveStandingsRow,
    PreferenceRow,
    TournamentRow,
)

if TYPE_CHECKING:
    from crosstable.service.crosstable import Crosstable
    from crosstable.service.tables import ReadModel, TableState


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    id: int
    name: str
    status: str
    system: str
    players: int
    revision: int


@dataclass(frozen=True, slots=True)
class PlayerView:
    number: int
    start: int | None
    name: str
    rating: int | None
    title: str
    federation: str
    withdrawn_from: int | None
    place: int | None


@dataclass(frozen=True, slots=True)
class GameView:
    round: int
    board: int
    white: int | None  # starting numbers
    black: int | None
    white_name: str
    black_name: str
    result: str | None  # "1-0", "½-½", "+-"…; None: no result yet
    white_report: str | None
    black_report: str | None
    version: int

    @property
    def disputed(self) -> bool:
        return (
            self.result is None
            and self.white_report is not None
            and self.black_report is not None
            and self.white_report != self.black_report
        )


@dataclass(frozen=True, slots=True)
class ByeRequest:
    """A bye of a paired round or one asked for ahead (TRF letters)."""

    round: int
    start: int
    name: str
    kind: str  # "U", "H", "F", "Z"


@dataclass(frozen=True, slots=True)
class TournamentView:
    id: int
    name: str
    status: str
    revision: int
    settings: dict[str, Any]
    players: tuple[PlayerView, ...]
    games: tuple[GameView, ...]
    free_rounds: tuple[tuple[int, int], ...]  # (round, starting number)
    rounds: int


class Queries(ServiceBase):
    """Read-only use cases (a consistent snapshot each; never blocks a writer)."""

    def tournaments(self) -> list[TournamentSummary]:
        with self.store.reading() as session:
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
        with self.store.reading() as session:
            loaded = Loaded(session, _row(session, tournament_id))
        return tournament_view(loaded)

    def tournament(self, tournament_id: int) -> Tournament:
        """The core value, for standings, tie-breaks and exports."""
        with self.store.reading() as session:
            return Loaded(session, _row(session, tournament_id)).tournament()

    def live_standings(self, tournament_id: int) -> dict[str, Any] | None:
        """The standings stored with the latest change (None before the draw)."""
        with self.store.reading() as session:
            _row(session, tournament_id)
            row = session.get(LiveStandingsRow, tournament_id)
            if row is None:
                return None
            return dict(row.body) | {"revision": row.revision}

    # -- what the pages read (issue 14 item 1) ---------------------------------------

    @property
    def read_model(self) -> ReadModel:
        """This service's read model (made on first use; one per service)."""
        model: ReadModel | None = self.__dict__.get("_read_model")
        if model is None:
            from crosstable.service.tables import ReadModel

            with _MAKING:
                model = self.__dict__.setdefault("_read_model", ReadModel(self.store))
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
        from crosstable.service.tables import snapshot

        return snapshot(self.store, tournament_id)

    def byes(self, tournament_id: int) -> list[ByeRequest]:
        """Every bye of the tournament (paired rounds and requests for later rounds), by
        round."""
        with self.store.reading() as session:
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
        with self.store.reading() as session:
            rows = session.execute(
                select(EntryRow.number, EntryRow.team).where(
                    EntryRow.tournament_id == tournament_id
                )
            ).all()
        return {int(r.number): str(r.team) for r in rows if r.team}

    def planned_rounds(self, tournament_id: int) -> int | None:
        """The rounds of a Swiss, fixed at the start (None before it: ⌈log₂ N⌉ unless set)."""
        with self.store.reading() as session:
            value = session.scalar(
                select(TournamentRow.rounds_planned).where(TournamentRow.id == tournament_id)
            )
        return None if value is None else int(value)

    def key_used(self, tournament_id: int, key: str | None) -> bool:
        """True when a change with this idempotency key was made (a repeated request)."""
        if not key:
            return False
        with self.store.reading() as session:
            found = session.scalar(
                select(EventRow.id).where(
                    EventRow.tournament_id == tournament_id, EventRow.idempotency_key == key
                )
            )
        return found is not None

    def preference(self, key: str) -> str | None:
        with self.store.reading() as session:
            row = session.get(PreferenceRow, key)
            return None if row is None else row.value

    def set_preference(self, key: str, value: str | None) -> None:
        """Small settings outside any tournament's history (e.g. the current tournament)."""
        with self.store.transaction() as session:
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


def tournament_view(loaded: Loaded) -> TournamentView:
    """The screen view of a loaded tournament."""
    row = loaded.row
    entries = loaded.by_number

    def start(number: int) -> int | None:
        return entries[number].start

    games = tuple(
        GameView(
            round=g.round,
            board=g.board,
            white=start(g.white),
            black=start(g.black),
            white_name=entries[g.white].name,
            black_name=entries[g.black].name,
            result=None if g.result is None else result_label(g.result),
            white_report=None if g.white_report is None else result_label(g.white_report),
            black_report=None if g.black_report is None else result_label(g.black_report),
            version=g.version,
        )
        for g in loaded.games
    )
    players = tuple(
        PlayerView(
            e.number, e.start, e.name, e.rating, e.title, e.federation, e.withdrawn_from, e.place
        )
        for e in sorted(loaded.entries, key=lambda e: (e.start is None, e.start or 0, e.number))
    )
    settings = {
        "system": row.system,
        "cycles": row.cycles,
        "point_system": row.point_system,
        "bye_points": row.bye_points,
        "tiebreaks": [c for c in row.tiebreaks.split(",") if c],
        "withdrawal_rule": row.withdrawal_rule,
        "rules": row.rules_edition,
        "time_control": row.time_control,
        "start_date": row.start_date,
        "end_date": row.end_date,
        "regulations": published_regulations(row.regulations, row.status),
        "draw_method": row.draw_method,
        "draw_seed": row.draw_seed,
    }
    free = tuple((b.round, start(b.player) or 0) for b in loaded.byes)
    return TournamentView(
        id=row.id,
        name=row.name,
        status=row.status,
        revision=row.revision,
        settings=settings,
        players=players,
        games=games,
        free_rounds=free,
        rounds=len(loaded.rounds),
    )


def published_regulations(details: dict[str, Any] | None, status: str) -> dict[str, Any]:
    """The regulations' details as anyone may read them: a battle-chess tournament's seed
    of the colours is its SHA-256 (``sha256:…``) until the tournament is finished, so
    nobody can work out the colours of games still to come."""
    from crosstable.core import battle

    shown = dict(details or {})
    seed = shown.get(battle.SEED)
    if battle.is_battle(shown) and status != "finished" and seed not in (None, ""):
        shown[battle.SEED] = "sha256:" + hashlib.sha256(str(seed).encode()).hexdigest()
    return shown
