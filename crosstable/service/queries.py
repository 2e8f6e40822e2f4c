"""Reading a tournament: lists, an overview for screens, the live standings, the core value."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from crosstable.core.model import Tournament
from crosstable.service.base import ServiceBase
from crosstable.service.errors import NotFoundError
from crosstable.service.loading import Loaded, result_label
from crosstable.store.models import EntryRow, LiveStandingsRow, PreferenceRow, TournamentRow


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
        return _view(loaded)

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


def _row(session: Session, tournament_id: int) -> TournamentRow:
    row = session.get(TournamentRow, tournament_id)
    if row is None:
        raise NotFoundError(f"there is no tournament {tournament_id} in this database")
    return row


def _view(loaded: Loaded) -> TournamentView:
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
