"""The history lines of the registration's changes, as messages with their values.

Each summary is a :class:`~crosstable.core.text.Message` (its value the English
text the history always showed), so the history page, the history API and the
flash after a form show it in the reader's language (the
templates' translations are in ``errors.po``, see :mod:`crosstable.web.messages`).
"""

from __future__ import annotations

from collections.abc import Iterable

from crosstable.core.model import LotsMethod, Settings
from crosstable.core.scoring import format_points
from crosstable.core.text import Message

#: what a player's edit adds when the rating order moved: the draw is cleared, or it stays
CLEARED, KEPT = "cleared", "kept"


def registered(number: int, name: str, *, cleared: bool = False) -> Message:
    """``player 3 Anna registered`` (and the draw cleared by it)."""
    said = Message("player {number} {name} registered", number=number, name=name)
    return _cleared(said) if cleared else said


def removed(number: int, name: str, *, cleared: bool = False) -> Message:
    """``player 3 Anna removed`` (and the draw cleared by it)."""
    said = Message("player {number} {name} removed", number=number, name=name)
    return _cleared(said) if cleared else said


def _cleared(summary: Message) -> Message:
    return Message("{summary}; the draw is cleared: draw lots again", summary=summary)


def edited(number: int, name: str, shown: str, order: str | None = None) -> Message:
    """``player 3 Anna edited: rating 1800 → 1850`` and what became of the draw."""
    said = Message(
        "player {number} {name} edited: {changes}", number=number, name=name, changes=shown
    )
    if order == CLEARED:
        return Message(
            "{summary}; the rating order changed, so the draw is cleared: draw lots again",
            summary=said,
        )
    if order == KEPT:
        return Message("{summary}; the starting numbers stay as drawn", summary=said)
    return said


def drawn(method: LotsMethod, seed: int | None, listing: str) -> Message:
    """``starting numbers drawn by rating: 1. Anna, 2. Boris``."""
    if method is LotsMethod.RANDOM:
        return Message(
            "starting numbers drawn by lot, seed {seed}: {listing}", seed=seed, listing=listing
        )
    if method is LotsMethod.RATING:
        return Message("starting numbers drawn by rating: {listing}", listing=listing)
    return Message("starting numbers drawn by hand: {listing}", listing=listing)


def regulations_changed(keys: Iterable[str], override: str | None = None) -> Message:
    """``regulations changed (name, rounds)`` and the reason of an override after the start."""
    said = Message("regulations changed ({what})", what=Message.joined(", ", sorted(keys)))
    if override:
        return Message("{summary}; override: {reason}", summary=said, reason=override)
    return said


def created(tournament: int, name: str, settings: Settings) -> Message:
    """``tournament 1 “Club” created (round-robin; 1-0.5-0)``."""
    return Message(
        "tournament {tournament} “{name}” created ({settings})",
        tournament=tournament,
        name=name,
        settings=described(settings),
    )


def described(settings: Settings) -> Message:
    """``round-robin; 2 cycles; 1-0.5-0; tie-breaks SB, DE`` (a history line's piece)."""
    parts: list[object] = [settings.system.value]  # (a system's name: E_ in web/messages.py)
    if settings.cycles > 1:
        parts.append(Message("{count} cycles", count=settings.cycles))
    parts.append(settings.point_system.label())
    if settings.tiebreaks:
        parts.append(Message("tie-breaks {codes}", codes=Message.joined(", ", settings.tiebreaks)))
    if settings.bye_points is not None:
        parts.append(Message("free round {points}", points=format_points(settings.bye_points)))
    return Message.joined("; ", parts)


__all__ = [
    "CLEARED",
    "KEPT",
    "created",
    "described",
    "drawn",
    "edited",
    "registered",
    "regulations_changed",
    "removed",
]
