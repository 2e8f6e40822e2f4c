"""Registration for stage 2 and later (seed 002: «Время на регистрацию во 2-й и
последующие туры ограничено, игрок может зарегистрироваться только в течение 2-х недель
с момента начала соответствующего тура»).

How the product reads it (docs/series.md §3): the players of a later stage are the
qualifiers of the stage before, entered automatically and their games made at
the stage's start; the final and the super-final need nothing more («В финал
и суперфинал регистрация пользователей происходит автоматически»). For the other later
stages (groups), "registering" is a qualifier confirming their place: open from the
stage's start for two weeks, [start, start + 14 days) (the core's
:func:`~crosstable.core.series.registration.later_stage_open`), and in the same window
a player may withdraw from the stage — withdrawn from their group's round robin under
its withdrawal rule. Outside the window both are refused with the window's dates.
Each confirmation and withdrawal is a line of the series' history.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.series.registration import LATER_STAGE_WINDOW, later_stage_open
from crosstable.core.text import Message
from crosstable.service.errors import NotFoundError
from crosstable.service.frame import ChangeFrame
from crosstable.service.series.editions import iso, moment
from crosstable.service.series.lines import record
from crosstable.service.series.needs import Tournaments
from crosstable.service.series.outbox import notify
from crosstable.service.series.shown import Shown
from crosstable.store.models import EntryRow, GameRow, TournamentRow
from crosstable.store.series_models import (
    SeriesEditionRow,
    SeriesEventRow,
    SeriesGroupRow,
    SeriesRegistrationRow,
    SeriesRow,
    SeriesStageRow,
)

#: the stages whose players are registered automatically (seed 002)
AUTOMATIC = ("final", "super-final")


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class StageWindow(Shown):
    """An edition's current stage and the window its places are confirmed in (ISO UTC)."""

    edition: int
    stage: int
    kind: str
    opens: str
    closes: str
    open: bool


class StageRegistration:
    """Confirming a place in, and withdrawing from, stage 2 and later (a withdrawal is
    the group tournament's own: ``tournaments.withdraw``)."""

    def __init__(self, frame: ChangeFrame, tournaments: Tournaments) -> None:
        self.frame = frame
        self.tournaments = tournaments

    def stage_window(self, edition_id: int) -> StageWindow:
        """The edition's current stage and its registration window (opens, closes)."""
        with self.frame.store.reading() as session:
            edition, stage = _current(session, edition_id)
            opens, closes = registration_window(stage)
            return StageWindow(
                edition=edition.id,
                stage=stage.number,
                kind=stage.kind,
                opens=iso(opens),
                closes=iso(closes),
                open=later_stage_open(self.frame.clock.now(), opens),
            )

    def register_for_stage(self, edition_id: int, name: str, *, actor: str = "") -> int:
        """A qualifier confirms their place in the edition's current stage (≥ 2) within
        two weeks of its start; their registration's id."""
        now, at = self.frame.clock.now(), self.frame.now()
        with self.frame.store.transaction() as session:
            edition, stage = _current(session, edition_id, lock=True)
            key, _group = _player(session, edition, stage, name)
            _check_open(edition, stage, now, "register")
            step = f"edition {edition.id}: stage {stage.number} registration {key}"
            if session.scalar(select(SeriesEventRow.id).where(SeriesEventRow.step == step)):
                raise RuleError(
                    "{name} is registered for stage {stage} already",
                    name=_name(session, key),
                    stage=stage.number,
                )
            record(
                session,
                edition.series_id,
                edition.id,
                "stage-register",
                Message(
                    "{player} registered for stage {stage} of edition {edition}",
                    player=_name(session, key),
                    stage=stage.number,
                    edition=edition.number,
                ),
                at=at,
                actor=actor,
                data={"registration": key, "stage": stage.number},
                step=step,
            )
            return key

    def withdraw_from_stage(self, edition_id: int, name: str, *, actor: str = "") -> None:
        """A player leaves the edition's current stage (≥ 2) within two weeks of its start:
        withdrawn from their group's round robin under its withdrawal rule."""
        now, at = self.frame.clock.now(), self.frame.now()
        with self.frame.store.reading() as session:
            edition, stage = _current(session, edition_id)
            key, group = _player(session, edition, stage, name)
            _check_open(edition, stage, now, "withdraw")
            number = group.players.index(key) + 1
            tid = group.tournament_id
            entry = session.get(EntryRow, (tid, number)) if tid is not None else None
            if tid is None or entry is None or entry.start is None:
                raise RuleError(
                    "stage {stage}: the group's tournament is not made yet", stage=stage.number
                )
            start, series_id, player = entry.start, edition.series_id, _name(session, key)
            edition_number = edition.number
        self.tournaments.withdraw(tid, start, actor=actor or "series")
        with self.frame.store.transaction() as session:
            record(
                session,
                series_id,
                edition_id,
                "stage-withdraw",
                Message(
                    "{player} withdrew from stage {stage} of edition {edition} (tournament "
                    "{tournament}, under its withdrawal rule)",
                    player=player,
                    stage=stage.number,
                    edition=edition_number,
                    tournament=tid,
                ),
                at=at,
                actor=actor,
                data={"registration": key, "stage": stage.number, "tournament": tid},
                step=f"edition {edition_id}: stage {stage.number} withdrawal {key}",
            )


def _current(
    session: Session, edition_id: int, *, lock: bool = False
) -> tuple[SeriesEditionRow, SeriesStageRow]:
    query = select(SeriesEditionRow).where(SeriesEditionRow.id == edition_id)
    edition = session.scalars(query.with_for_update() if lock else query).one_or_none()
    if edition is None:
        raise NotFoundError(
            "there is no series edition {edition} in this database", edition=edition_id
        )
    stage = session.scalars(
        select(SeriesStageRow).where(
            SeriesStageRow.edition_id == edition_id, SeriesStageRow.number == edition.stage
        )
    ).one_or_none()
    if stage is None or stage.number < 2 or edition.state == "finished":
        raise RuleError(
            (
                "edition {edition} has no stage 2 or later under way: registration for stage 1 is "
                "the edition's own"
            ),
            edition=edition.number,
        )
    if stage.kind in AUTOMATIC:
        raise RuleError(
            (
                "stage {stage} is the {kind}: its players are its qualifiers, registered "
                "automatically"
            ),
            stage=stage.number,
            kind=stage.kind,
        )
    if stage.started_at is None:
        raise RuleError("stage {stage} has not started yet", stage=stage.number)
    return edition, stage


def registration_window(stage: SeriesStageRow) -> tuple[dt.datetime, dt.datetime]:
    """A started later stage's two weeks of registration: [opens, closes)."""
    assert stage.started_at is not None
    opens = moment(stage.started_at)
    return opens, opens + LATER_STAGE_WINDOW


def _check_open(
    edition: SeriesEditionRow, stage: SeriesStageRow, now: dt.datetime, what: str
) -> None:
    opens, closes = registration_window(stage)
    if later_stage_open(now, opens):
        return
    if what == "register":
        raise RuleError(
            (
                "stage {stage} of edition {edition}: registration is open only from the stage's "
                "start, {opens}, until {closes} (two weeks)"
            ),
            stage=stage.number,
            edition=edition.number,
            opens=iso(opens),
            closes=iso(closes),
        )
    raise RuleError(
        (
            "stage {stage} of edition {edition}: a player may withdraw only from the stage's "
            "start, {opens}, until {closes} (two weeks)"
        ),
        stage=stage.number,
        edition=edition.number,
        opens=iso(opens),
        closes=iso(closes),
    )


def _player(
    session: Session, edition: SeriesEditionRow, stage: SeriesStageRow, name: str
) -> tuple[int, SeriesGroupRow]:
    player = " ".join(name.split()).casefold()
    rows = session.scalars(
        select(SeriesRegistrationRow).where(SeriesRegistrationRow.edition_id == edition.id)
    )
    keys = {row.id for row in rows if row.name.casefold() == player}
    for group in session.scalars(select(SeriesGroupRow).where(SeriesGroupRow.stage_id == stage.id)):
        for key in group.players:
            if key in keys:
                return key, group
    raise NotFoundError(
        "{name} does not play stage {stage} of edition {edition}",
        name=Message.joined(" ", name.split()),
        stage=stage.number,
        edition=edition.number,
    )


def _name(session: Session, key: int) -> str:
    row = session.get(SeriesRegistrationRow, key)
    return row.name if row is not None else str(key)


def unconfirmed_step(edition_id: int, number: int) -> str:
    """The step key of stage ``number``'s close of registration."""
    return f"edition {edition_id}: stage {number} unconfirmed"


def needs_confirmation(stage: SeriesStageRow) -> bool:
    """A later group stage (not the final or the super-final): its qualifiers confirm."""
    return stage.number >= 2 and stage.kind not in AUTOMATIC


def dropped_keys(session: Session, edition_id: int, number: int) -> frozenset[int]:
    """The stage's qualifiers who dropped out unconfirmed (none: the window is open)."""
    step = unconfirmed_step(edition_id, number)
    row = session.scalars(select(SeriesEventRow).where(SeriesEventRow.step == step)).first()
    return (
        frozenset(int(key) for key in (row.data or {}).get("dropped", ())) if row else frozenset()
    )


def drop_unconfirmed(
    frame: ChangeFrame, tournaments: Tournaments, edition_id: int, stage_id: int
) -> str | None:
    """At the close of a later group stage's two weeks (docs/series.md §3): every
    qualifier who neither confirmed nor withdrew drops out — withdrawn from their group's
    round robin if it is still running (their games without a result become forfeits,
    as the withdrawal rule says), never going on from the stage (the next best of their
    group takes the place), and told (an ``eliminated`` notification marked
    ``unconfirmed``). None: not due (the window is open, the stage is over — every game
    has a result, so nobody is dropped from a stage played out — or it was done)."""
    now = frame.clock.now()
    with frame.store.reading() as session:
        stage = session.get(SeriesStageRow, stage_id)
        assert stage is not None
        if not needs_confirmation(stage) or stage.started_at is None or stage.finished_at:
            return None
        _opens, closes = registration_window(stage)
        step = unconfirmed_step(edition_id, stage.number)
        if now < closes or session.scalar(
            select(SeriesEventRow.id).where(SeriesEventRow.step == step)
        ):
            return None
        prefix = f"edition {edition_id}: stage {stage.number} "
        answered = {
            int(key.rsplit(" ", 1)[1])
            for key in session.scalars(
                select(SeriesEventRow.step).where(
                    SeriesEventRow.edition_id == edition_id,
                    SeriesEventRow.step.like(prefix + "%"),
                )
            )
            if key and key.rsplit(" ", 2)[1] in ("registration", "withdrawal")
        }
        groups = list(
            session.scalars(select(SeriesGroupRow).where(SeriesGroupRow.stage_id == stage_id))
        )
        if _played_out(session, [g.tournament_id for g in groups]):
            return None  # every game has a result: the stage is over, its end comes next
        leaving: list[tuple[int, int | None, int | None]] = []  # key, tournament, start
        for group in groups:
            running = group.tournament_id is not None and _running(session, group.tournament_id)
            for number, key in enumerate(group.players, 1):
                if key in answered:
                    continue
                entry = session.get(EntryRow, (group.tournament_id, number)) if running else None
                if entry is None or entry.withdrawn_from is not None or entry.start is None:
                    leaving.append((key, None, None))
                else:
                    leaving.append((key, group.tournament_id, entry.start))
        stage_number = stage.number
    for _key, tid, start in leaving:
        if tid is not None and start is not None:
            tournaments.withdraw(tid, start, actor="tick")
    at = frame.now()
    with frame.store.transaction() as session:
        edition = session.scalars(
            select(SeriesEditionRow).where(SeriesEditionRow.id == edition_id).with_for_update()
        ).one()
        if session.scalar(select(SeriesEventRow.id).where(SeriesEventRow.step == step)):
            return None  # pragma: no cover - one tick at a time
        series = session.get(SeriesRow, edition.series_id)
        assert series is not None
        dropped = [key for key, _tid, _start in leaving]
        for key in dropped:
            entry_row = session.get(SeriesRegistrationRow, key)
            assert entry_row is not None
            notify(
                session,
                entry_row,
                "eliminated",
                f"unconfirmed:{stage_id}:{key}",
                {
                    "edition": edition_id,
                    "series": series.name,
                    "stage": stage_number,
                    "unconfirmed": True,
                },
                at=at,
            )
        said = Message(
            "edition {number}: stage {stage} registration closed — {dropped} unconfirmed "
            "dropped out",
            number=edition.number,
            stage=stage_number,
            dropped=len(dropped),
        )
        record(
            session,
            edition.series_id,
            edition_id,
            "stage-unconfirmed",
            said,
            at=at,
            actor="tick",
            data={"stage": stage_number, "dropped": dropped},
            step=step,
        )
        return said


def _running(session: Session, tournament_id: int) -> bool:
    row = session.get(TournamentRow, tournament_id)
    return row is not None and row.status == "running"


def _played_out(session: Session, tids: list[int | None]) -> bool:
    """Every game of the stage's groups has a result (one query for the stage)."""
    if any(tid is None for tid in tids):
        return False
    games, with_result = session.execute(
        select(func.count(), func.count(GameRow.result)).where(GameRow.tournament_id.in_(tids))
    ).one()
    return bool(games) and games == with_result
