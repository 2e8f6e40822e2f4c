"""The tables of the tournament store (SQLAlchemy 2 declarative models).

One row per tournament (its regulations and status), per entry (a player with a
starting number once lots are drawn), per round, per game, per bye, and an
append-only event log per tournament that *is* the history: every change made
through :mod:`crosstable.service` is one event with the rows it touched, before
and after, so any change can be undone and nothing is ever lost.

Plain column types only (integers, strings, JSON): dates are ISO-8601 strings,
points are exact fractions written as text (``"1/2"``), results are the two TRF
result codes of White and Black (``"10"``, ``"=="``, ``"+-"``). That keeps a row's
snapshot in the event log plain JSON, and the schema identical on SQLite and
PostgreSQL.
"""

from __future__ import annotations

from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from crosstable.core.row_changes import ColumnValue, Scalar, StoredChange

#: a JSON column's object as the database driver reads it back (a tournament's point
#: system and regulations' details, an event's data, a series' or an account's stored
#: JSON): its fields are the readers' to know and check, so its values are ``Any`` —
#: the one name for a stored JSON object (the typed reads are the services', e.g.
#: ``core/regulations.RegulationDetails``, ``core/row_changes.read_changes``)
JsonColumn = dict[str, Any]

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)

    #: columns left out of the event log's row snapshots
    untracked: ClassVar[tuple[str, ...]] = ("id", "tournament_id", "version", "revision")
    #: the columns that name a row within its tournament (besides ``tournament_id``)
    key_columns: ClassVar[tuple[str, ...]] = ()

    def snapshot(self) -> dict[str, ColumnValue]:
        """The row's tracked values (key columns included) as plain JSON values: a row
        change's ``Snapshot`` (core/row_changes.py), a new dict the caller may extend."""
        return {
            c.key: getattr(self, c.key)
            for c in self.__table__.columns
            if c.key not in self.untracked
        }

    def row_key(self) -> dict[str, Scalar]:
        """The row's key within its tournament (a row change's ``RowKey``)."""
        return {name: getattr(self, name) for name in self.key_columns}


class TournamentRow(Base):
    """A tournament (one section): its regulations, its status and its lots."""

    __tablename__ = "tournaments"
    #: (a series' tick finds a group's round robin by its title: migration 0020)
    __table_args__ = (Index("ix_tournaments_name", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    #: registration → running → finished
    status: Mapped[str] = mapped_column(String(20), default="registration")
    system: Mapped[str] = mapped_column(String(20))
    cycles: Mapped[int] = mapped_column(Integer, default=1)
    #: the point system as JSON: {"win": "1", "draw": "1/2", "loss": "0", ...}
    point_system: Mapped[JsonColumn] = mapped_column(JSON)
    #: points for the free round of an odd round robin (None: the system's default)
    bye_points: Mapped[str | None] = mapped_column(String(20), nullable=True)
    #: FIDE tie-break codes, comma-separated, in order
    tiebreaks: Mapped[str] = mapped_column(String(400), default="")
    withdrawal_rule: Mapped[str] = mapped_column(String(20))
    rules_edition: Mapped[str] = mapped_column(String(8))
    swap_last_rounds: Mapped[bool] = mapped_column(Boolean, default=True)
    rounds_planned: Mapped[int | None] = mapped_column(Integer, nullable=True)
    time_control: Mapped[str] = mapped_column(String(100), default="")
    start_date: Mapped[str | None] = mapped_column(String(10), nullable=True)
    end_date: Mapped[str | None] = mapped_column(String(10), nullable=True)
    #: everything else the regulations say (venue, organiser, chief arbiter…)
    regulations: Mapped[JsonColumn] = mapped_column(JSON, default=dict)
    draw_method: Mapped[str | None] = mapped_column(String(10), nullable=True)
    draw_seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[str] = mapped_column(String(40))
    #: sequence number of the last event: the tournament's state version
    revision: Mapped[int] = mapped_column(Integer, default=0)


class EntryRow(Base):
    """A player registered in a tournament (a guest: no account needed).

    ``number`` is the registration number within the tournament (1, 2, 3… in
    the order players were added); ``start`` is the starting number, once lots
    are drawn. Every other table refers to a player by ``number``, so the event
    log's row keys never depend on the database's own identifiers.
    """

    __tablename__ = "entries"
    key_columns = ("number",)

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    #: (unique within the tournament: the service checks it, as a draw swaps numbers)
    start: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(200))
    rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    title: Mapped[str] = mapped_column(String(10), default="")
    federation: Mapped[str] = mapped_column(String(10), default="")
    fide_id: Mapped[str] = mapped_column(String(20), default="")
    birth_date: Mapped[str] = mapped_column(String(10), default="")
    sex: Mapped[str] = mapped_column(String(1), default="")
    #: the player's club ("" when not given; migration 0008; not in TRF)
    club: Mapped[str] = mapped_column(String(100), default="", server_default="")
    #: the first round the player no longer plays (None: not withdrawn)
    withdrawn_from: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the final place, fixed when the tournament finishes
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the player's team in a Scheveningen (None in other systems)
    team: Mapped[str | None] = mapped_column(String(100), nullable=True)
    #: the national rating and one typed by hand, beside the FIDE rating (``rating``): the
    #: regulations' rating method chooses which the tournament ranks by (migration 0026)
    national_rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    manual_rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: whether the player may take half-point byes (False: free entry, special conditions)
    half_byes: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    #: the rating list and the id in it the player was registered from ("RUS:12345",
    #: "fide-standard:1503014"; "" when typed by hand; migration 0027)
    rating_source: Mapped[str] = mapped_column(String(80), default="", server_default="")


class RoundRow(Base):
    __tablename__ = "rounds"
    key_columns = ("number",)

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    cycle: Mapped[int] = mapped_column(Integer, default=1)
    date: Mapped[str | None] = mapped_column(String(10), nullable=True)
    #: battle chess: the computer has drawn the colours of this round's games
    #: (migration 0005; None or False: not drawn — always so in other tournaments)
    colours_drawn: Mapped[bool | None] = mapped_column(Boolean, nullable=True)


class GameRow(Base):
    """White against Black at one board of one round; ``result`` None until known.

    ``white`` and ``black`` are entry (registration) numbers.
    """

    __tablename__ = "games"
    __table_args__ = (
        ForeignKeyConstraint(["tournament_id", "round"], ["rounds.tournament_id", "rounds.number"]),
        ForeignKeyConstraint(
            ["tournament_id", "white"], ["entries.tournament_id", "entries.number"]
        ),
        ForeignKeyConstraint(
            ["tournament_id", "black"],
            ["entries.tournament_id", "entries.number"],
            name="fk_games_tournament_id_entries_black",
        ),
    )
    key_columns = ("round", "board")

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    board: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    white: Mapped[int] = mapped_column(Integer)
    black: Mapped[int] = mapped_column(Integer)
    #: TRF codes of White and Black, e.g. "10", "==", "01", "+-", "-+", "--"
    result: Mapped[str | None] = mapped_column(String(2), nullable=True)
    reason: Mapped[str] = mapped_column(String(20), default="normal")
    #: what each player reported, before the result is confirmed
    white_report: Mapped[str | None] = mapped_column(String(2), nullable=True)
    black_report: Mapped[str | None] = mapped_column(String(2), nullable=True)
    #: optimistic version: +1 at every change of the row
    version: Mapped[int] = mapped_column(Integer, default=1)
    #: knockout only: the bracket slot of the match and the game's number in it
    match: Mapped[int | None] = mapped_column(Integer, nullable=True)
    match_game: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the game's PGN (migration 0016; None: no moves given); loaded only when read
    moves: Mapped[str | None] = mapped_column(Text, nullable=True, deferred=True)


class ByeRow(Base):
    """A round without an opponent (the free round of an odd round robin, a bye)."""

    __tablename__ = "byes"
    __table_args__ = (
        ForeignKeyConstraint(["tournament_id", "round"], ["rounds.tournament_id", "rounds.number"]),
        ForeignKeyConstraint(
            ["tournament_id", "player"], ["entries.tournament_id", "entries.number"]
        ),
    )
    key_columns = ("round", "player")

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    #: the entry (registration) number
    player: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(10))


class CheckinRow(Base):
    """A player who confirmed in the hall that they are present for a round
    (:mod:`crosstable.service.checkin`); no row: not checked in (yet)."""

    __tablename__ = "checkins"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tournament_id", "player"], ["entries.tournament_id", "entries.number"]
        ),
    )
    key_columns = ("round", "player")

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    #: the round checked in for (a Swiss's next round may not exist yet: no foreign key)
    round: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    #: the entry (registration) number
    player: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    #: when (the service's clock, ISO 8601)
    at: Mapped[str] = mapped_column(String(40))


class EventRow(Base):
    """One change of a tournament: who, when, what, and the rows before and after.

    Append-only (database triggers refuse UPDATE and DELETE). ``changes`` is a
    list of ``{"table", "key", "before", "after"}``, each a row change as stored
    (core/row_changes.py's ``StoredChange``, read with ``read_changes``; ``before``
    None: inserted; ``after`` None: deleted); undoing an event applies them backwards.
    """

    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint("tournament_id", "seq"),
        Index("uq_events_idempotency", "tournament_id", "idempotency_key", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    #: 1, 2, 3… within the tournament
    seq: Mapped[int] = mapped_column(Integer)
    at: Mapped[str] = mapped_column(String(40))
    actor: Mapped[str] = mapped_column(String(200), default="")
    kind: Mapped[str] = mapped_column(String(40))
    summary: Mapped[str] = mapped_column(Text, default="")
    changes: Mapped[list[StoredChange]] = mapped_column(JSON)
    #: the request as made (for idempotent retries) and kind-specific details
    data: Mapped[JsonColumn] = mapped_column(JSON, default=dict)
    idempotency_key: Mapped[str | None] = mapped_column(String(200), nullable=True)


class LiveStandingsRow(Base):
    """The live (provisional) standings after the latest change, for readers."""

    __tablename__ = "live_standings"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    revision: Mapped[int] = mapped_column(Integer)
    body: Mapped[JsonColumn] = mapped_column(JSON)


class PreferenceRow(Base):
    """Small per-database settings, e.g. the command line's current tournament."""

    __tablename__ = "preferences"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


#: table name → model, for applying the event log's row changes
MODELS: dict[str, type[Base]] = {
    model.__tablename__: model
    for model in (TournamentRow, EntryRow, RoundRow, GameRow, ByeRow, CheckinRow)
}
