"""Tables for people and permissions (issue 5): users, API tokens, who runs which tournament.

These rows are not part of a tournament's event log (a tournament's history
records *what happened in the tournament*; accounts are the site's business),
so they are plain tables next to the tournament store, in the same database
and migrated by the same Alembic chain (revision 0002).

* ``users`` — an account: a password hash (argon2), whether it is an
  administrator, a "master" (a winner of an over-the-board event of the portal,
  who may organise; R-OR-1), and the facts eligibility rules look at (rated
  games, online tournaments played, flagged for computer assistance; R-OR-2,
  R-SE-8).
* ``api_tokens`` — tokens for apps and game servers (only a hash is stored).
* ``tournament_staff`` — the organisers and helpers of a tournament.
* ``tournament_access`` — per tournament: who created it, whether a master's
  regulations are approved, the registration window and the eligibility rules.
* ``entry_accounts`` — which entry (registration number) belongs to which user,
  so a player can report their own game.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from crosstable.store.models import Base


class UserRow(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(80), unique=True)
    display_name: Mapped[str] = mapped_column(String(200))
    password_hash: Mapped[str] = mapped_column(String(200))
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    is_master: Mapped[bool] = mapped_column(Boolean, default=False)
    rated_games: Mapped[int] = mapped_column(Integer, default=0)
    online_tournaments: Mapped[int] = mapped_column(Integer, default=0)
    flagged: Mapped[bool] = mapped_column(Boolean, default=False)
    rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[str] = mapped_column(String(40))


class ApiTokenRow(Base):
    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    #: SHA-256 of the token (the token itself is shown once, never stored)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[str] = mapped_column(String(40))


class StaffRow(Base):
    __tablename__ = "tournament_staff"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    #: "organiser" or "helper"
    role: Mapped[str] = mapped_column(String(20))


class AccessRow(Base):
    __tablename__ = "tournament_access"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    #: "approved" (an administrator's tournament, or approved), "pending" (a master's,
    #: waiting for an administrator), "rejected"
    approval: Mapped[str] = mapped_column(String(20), default="approved")
    #: players may register themselves
    self_registration: Mapped[bool] = mapped_column(Boolean, default=False)
    #: ISO date-times; None: no limit on that side
    opens_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    closes_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    #: {"min_rated_games": 20, "min_online_tournaments": 1, "refuse_flagged": true}
    eligibility: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class EntryAccountRow(Base):
    __tablename__ = "entry_accounts"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
