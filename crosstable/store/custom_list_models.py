"""Custom rating lists (a national federation's, a club's): revision 0027.

``custom_lists`` holds one row per import of a list: its name (the user's, e.g.
``RUS``), the file it came from, the month it is valid for, the import date, its
players, and its state: ``importing`` while its players are written, ``current`` once
complete (at most one current row per name: a newer import of the same name replaces
it), ``old`` until its players are deleted. ``custom_list_players`` holds the players,
keyed by the list row and the list's own id (a national id, a club number), with the
name as written and case-folded (indexed for the look-up by name prefix), federation,
sex, title, birth year, the three ratings and the FIDE id when the list gives one.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from crosstable.store.models import Base


class CustomListRow(Base):
    __tablename__ = "custom_lists"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: the list's name as the user gives it (RUS, club-2026)
    name: Mapped[str] = mapped_column(String(40))
    #: importing, current or old
    state: Mapped[str] = mapped_column(String(10), default="importing")
    #: the file it was imported from
    file: Mapped[str] = mapped_column(String(200), default="")
    #: the month it is valid for (YYYY-MM) and the day it was imported (ISO)
    month: Mapped[str] = mapped_column(String(7), default="")
    imported: Mapped[str] = mapped_column(String(10), default="")
    players: Mapped[int] = mapped_column(Integer, default=0)


class CustomListPlayerRow(Base):
    __tablename__ = "custom_list_players"
    __table_args__ = (
        Index(
            "ix_custom_list_players_folded",
            "list",
            "folded",
            postgresql_ops={"folded": "text_pattern_ops"},
        ),
        Index("ix_custom_list_players_fide_id", "list", "fide_id"),
    )

    #: custom_lists.id
    list: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    #: the list's own id of the player
    player_id: Mapped[str] = mapped_column(String(20), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    folded: Mapped[str] = mapped_column(String(200))
    federation: Mapped[str] = mapped_column(String(3), default="")
    sex: Mapped[str] = mapped_column(String(1), default="")
    title: Mapped[str] = mapped_column(String(3), default="")
    birth_year: Mapped[int | None] = mapped_column(Integer, nullable=True)
    standard: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rapid: Mapped[int | None] = mapped_column(Integer, nullable=True)
    blitz: Mapped[int | None] = mapped_column(Integer, nullable=True)
    fide_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
