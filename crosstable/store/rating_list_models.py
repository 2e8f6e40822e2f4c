"""The players of the imported rating lists (issue 16 item 1; revision 0015).

``rating_list_players`` holds one row per FIDE id (unique: a newer list replaces a
player's row), the name as the list writes it and case-folded (``folded``, indexed
for the look-up by name prefix), federation, sex, title, birth year, the standard,
rapid and blitz ratings, and the list the row came from (its file name and the
import date).
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
            "folded",
            postgresql_ops={"folded": "text_pattern_ops"},  # LIKE 'prefix%' uses it
        ),
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
