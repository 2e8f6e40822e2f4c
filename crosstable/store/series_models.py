"""Tables of a portal's series (revision 0007).

A series is a template and a calendar; its editions are run by the clock
(:mod:`crosstable.service.series`). The groups of every stage are ordinary round-robin
tournaments (``tournaments`` with their own event log); these tables say which
tournaments make which stage of which edition, and keep the series' own record.

* ``series`` — the template: the calendar (kind, weekday or day, local start time,
  IANA zone), the stages' format (largest group, qualifiers per group, cycles,
  final and super-final), tie-breaks, time control, pre-registration or not, and how
  long before a start registration closes.
* ``series_editions`` — one edition: its number, the planned start and the
  registration deadline (ISO UTC), the first deadline (the week's extension counts from
  it), its state (``registration`` → ``running`` → ``finished``), the stage now
  played, how often the start moved and when registration closed.
* ``series_registrations`` — a player of an edition's stage 1 (a name; an account
  when signed in), registered and withdrawn moments.
* ``series_stages`` / ``series_groups`` — the stages made so far and their groups:
  the tournament of each group (None until it is created) and its players
  (registration ids in entry order).
* ``series_events`` — the series' history: every time-driven step and every use
  case, one line; ``step`` is unique, so a step done once cannot be done again.
* ``series_outbox`` — notifications to send, written in the same
  transaction as their cause; ``dedupe_key`` is unique, ``sent_at`` and
  ``attempts`` belong to the sender.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from crosstable.store.models import Base, JsonColumn


class SeriesRow(Base):
    __tablename__ = "series"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    #: the core calendar's kind: weekend, workdays, weekly, monthly, regular
    kind: Mapped[str] = mapped_column(String(20))
    #: weekly: 0 = Monday … 6 = Sunday; monthly: the day of the month
    weekday: Mapped[int | None] = mapped_column(Integer, nullable=True)
    day: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: local start time "HH:MM" in ``zone`` (an IANA name)
    start_time: Mapped[str] = mapped_column(String(5))
    zone: Mapped[str] = mapped_column(String(64))
    max_group_size: Mapped[int] = mapped_column(Integer, default=10)
    qualifiers_per_group: Mapped[int] = mapped_column(Integer, default=2)
    final_min: Mapped[int] = mapped_column(Integer, default=6)
    group_cycles: Mapped[int] = mapped_column(Integer, default=1)
    final_cycles: Mapped[int] = mapped_column(Integer, default=1)
    #: 0: no super-final
    super_final_players: Mapped[int] = mapped_column(Integer, default=4)
    super_final_cycles: Mapped[int] = mapped_column(Integer, default=2)
    #: FIDE tie-break codes, comma-separated ("" : the round robin's default)
    tiebreaks: Mapped[str] = mapped_column(String(400), default="")
    time_control: Mapped[str] = mapped_column(String(100), default="")
    #: True: editions with pre-registration (never extended)
    pre_registration: Mapped[bool] = mapped_column(Boolean, default=False)
    #: registration closes this many minutes before the planned start
    deadline_minutes: Mapped[int] = mapped_column(Integer, default=60)
    created_at: Mapped[str] = mapped_column(String(40))
    #: "" (classical) or "battle": every group tournament is battle chess (migration 0013)
    variant: Mapped[str] = mapped_column(String(20), default="", server_default="")
    #: battle chess: the set-up time in minutes (None: not set)
    setup_minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: paused by its organiser: the tick opens no edition by itself (migration 0019)
    paused: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class SeriesEditionRow(Base):
    __tablename__ = "series_editions"
    __table_args__ = (UniqueConstraint("series_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    series_id: Mapped[int] = mapped_column(ForeignKey("series.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    #: ISO date-times in UTC
    planned_start: Mapped[str] = mapped_column(String(40))
    deadline: Mapped[str] = mapped_column(String(40))
    first_deadline: Mapped[str] = mapped_column(String(40))
    #: registration → running → finished
    state: Mapped[str] = mapped_column(String(20), default="registration", index=True)
    #: the stage being played (0 before stage 1)
    stage: Mapped[int] = mapped_column(Integer, default=0)
    postponed: Mapped[int] = mapped_column(Integer, default=0)
    #: the week's extension was recorded / registration closed (ISO UTC)
    extended: Mapped[bool] = mapped_column(Boolean, default=False)
    closed_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    finished_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    created_at: Mapped[str] = mapped_column(String(40))


class SeriesRegistrationRow(Base):
    __tablename__ = "series_registrations"
    __table_args__ = (Index("ix_series_registrations_folded_name", "edition_id", "folded_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    edition_id: Mapped[int] = mapped_column(ForeignKey("series_editions.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    #: the name case-folded (the same-name check, one index look-up; migration 0010)
    folded_name: Mapped[str] = mapped_column(String(200), default="", server_default="")
    rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    registered_at: Mapped[str] = mapped_column(String(40))
    withdrawn_at: Mapped[str | None] = mapped_column(String(40), nullable=True)


class SeriesStageRow(Base):
    __tablename__ = "series_stages"
    __table_args__ = (UniqueConstraint("edition_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    edition_id: Mapped[int] = mapped_column(ForeignKey("series_editions.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    #: groups, final, super-final (the core's StageKind)
    kind: Mapped[str] = mapped_column(String(20))
    cycles: Mapped[int] = mapped_column(Integer, default=1)
    #: how many of each group go on (0: the last stage)
    qualifiers_per_group: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[str] = mapped_column(String(40))
    #: every group's tournament created and started (ISO UTC)
    started_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    finished_at: Mapped[str | None] = mapped_column(String(40), nullable=True)


class SeriesGroupRow(Base):
    __tablename__ = "series_groups"
    __table_args__ = (UniqueConstraint("stage_id", "letter"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    stage_id: Mapped[int] = mapped_column(ForeignKey("series_stages.id"), index=True)
    #: 0 = group A
    letter: Mapped[int] = mapped_column(Integer)
    #: registration ids, strongest seed first (the entry numbers 1…n in this order)
    players: Mapped[list[int]] = mapped_column(JSON)
    tournament_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournaments.id"), nullable=True, unique=True
    )


class SeriesEventRow(Base):
    __tablename__ = "series_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    series_id: Mapped[int] = mapped_column(ForeignKey("series.id"), index=True)
    edition_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    at: Mapped[str] = mapped_column(String(40))
    actor: Mapped[str] = mapped_column(String(200), default="")
    #: create, edition, register, withdraw, extended, postponed, closed, stage-start,
    #: stage-end, finished
    kind: Mapped[str] = mapped_column(String(40))
    summary: Mapped[str] = mapped_column(Text, default="")
    data: Mapped[JsonColumn] = mapped_column(JSON, default=dict)
    #: a time-driven step's key ("edition 3: stage 1 starts"): done once only
    step: Mapped[str | None] = mapped_column(String(200), nullable=True, unique=True)


class SeriesOutboxRow(Base):
    __tablename__ = "series_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: whom to tell: an e-mail address when known, else the player's name
    recipient: Mapped[str] = mapped_column(String(320))
    #: registered, start-moved, stage-starts, qualified, eliminated
    kind: Mapped[str] = mapped_column(String(40))
    payload: Mapped[JsonColumn] = mapped_column(JSON, default=dict)
    created_at: Mapped[str] = mapped_column(String(40))
    sent_at: Mapped[str | None] = mapped_column(String(40), nullable=True, index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    dedupe_key: Mapped[str] = mapped_column(String(200), unique=True)
    #: the sender's (migration 0009): not before this moment; the last failure; given
    #: up after the last allowed attempt; no e-mail address (in-site only); read
    next_try_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    last_error: Mapped[str] = mapped_column(Text, default="")
    gave_up_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    mail_skipped: Mapped[bool] = mapped_column(Boolean, default=False)
    read_at: Mapped[str | None] = mapped_column(String(40), nullable=True)


class NotificationPrefsRow(Base):
    """Where and what a user is told (migration 0009): the e-mail address the sender
    mails to, and the kinds of notification the user does not want by mail."""

    __tablename__ = "notification_prefs"

    user_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(320), default="")
    #: kinds not mailed (registered, start-moved, stage-starts, qualified, eliminated, news)
    muted: Mapped[list[str]] = mapped_column(JSON, default=list)


class SeriesNewsRow(Base):
    """The news item published after a stage (migration 0011): one per stage.

    ``data`` holds what the page and the feed show: each group's tournament, winner and
    places 1–3, who went on, the next stage or the edition's end."""

    __tablename__ = "series_news"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    series_id: Mapped[int] = mapped_column(ForeignKey("series.id"), index=True)
    edition_id: Mapped[int] = mapped_column(ForeignKey("series_editions.id"))
    stage_id: Mapped[int] = mapped_column(ForeignKey("series_stages.id"), unique=True)
    published_at: Mapped[str] = mapped_column(String(40))
    title: Mapped[str] = mapped_column(String(400))
    data: Mapped[JsonColumn] = mapped_column(JSON, default=dict)


class SeriesAwardRow(Base):
    """A place 1–3 of a group, the final or the super-final (migration 0011):
    the player's badge and certificate. One per player and group."""

    __tablename__ = "series_awards"
    __table_args__ = (UniqueConstraint("group_id", "registration_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    series_id: Mapped[int] = mapped_column(ForeignKey("series.id"), index=True)
    edition_id: Mapped[int] = mapped_column(ForeignKey("series_editions.id"))
    stage_id: Mapped[int] = mapped_column(ForeignKey("series_stages.id"), index=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("series_groups.id"))
    registration_id: Mapped[int] = mapped_column(ForeignKey("series_registrations.id"))
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    name: Mapped[str] = mapped_column(String(200))
    #: the name case-folded: a player's badges found by name
    folded_name: Mapped[str] = mapped_column(String(200), index=True)
    #: 1, 2 or 3
    place: Mapped[int] = mapped_column(Integer)
    #: the stage's number and kind (groups, final, super-final) and the group's letter
    stage_number: Mapped[int] = mapped_column(Integer)
    stage_kind: Mapped[str] = mapped_column(String(20))
    group_letter: Mapped[str] = mapped_column(String(8))
    tournament_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the points scored in the group ("6.5": exact, as text)
    points: Mapped[str] = mapped_column(String(20))
    awarded_at: Mapped[str] = mapped_column(String(40))


class SeriesResultRow(Base):
    """A player's result in one group of a finished stage (migration 0011): the place,
    the points, the wins and the games played over the board — what the season's
    standings add up (:mod:`crosstable.service.series.season`)."""

    __tablename__ = "series_results"
    __table_args__ = (UniqueConstraint("group_id", "registration_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    series_id: Mapped[int] = mapped_column(ForeignKey("series.id"), index=True)
    edition_id: Mapped[int] = mapped_column(ForeignKey("series_editions.id"), index=True)
    stage_id: Mapped[int] = mapped_column(ForeignKey("series_stages.id"))
    group_id: Mapped[int] = mapped_column(ForeignKey("series_groups.id"))
    registration_id: Mapped[int] = mapped_column(ForeignKey("series_registrations.id"))
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(200))
    folded_name: Mapped[str] = mapped_column(String(200))
    stage_number: Mapped[int] = mapped_column(Integer)
    stage_kind: Mapped[str] = mapped_column(String(20))
    #: the place in the group's final standings (None: taken out by the withdrawal rule)
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: exact points as text ("6.5")
    points: Mapped[str] = mapped_column(String(20))
    wins: Mapped[int] = mapped_column(Integer)
    played: Mapped[int] = mapped_column(Integer)


class SeriesPetitionRow(Base):
    """Players of one class or level asking the administrators for their own
    tournament (migration 0012): at least 11 of them. ``state`` is
    ``pending`` → ``accepted`` (``tournament_id``: the round robin made for them) or
    ``refused`` (``reason``)."""

    __tablename__ = "series_petitions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    series_id: Mapped[int] = mapped_column(ForeignKey("series.id"), index=True)
    #: the class or level, as the petitioners name it ("class 3", "1400-1599")
    level: Mapped[str] = mapped_column(String(100))
    #: [{"name": …, "user": account id or None}, …] in the order given
    players: Mapped[list[JsonColumn]] = mapped_column(JSON)
    requested_by: Mapped[str] = mapped_column(String(200), default="")
    requested_at: Mapped[str] = mapped_column(String(40))
    state: Mapped[str] = mapped_column(String(20), default="pending")
    reason: Mapped[str] = mapped_column(Text, default="")
    decided_by: Mapped[str] = mapped_column(String(200), default="")
    decided_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    tournament_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
