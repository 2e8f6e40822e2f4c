"""Requests that an account confirm an entry as its own (revision 0024): an organiser
names the account, its owner confirms or refuses; one request an entry at a time."""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from crosstable.store.models import Base


class EntryLinkRequestRow(Base):
    __tablename__ = "entry_link_requests"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    #: who asked (the organiser's name as the history writes it)
    requested_by: Mapped[str] = mapped_column(String(200))
    requested_at: Mapped[str] = mapped_column(String(40))
