"""The players of the imported rating lists (revisions 0015 and 0023).

``rating_list_players`` holds one row per FIDE id and *generation*, the name as the
list writes it and case-folded (``folded``, indexed with the generation for the
look-up by name prefix), federation, sex, title, birth year, the standard, rapid and
blitz ratings, and the list the row came from (its file name and the import date).

A generation is one complete state of the lists. An import writes a
new generation in short batches while readers go on reading the current one, then
makes it current in one small transaction (``rating_list_imports``: at most one row
is ``current``; none means generation 0, the rows from before generations). So a new
list becomes visible only when complete, and no write waits for the import for longer
than one batch. The old generation's rows, and those of an import that failed, are
deleted afterwards, also in batches.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from crosstable.store.models import Base


class RatingListPlayerRow(Base):
    __tablename__ = "rating_list_players"
    __table_args__ = (
        Index(
            "ix_rating_list_players_folded",
            "generation",
            "folded",
            postgresql_ops={"folded": "text_pattern_ops"},  # LIKE 'prefix%' uses it
        ),
    )

    #: the import that wrote the row (rating_list_imports.id; 0: before generations)
    generation: Mapped[int] = mapped_column(
        Integer, primary_key=True, autoincrement=False, default=0, server_default="0"
    )
    fide_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String(200))
    folded: Mapped[str] = mapped_column(String(200))
    federation: Mapped[str] = mapped_column(String(3), default="")
    #: "m", "w" or ""
    sex: Mapped[str] = mapped_column(String(1), default="")
    title: Mapped[str] = mapped_column(String(3), default="")
    birth_year: Mapped[int | None] = mapped_column(Integer, nullable=True)
    standard: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rapid: Mapped[int | None] = mapped_column(Integer, nullable=True)
    blitz: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the list's file name, e.g. players_list.zip
    list_name: Mapped[str] = mapped_column(String(200), default="")
    #: the day it was imported (ISO date)
    list_date: Mapped[str] = mapped_column(String(10), default="")


class RatingListImportRow(Base):
    """One import of a list: ``importing`` while its rows are written, then ``current``
    (the generation readers see) or ``old``/``failed`` until its rows are deleted."""

    __tablename__ = "rating_list_imports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: the list's file name
    name: Mapped[str] = mapped_column(String(200), default="")
    #: importing, current, old or failed
    state: Mapped[str] = mapped_column(String(10), default="importing")
    #: when the import started, and last wrote a batch (ISO, UTC): an "importing" row
    #: not heard of for an hour belongs to a process that died
    started: Mapped[str] = mapped_column(String(32), default="")
    heartbeat: Mapped[str] = mapped_column(String(32), default="")
    #: players in the generation once complete
    players: Mapped[int] = mapped_column(Integer, default=0)
