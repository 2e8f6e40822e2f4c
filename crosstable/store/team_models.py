"""Team competitions' rows (revision 0025): the teams of a tournament, their members in
board order, and each round's line-ups.

A team's members are entries of the tournament (``entry`` is the entry's registration
number); ``position`` is the member's place in the team's board order (1 first). A
player is in at most one team (the primary key says so). A line-up row names who plays
on one board of a team's match in a round. The rows go through the history like every
tournament row (their tables are added to :data:`crosstable.store.models.MODELS`).
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, ForeignKeyConstraint, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from crosstable.store.models import MODELS, Base


class TeamRow(Base):
    """A team: ``number`` in the order teams were added, ``start`` its drawn number."""

    __tablename__ = "teams"
    key_columns = ("number",)

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    start: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(200))
    #: the captain's entry number (None: none named)
    captain: Mapped[int | None] = mapped_column(Integer, nullable=True)


class TeamMemberRow(Base):
    """A player of a team, at ``position`` in its board order."""

    __tablename__ = "team_members"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tournament_id", "entry"], ["entries.tournament_id", "entries.number"]
        ),
    )
    key_columns = ("entry",)

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    entry: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    team: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)


class LineupRow(Base):
    """Who plays on ``board`` of team ``team``'s match in ``round``."""

    __tablename__ = "lineups"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tournament_id", "entry"], ["entries.tournament_id", "entries.number"]
        ),
    )
    key_columns = ("round", "team", "board")

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    team: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    board: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    entry: Mapped[int] = mapped_column(Integer)


for _model in (TeamRow, TeamMemberRow, LineupRow):
    MODELS[_model.__tablename__] = _model

__all__ = ["LineupRow", "TeamMemberRow", "TeamRow"]
