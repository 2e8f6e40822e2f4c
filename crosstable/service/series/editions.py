"""A series and its editions: create and show a series, open its next edition on the
calendar, register and withdraw.

Every use case is one transaction with one line of the series' history
(:func:`~crosstable.service.series.outbox.record`); the moments come from the
injected clock. The rules are the core's (:mod:`crosstable.core.series`).
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from crosstable.core import battle as battle_rules
from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.series.calendar import CalendarKind, SeriesCalendar
from crosstable.core.series.plan import SeriesFormat
from crosstable.core.series.registration import may_withdraw, stage_one_registration
from crosstable.core.series.sequence import next_edition_start, regular_start, with_weekend_day
from crosstable.core.text import Message
from crosstable.core.tiebreaks.picker import check_offered
from crosstable.core.tiebreaks.presets import preset
from crosstable.service.errors import NotFoundError
from crosstable.service.frame import ChangeFrame
from crosstable.service.players import check_tiebreaks, checked_rating
from crosstable.service.series.lines import record, summary_of
from crosstable.service.series.outbox import notify
from crosstable.service.series.shown import (
    EditionView,
    HistoryLine,
    SeriesSettings,
    SeriesView,
    edition_view,
    series_view,
)
from crosstable.store.accounts_models import UserRow
from crosstable.store.series_models import (
    SeriesEditionRow,
    SeriesEventRow,
    SeriesRegistrationRow,
    SeriesRow,
)

#: the longest lead of a registration deadline before the start: four weeks
MAX_DEADLINE_MINUTES = 4 * 7 * 24 * 60
MAX_NAME = 200


def calendar_of(row: SeriesRow) -> SeriesCalendar:
    """The core calendar of a stored series."""
    return SeriesCalendar(
        CalendarKind(row.kind), wall_time(row.start_time), ZoneInfo(row.zone), row.weekday, row.day
    )


def wall_time(text: str) -> dt.time | None:
    """A stored ``HH:MM`` start time (``""``: a regular series without a time of day)."""
    if not text:
        return None
    hours, minutes = (int(part) for part in text.split(":"))
    return dt.time(hours, minutes)


def format_of(row: SeriesRow) -> SeriesFormat:
    """The core format (stages, final, super-final) of a stored series."""
    return SeriesFormat(
        max_group_size=row.max_group_size,
        qualifiers_per_group=row.qualifiers_per_group,
        final_min=row.final_min,
        group_cycles=row.group_cycles,
        final_cycles=row.final_cycles,
        super_final_players=row.super_final_players,
        super_final_cycles=row.super_final_cycles,
    )


def moment(text: str) -> dt.datetime:
    """A stored ISO moment (UTC)."""
    return dt.datetime.fromisoformat(text)


def iso(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).isoformat(timespec="seconds")


def active_entries(session: Session, edition_id: int) -> list[SeriesRegistrationRow]:
    """The edition's registered players who have not withdrawn, in registration order."""
    query = (
        select(SeriesRegistrationRow)
        .where(
            SeriesRegistrationRow.edition_id == edition_id,
            SeriesRegistrationRow.withdrawn_at.is_(None),
        )
        .order_by(SeriesRegistrationRow.id)
    )
    return list(session.scalars(query))


def checked_settings(settings: SeriesSettings) -> tuple[str, SeriesCalendar]:
    """The series' name, tidied, and its calendar; every other value checked by the
    rules of a series (the format's bounds, the deadline's lead, the variant)."""
    name = " ".join(settings.name.split())
    if not name:
        raise RuleError("a series needs a name")
    if len(name) > MAX_NAME:
        raise RuleError("a series' name has at most {most} characters", most=MAX_NAME)
    try:
        kind = CalendarKind(settings.kind)
    except ValueError:
        raise RuleError(
            "unknown calendar kind {kind} (weekend, workdays, weekly, monthly, regular)",
            kind=repr(settings.kind),
        ) from None
    try:
        start = wall_time(settings.start_time.strip())
    except ValueError:
        raise RuleError(
            "start time {text}: HH:MM, e.g. 19:00", text=repr(settings.start_time)
        ) from None
    try:
        zone = ZoneInfo(settings.zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise RuleError(
            "unknown time zone {zone} (an IANA name such as Europe/Moscow)",
            zone=repr(settings.zone),
        ) from None
    calendar = SeriesCalendar(kind, start, zone, settings.weekday, settings.day)
    SeriesFormat(  # checks the format's bounds
        max_group_size=settings.max_group_size,
        qualifiers_per_group=settings.qualifiers_per_group,
        final_min=settings.final_min,
        group_cycles=settings.group_cycles,
        final_cycles=settings.final_cycles,
        super_final_players=settings.super_final_players,
        super_final_cycles=settings.super_final_cycles,
    )
    if not 0 <= settings.deadline_minutes <= MAX_DEADLINE_MINUTES:
        raise RuleError(
            "registration deadline: between 0 and {most} minutes before the start",
            most=MAX_DEADLINE_MINUTES,
        )
    battle_details(settings.variant, settings.setup_minutes)
    return name, calendar


def _flagged(session: Session, user_id: int) -> bool:
    user = session.get(UserRow, user_id)
    return bool(user is not None and user.flagged)


def battle_details(variant: str, setup_minutes: int | None) -> dict[str, str]:
    """The regulations' details a series' group tournaments get from its variant (checked
    by the battle-chess rules: a set-up time only with the variant, 1…120 minutes)."""
    details: dict[str, str] = {}
    if variant.strip():
        details[battle_rules.VARIANT] = variant.strip().lower()
    if setup_minutes is not None:
        details[battle_rules.SETUP_MINUTES] = str(setup_minutes)
    if not details:
        return {}
    checked = battle_rules.check_battle_details(details, System.ROUND_ROBIN, 0)
    checked.pop(battle_rules.SEED, None)  # each group draws its own (Battle.create_tournament)
    return checked


def group_details(row: SeriesRow) -> dict[str, str]:
    """The battle-chess details of a stored series' group tournaments ({} : classical)."""
    return battle_details(row.variant or "", row.setup_minutes)


class SeriesEditions:
    """Use cases of a series and its editions."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def create_series(self, settings: SeriesSettings, *, actor: str = "") -> int:
        """A new series (no edition yet: :meth:`open_edition`); its id."""
        name, _calendar = checked_settings(settings)
        # the portal's round robins rank by Sonneborn-Berger, then the average rating of
        # the opponents met (seeds 000, 002), unless the series names its own list
        tiebreaks = check_tiebreaks(settings.tiebreaks) or preset("portal")
        check_offered(System.ROUND_ROBIN, tiebreaks, fide=True)  # its groups' picker
        at = self.frame.now()
        with self.frame.store.transaction() as session:
            row = SeriesRow(
                name=name,
                kind=settings.kind,
                weekday=settings.weekday,
                day=settings.day,
                start_time=settings.start_time.strip(),
                zone=settings.zone,
                max_group_size=settings.max_group_size,
                qualifiers_per_group=settings.qualifiers_per_group,
                final_min=settings.final_min,
                group_cycles=settings.group_cycles,
                final_cycles=settings.final_cycles,
                super_final_players=settings.super_final_players,
                super_final_cycles=settings.super_final_cycles,
                tiebreaks=",".join(tiebreaks),
                time_control=settings.time_control,
                pre_registration=settings.pre_registration,
                deadline_minutes=settings.deadline_minutes,
                created_at=at,
                variant=battle_details(settings.variant, settings.setup_minutes).get(
                    battle_rules.VARIANT, ""
                ),
                setup_minutes=settings.setup_minutes,
                paused=settings.paused,
            )
            session.add(row)
            session.flush()
            said = Message("series {id} “{name}” created", id=row.id, name=name)
            record(session, row.id, None, "create", said, at=at)
            return row.id

    def series_info(self, series_id: int) -> SeriesView:
        """The series: its rules and its editions."""
        with self.frame.store.reading() as session:
            row = series_row(session, series_id)
            return series_view(session, row, editions_of(session, series_id))

    def open_edition(self, series_id: int, *, actor: str = "") -> int:
        """The series' next edition, at the calendar's next slot after now (or after the
        previous edition's start); registration open until the deadline. Its id.

        The first edition is opened so (the series starts); the later ones open by
        themselves in the tick (:mod:`~crosstable.service.series.next_edition`) unless
        the series is paused — by hand they may be opened whenever none is open for
        registration."""
        now = self.frame.clock.now()
        at = self.frame.now()
        with self.frame.store.transaction() as session:
            row = series_row(session, series_id, lock=True)
            editions = editions_of(session, series_id)
            if any(e.state == "registration" for e in editions):
                raise RuleError("the series has an edition open for registration already")
            return open_next(session, row, editions, now, at=at, actor=actor).id

    def register_for_edition(
        self,
        edition_id: int,
        name: str,
        *,
        rating: int | None = None,
        user_id: int | None = None,
        actor: str = "",
    ) -> int:
        """A player registers for stage 1; the registration's id."""
        player = " ".join(name.split())
        if not player:
            raise RuleError("a player needs a name")
        rating = checked_rating(rating)
        if len(player) > MAX_NAME:
            raise RuleError("a player's name has at most {most} characters", most=MAX_NAME)
        now = self.frame.clock.now()
        at = self.frame.now()
        with self.frame.store.transaction() as session:
            edition = edition_row(session, edition_id, lock=True)
            series = series_row(session, edition.series_id)
            if edition.state != "registration" or edition.closed_at is not None:
                raise RuleError(
                    "registration for edition {edition} is closed", edition=edition.number
                )
            if user_id is not None and _flagged(session, user_id):  # fair play, site-wide
                raise RuleError(
                    "fair play: an account flagged for computer help cannot take part in "
                    "tournaments"
                )
            active = (
                SeriesRegistrationRow.edition_id == edition_id,
                SeriesRegistrationRow.withdrawn_at.is_(None),
            )
            registered = session.scalar(select(func.count()).where(*active)) or 0
            state = stage_one_registration(
                now,
                moment(edition.deadline),
                registered,
                pre_registration=series.pre_registration,
                max_size=series.max_group_size,
                first_deadline=moment(edition.first_deadline),
            )
            if not state.is_open:
                raise RuleError(
                    "registration for edition {edition} is closed", edition=edition.number
                )
            # one index look-up of the folded name, however many players are registered
            folded = player.casefold()[:200]
            same = select(SeriesRegistrationRow.id).where(
                *active, SeriesRegistrationRow.folded_name == folded
            )
            if session.scalars(same.limit(1)).first() is not None:
                raise RuleError(
                    "{player} is registered for edition {edition} already",
                    player=player,
                    edition=edition.number,
                )
            entry = SeriesRegistrationRow(
                edition_id=edition_id,
                name=player,
                folded_name=folded,
                rating=rating,
                user_id=user_id,
                registered_at=at,
                withdrawn_at=None,
            )
            session.add(entry)
            session.flush()
            record(
                session,
                series.id,
                edition_id,
                "register",
                Message(
                    "{player} registered for edition {edition}",
                    player=player,
                    edition=edition.number,
                ),
                at=at,
                actor=actor,
                data={"registration": entry.id},
            )
            notify(
                session,
                entry,
                "registered",
                f"registered:{entry.id}",
                {"edition": edition.id, "series": series.name, "start": edition.planned_start},
                at=at,
            )
            return entry.id

    def withdraw_from_edition(self, edition_id: int, name: str, *, actor: str = "") -> None:
        """A player withdraws; only until stage 1 starts."""
        player = " ".join(name.split())
        now = self.frame.clock.now()
        at = self.frame.now()
        with self.frame.store.transaction() as session:
            edition = edition_row(session, edition_id, lock=True)
            if edition.state != "registration" or not may_withdraw(
                now, moment(edition.planned_start)
            ):
                raise RuleError(
                    (
                        "edition {edition} has started: a player may withdraw only before stage 1 "
                        "starts"
                    ),
                    edition=edition.number,
                )
            found = [
                e
                for e in active_entries(session, edition_id)
                if e.name.casefold() == player.casefold()
            ]
            if not found:
                raise NotFoundError(
                    "{player} is not registered for edition {edition}",
                    player=player,
                    edition=edition.number,
                )
            found[0].withdrawn_at = at
            record(
                session,
                edition.series_id,
                edition_id,
                "withdraw",
                Message(
                    "{player} withdrew from edition {edition}",
                    player=player,
                    edition=edition.number,
                ),
                at=at,
                actor=actor,
                data={"registration": found[0].id},
            )

    def series_history(self, series_id: int) -> list[HistoryLine]:
        """The series' history, oldest first: every use case and time-driven step."""
        with self.frame.store.reading() as session:
            series_row(session, series_id)
            query = (
                select(SeriesEventRow)
                .where(SeriesEventRow.series_id == series_id)
                .order_by(SeriesEventRow.id)
            )
            return [
                HistoryLine(
                    at=row.at,
                    actor=row.actor,
                    kind=row.kind,
                    edition=row.edition_id,
                    summary=summary_of(row),
                )
                for row in session.scalars(query)
            ]

    def edition_info(self, edition_id: int) -> EditionView:
        """An edition: its moments, state, stage and players."""
        with self.frame.store.reading() as session:
            return edition_view(session, edition_row(session, edition_id))


def open_next(
    session: Session,
    row: SeriesRow,
    editions: list[SeriesEditionRow],
    now: dt.datetime,
    *,
    at: str,
    actor: str = "",
    step: str | None = None,
) -> SeriesEditionRow:
    """Add the series' next edition (the caller checked that none is open for
    registration and holds the series' row locked) and its line of the history.

    A calendar series: the first edition slot after the latest edition's start (and
    after now) whose registration deadline is still ahead; a weekend series
    plays on one weekend day, stored when its first edition opens. A regular series
    ("the next starts as soon as the previous ends", docs/series.md):
    registration opens now — when the tick opens it, the moment the previous edition
    ended — and the start is a day later, or at the series' time of day when it has
    one (:func:`~crosstable.core.series.sequence.regular_start`)."""
    after = max([now, *(moment(e.planned_start) for e in editions)])
    lead = dt.timedelta(minutes=row.deadline_minutes)
    calendar = calendar_of(row)
    if calendar.kind is CalendarKind.REGULAR:
        start = regular_start(calendar, after, lead)  # the time of day, when set
    else:
        if calendar.kind is CalendarKind.WEEKEND and calendar.weekday is None and editions:
            # a series opened before its weekend day was stored: its first edition's day
            first = moment(editions[0].planned_start)
            if first.astimezone(calendar.zone).weekday() >= 5:
                calendar = with_weekend_day(calendar, first)
        # the first edition slot whose registration deadline is still ahead
        # (today's slot whose deadline has passed is no use to anyone registering)
        start = next_edition_start(calendar, max(after, now + lead))
        if calendar.kind is CalendarKind.WEEKEND and row.weekday is None:
            # seed 002: the next edition "correspondingly on the next Saturday (or
            # Sunday)" — the day is fixed when the series starts, like its start time
            row.weekday = with_weekend_day(calendar, start).weekday
    deadline = start - lead
    number = len(editions) + 1
    edition = SeriesEditionRow(
        series_id=row.id,
        number=number,
        planned_start=iso(start),
        deadline=iso(deadline),
        first_deadline=iso(deadline),
        state="registration",
        stage=0,
        postponed=0,
        extended=False,
        created_at=at,
    )
    session.add(edition)
    session.flush()
    record(
        session,
        row.id,
        edition.id,
        "edition",
        Message(
            "edition {number} opened: starts {start}, registration until {deadline}",
            number=number,
            start=start.isoformat(),
            deadline=deadline.astimezone(calendar.zone).isoformat(),
        ),
        at=at,
        actor=actor,
        step=step,
        data={"start": edition.planned_start, "deadline": edition.deadline},
    )
    return edition


def series_row(session: Session, series_id: int, *, lock: bool = False) -> SeriesRow:
    """The stored series (``lock``: ``SELECT … FOR UPDATE``); refused when there is none."""
    query = select(SeriesRow).where(SeriesRow.id == series_id)
    row = session.scalars(query.with_for_update() if lock else query).one_or_none()
    if row is None:
        raise NotFoundError("there is no series {series} in this database", series=series_id)
    return row


def edition_row(session: Session, edition_id: int, *, lock: bool = False) -> SeriesEditionRow:
    """The stored edition (``lock``: ``SELECT … FOR UPDATE``); refused when there is none."""
    query = select(SeriesEditionRow).where(SeriesEditionRow.id == edition_id)
    row = session.scalars(query.with_for_update() if lock else query).one_or_none()
    if row is None:
        raise NotFoundError(
            "there is no series edition {edition} in this database", edition=edition_id
        )
    return row


def editions_of(session: Session, series_id: int) -> list[SeriesEditionRow]:
    """The series' editions by number."""
    query = (
        select(SeriesEditionRow)
        .where(SeriesEditionRow.series_id == series_id)
        .order_by(SeriesEditionRow.number)
    )
    return list(session.scalars(query))
