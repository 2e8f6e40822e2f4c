"""The series' history lines as messages, like every tournament's.

A line of the series' history is a :class:`~crosstable.core.text.Message`: an English
template and its values (``Message("edition {number}: registration closed with
{players} players", number=2, players=26)``). :func:`record` writes it as every other
history line is written: the English text in ``summary`` (the command line and older
readers see what they always saw) and the template with its values in the row's data
(``summary_message``); :func:`summary_of` gives the message back, so the web
translates it by lookup (``crosstable.web.messages.translate``). A line stored before
(English text only), or one whose kept message no longer reads as its text, is shown as
it was stored.
"""

from __future__ import annotations

import gettext
import os
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from crosstable.core.text import Message
from crosstable.service.frame import SUMMARY_MESSAGE, with_summary_message
from crosstable.service.read_views import JsonObject
from crosstable.service.series import outbox
from crosstable.store.series_models import SeriesEventRow


def record(
    session: Session,
    series_id: int,
    edition_id: int | None,
    kind: str,
    summary: str,
    *,
    at: str,
    actor: str = "",
    data: JsonObject | None = None,
    step: str | None = None,
) -> None:
    """One line of the series' history, its message kept with it."""
    outbox.record(
        session,
        series_id,
        edition_id,
        kind,
        str(summary),
        at=at,
        actor=actor,
        data=with_summary_message(data or {}, summary),
        step=step,
    )


def summary_of(row: SeriesEventRow) -> str:
    """A series history line: its message when kept (and still its text), else the text."""
    kept = (row.data or {}).get(SUMMARY_MESSAGE)
    if isinstance(kept, dict):
        try:
            message = Message.from_json(kept)
        except (KeyError, TypeError, ValueError, ArithmeticError, RecursionError):
            return row.summary
        if str(message) == row.summary:
            return message
    return row.summary


def listed(separator: str, items: list[Any]) -> Message:
    """Items one after the other, each kept as itself (a name stays a name)."""
    return Message.joined(separator, items)


#: the catalogues of the web app (``errors``: the templates of messages and made names)
LOCALE_DIR = Path(__file__).resolve().parents[2] / "web" / "locale"
LANGUAGES = ("en", "ru", "hy")


def site_language(env: Any = None) -> str:
    """The site's language (``CROSSTABLE_LANGUAGE``: ``en``, ``ru`` or ``hy``; English by default):
    the language of the names the product makes itself when no reader asks (a series'
    group tournaments, a group stage's knockout)."""
    chosen = str((env if env is not None else os.environ).get("CROSSTABLE_LANGUAGE", "en"))
    chosen = chosen.strip().lower()
    return chosen if chosen in LANGUAGES else "en"


@cache
def _catalogue(language: str) -> gettext.NullTranslations:
    if language == "en":
        return gettext.NullTranslations()
    return gettext.translation("errors", str(LOCALE_DIR), [language], fallback=True)


def made_name(template: str, language: str | None = None, **values: object) -> str:
    """A name the product makes (``"{head} — final"``), written once in the site's
    language: a tournament's name is data, shown as it was made. The values are put in
    as they are (a series' or a tournament's own name is never looked up)."""
    text = _catalogue(language or site_language()).gettext(template)
    return Message(template, **values) if text == template else text.format(**values)


__all__ = ["listed", "made_name", "record", "site_language", "summary_of"]
