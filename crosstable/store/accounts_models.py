"""Tables for people and permissions: users, API tokens, who runs which tournament.

These rows are not part of a tournament's event log (a tournament's history
records *what happened in the tournament*; accounts are the site's business),
so they are plain tables next to the tournament store, in the same database
and migrated by the same Alembic chain (revision 0002).

* ``users`` — an account: a password hash (argon2), whether it is an
  administrator, a "master" (a winner of an over-the-board event of the portal,
  who may organise), and the facts eligibility rules look at (rated
  games, online tournaments played, flagged for computer assistance).
* ``api_tokens`` — tokens for apps and game servers (only a hash is stored).
* ``tournament_staff`` — the organisers and helpers of a tournament.
* ``tournament_access`` — per tournament: who created it, whether a master's
  regulations are approved, the registration window and the eligibility rules.
* ``entry_accounts`` — which entry (registration number) belongs to which user,
  so a player can report their own game.
* ``web_sessions`` — the web sessions (revision 0004): the signed
  cookie carries a random session id, the row (its SHA-256) says whose it is and
  whether it was revoked; signing out, a password change and an administrator's
  "sign out everywhere" revoke rows, so a copied cookie stops working.
* ``sign_in_counters`` — failed sign-ins (and sign-ups) per address and per account
  in fixed windows (revision 0004), shared by every process that
  serves the database; rows of past windows are deleted.
* ``api_token_grants`` and ``rate_counters`` (revision 0018): the
  tournaments a game server's token may post results for (``api_tokens.kind`` says
  which tokens are a game server's, with their own limit); requests per key and fixed
  window, shared by every process on a PostgreSQL database (past windows deleted).
* ``account_events`` — the site's record of what administrators did to an account
  (revision 0005): flagged for computer help or cleared (who,
  when, why, and the decision per running tournament), the eligibility counts
  adjusted, the master status granted or revoked. Administrators only see it.

Since revision 0005 ``users.rated_games`` and ``users.online_tournaments`` are the
administrator's *adjustments* (games and online tournaments played elsewhere); the
counts the eligibility rules read are what the site knows plus these
(:mod:`crosstable.service.eligibility`). ``users.is_master`` is a master status an
administrator granted; a winner of a finished over-the-board event is a master
without it (:mod:`crosstable.service.organisers`).
"""

from __future__ import annotations

from sqlalchemy import JSON, BigInteger, Boolean, ForeignKey, Integer, String, Text
from sqlalchemy import false as sa_false
from sqlalchemy.orm import Mapped, mapped_column

from crosstable.store.models import Base, JsonColumn


class UserRow(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(80), unique=True)
    display_name: Mapped[str] = mapped_column(String(200))
    password_hash: Mapped[str] = mapped_column(String(200))
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    is_master: Mapped[bool] = mapped_column(Boolean, default=False)
    #: the administrator's adjustments (played elsewhere), added to the site's counts
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
    #: "personal" (a user's own) or "game server" (an administrator's, revision 0018)
    kind: Mapped[str] = mapped_column(String(20), default="personal", server_default="personal")
    #: a game server's: results of every tournament, not only the granted ones
    every_tournament: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=sa_false()
    )
    #: results a minute this token may post (None: its kind's default)
    per_minute: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: what it may do (revision 0022): "account" (all its user may) or
    #: "results" (post results only; a game server's always)
    scopes: Mapped[str] = mapped_column(String(200), default="account", server_default="")


class ApiTokenGrantRow(Base):
    """A tournament whose results a game server's token may post (revision 0018)."""

    __tablename__ = "api_token_grants"

    token_id: Mapped[int] = mapped_column(ForeignKey("api_tokens.id"), primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id"), primary_key=True, index=True
    )


class RateCounterRow(Base):
    """Requests per key in fixed windows, shared by every process (revision 0018)."""

    __tablename__ = "rate_counters"

    #: "results:user:<id>", "results:token:<id>" … (at most 100 characters)
    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    #: the window's start, in seconds since 1970 (UTC)
    window_start: Mapped[int] = mapped_column(BigInteger, primary_key=True, index=True)
    hits: Mapped[int] = mapped_column(Integer, default=0)


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
    #: {"min_rated_games": 20, "min_online_tournaments": 1} ("refuse_flagged" of older
    #: documents is read and ignored: the fair-play ban is site-wide)
    eligibility: Mapped[JsonColumn] = mapped_column(JSON, default=dict)


class EntryAccountRow(Base):
    __tablename__ = "entry_accounts"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    #: indexed (revision 0005): an account's entries are looked up for its record
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)


class SessionRow(Base):
    __tablename__ = "web_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: SHA-256 of the session id that the signed cookie carries (the id is never stored)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    #: ISO date-times in UTC
    created_at: Mapped[str] = mapped_column(String(40))
    last_seen_at: Mapped[str] = mapped_column(String(40), index=True)
    #: None: the session is valid (until it is idle too long)
    revoked_at: Mapped[str | None] = mapped_column(String(40), nullable=True)


class SignInCounterRow(Base):
    __tablename__ = "sign_in_counters"

    #: "address:<ip>", "account:<sha-256 of the name>", "signup:<ip>" (at most 100 characters)
    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    #: the window's start, in seconds since 1970 (UTC)
    window_start: Mapped[int] = mapped_column(BigInteger, primary_key=True, index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)


class AccountEventRow(Base):
    __tablename__ = "account_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    #: ISO date-time (the service's clock)
    at: Mapped[str] = mapped_column(String(40))
    #: who did it (a user name)
    actor: Mapped[str] = mapped_column(String(200), default="")
    #: "flag", "unflag", "adjust", "master-grant", "master-revoke"
    kind: Mapped[str] = mapped_column(String(40))
    summary: Mapped[str] = mapped_column(Text, default="")
    #: the reason, the values before and after, the decision per tournament
    data: Mapped[JsonColumn] = mapped_column(JSON, default=dict)
