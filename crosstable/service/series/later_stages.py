"""Registration for stage 2 and later (R-SE-2, seed 002: «Время на регистрацию во 2-й и
последующие туры ограничено, игрок может зарегистрироваться только в течение 2-х недель
с момента начала соответствующего тура»).

How the product reads it (docs/series.md §3): the players of a later stage are the
qualifiers of the stage before (R-SE-5), entered automatically and their games made at
the stage's start (R-SE-4); the final and the super-final need nothing more («В финал
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
from typing import TYPE_CHECKING, cast

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.series.registration import LATER_STAGE_WINDOW, later_stage_open
from crosstable.core.text import Message
from crosstable.service.base import ServiceBase
from crosstable.service.errors import NotFoundError
from crosstable.service.series.editions import iso, moment
from crosstable.service.series.outbox import record
from crosstable.store.models import EntryRow
from crosstable.store.series_models import (
    SeriesEditionRow,
    SeriesEventRow,
    SeriesGroupRow,
    SeriesRegistrationRow,
    SeriesStageRow,
)

if TYPE_CHECKING:
    from crosstable.service import Service

#: the stages whose players are registered automatically (seed 002, R-SE-5)
AUTOMATIC = ("final", "super-final")


class StageRegistration(ServiceBase):
    """Confirming a place in, and withdrawing from, stage 2 and later."""

    def stage_window(self, edition_id: int) -> dict[str, object]:
        """The edition's current stage and its registration window (opens, closes)."""
        with self.store.reading() as session:
            edition, stage = _current(session, edition_id)
            opens, closes = _window(stage)
            return {
                "edition": edition.id,
                "stage": stage.number,
                "kind": stage.kind,
                "opens": iso(opens),
                "closes": iso(closes),
                "open": later_stage_open(self.clock.now(), opens),
            }

    def register_for_stage(self, edition_id: int, name: str, *, actor: str = "") -> int:
        """A qualifier confirms their place in the edition's current stage (≥ 2) within
        two weeks of its start; their registration's id."""
        now, at = self.clock.now(), self._now()
        with self.store.transaction() as session:
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
                f"{_name(session, key)} registered for stage {stage.number} of edition "
                f"{edition.number}",
                at=at,
                actor=actor,
                data={"registration": key, "stage": stage.number},
                step=step,
            )
            return key

    def withdraw_from_stage(self, edition_id: int, name: str, *, actor: str = "") -> None:
        """A player leaves the edition's current stage (≥ 2) within two weeks of its start:
        withdrawn from their group's round robin under its withdrawal rule."""
        now, at = self.clock.now(), self._now()
        with self.store.reading() as session:
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
        service = cast("Service", self)
        service.withdraw(tid, start, actor=actor or "series")
        with self.store.transaction() as session:
            record(
                session,
                series_id,
                edition_id,
                "stage-withdraw",
                f"{player} withdrew from stage {stage.number} of edition {edition_number} "
                f"(tournament {tid}, under its withdrawal rule)",
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


def _window(stage: SeriesStageRow) -> tuple[dt.datetime, dt.datetime]:
    assert stage.started_at is not None
    opens = moment(stage.started_at)
    return opens, opens + LATER_STAGE_WINDOW


def _check_open(
    edition: SeriesEditionRow, stage: SeriesStageRow, now: dt.datetime, what: str
) -> None:
    opens, closes = _window(stage)
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
