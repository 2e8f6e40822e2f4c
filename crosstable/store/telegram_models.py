"""Telegram (revision 0014): accounts linked with Telegram and the
outbox's Telegram deliveries.

* ``telegram_links`` — an account linked with one Telegram user (the login widget's
  ``id``, checked by its signature); one Telegram user links one account.
* ``telegram_deliveries`` — one per outbox row sent (or being sent) to Telegram: the
  chat, attempts, the next try, the last error, sent or given up. Its key is the
  outbox row, so a notification is sent to Telegram at most once whatever runs the
  sender.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from crosstable.store.models import Base


class TelegramLinkRow(Base):
    __tablename__ = "telegram_links"

    user_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    telegram_id: Mapped[int] = mapped_column(BigInteger, unique=True)
    username: Mapped[str] = mapped_column(String(64), default="")
    name: Mapped[str] = mapped_column(String(200), default="")
    linked_at: Mapped[str] = mapped_column(String(40))


class TelegramDeliveryRow(Base):
    __tablename__ = "telegram_deliveries"

    outbox_id: Mapped[int] = mapped_column(ForeignKey("series_outbox.id"), primary_key=True)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_try_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    last_error: Mapped[str] = mapped_column(Text, default="")
    sent_at: Mapped[str | None] = mapped_column(String(40), nullable=True, index=True)
    gave_up_at: Mapped[str | None] = mapped_column(String(40), nullable=True)


class UsedSignatureRow(Base):
    """A signed sign-in payload already accepted (revision 0021): the SHA-256 of the
    payload, what it was (``telegram-login``) and when; kept until it could no longer be
    fresh, so each payload is accepted once, by every process on the database."""

    __tablename__ = "used_signatures"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    used_at: Mapped[str] = mapped_column(String(40), index=True)
