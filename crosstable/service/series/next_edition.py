"""The next edition opens by itself: a step of the tick.

When a series' latest edition is far enough on, the tick opens the next one
(:func:`~crosstable.service.series.editions.open_next`, the same rule as the manual
``open_edition``) with the injected clock:

* a **calendar** series (weekend, workdays, weekly, monthly): as soon as the latest
  edition's stage 1 has started, so that registration for the next one is open while
  this one plays — at the first edition start after the latest edition's start whose
  registration deadline is still ahead (a weekend series' on its own weekend day);
* a **regular** series: as soon as the latest edition is finished ("the next starts as
  soon as the previous ends"): registration opens at once and the edition starts a
  day later, or at the series' time of day when it has one (docs/series.md §1).

Nothing opens by itself for a series without an edition (its organiser opens the first:
the series starts then, and its start time is fixed), for a series paused by its
organiser (``series.paused``), or while an edition is open for registration. The step
runs under the tick's lock, re-reads the series under ``SELECT … FOR UPDATE`` and
records itself with a unique step key (``series S: edition N opens``), so even two
ticking processes open an edition once; a manual ``open_edition`` in between makes
the step not due.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from crosstable.core.series.calendar import CalendarKind
from crosstable.core.text import Message
from crosstable.service.frame import ChangeFrame
from crosstable.service.series.editions import editions_of, open_next, series_row
from crosstable.service.series.outbox import step_done
from crosstable.store.series_models import SeriesEditionRow, SeriesRow, SeriesStageRow

#: the actor of the history lines the clock writes
ACTOR = "tick"


def is_due(kind: str, state: str, stage_one_started: bool) -> bool:
    """The latest edition (in ``state``) lets the next one open by itself."""
    if kind == CalendarKind.REGULAR.value:
        return state == "finished"
    return state == "finished" or (state == "running" and stage_one_started)


def _candidates(session: Session) -> list[int]:
    """The series not paused whose latest edition lets the next one open (one query)."""
    latest = aliased(SeriesEditionRow)
    newest = (
        select(func.max(SeriesEditionRow.number))
        .where(SeriesEditionRow.series_id == SeriesRow.id)
        .correlate(SeriesRow)
        .scalar_subquery()
    )
    query = (
        select(SeriesRow.id, SeriesRow.kind, latest.state, SeriesStageRow.started_at)
        .select_from(SeriesRow)
        .join(latest, (latest.series_id == SeriesRow.id) & (latest.number == newest))
        .outerjoin(
            SeriesStageRow,
            (SeriesStageRow.edition_id == latest.id) & (SeriesStageRow.number == 1),
        )
        .where(SeriesRow.paused.is_(False), latest.state != "registration")
        .order_by(SeriesRow.id)
    )
    return [
        sid
        for sid, kind, state, started in session.execute(query)
        if is_due(kind, state, started is not None)
    ]


def _stage_one_started(session: Session, edition_id: int) -> bool:
    query = select(SeriesStageRow.started_at).where(
        SeriesStageRow.edition_id == edition_id, SeriesStageRow.number == 1
    )
    return session.scalars(query).first() is not None


def open_due_editions(frame: ChangeFrame) -> list[str]:
    """Open every next edition that is due; one line per edition opened."""
    with frame.store.reading() as session:
        due = _candidates(session)
    done: list[str] = []
    for series_id in due:
        now, at = frame.clock.now(), frame.now()
        with frame.store.transaction() as session:
            row = series_row(session, series_id, lock=True)
            editions = editions_of(session, series_id)
            if row.paused or not editions or any(e.state == "registration" for e in editions):
                continue  # changed since the read: not due any more
            latest = editions[-1]
            started = _stage_one_started(session, latest.id)
            if not is_due(row.kind, latest.state, started):
                continue
            step = f"series {series_id}: edition {latest.number + 1} opens"
            if step_done(session, step):  # pragma: no cover - the edition is then open
                continue
            edition = open_next(session, row, editions, now, at=at, actor=ACTOR, step=step)
            done.append(
                Message(
                    "series {series}: edition {number} opened by itself — starts {start}, "
                    "registration until {deadline}",
                    series=series_id,
                    number=edition.number,
                    start=edition.planned_start,
                    deadline=edition.deadline,
                )
            )
    return done
