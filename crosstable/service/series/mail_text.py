"""What a notification says, in the recipient's language (the mails and the
Telegram messages in English or Russian).

Every outbox row is a *kind* and its parameters (the payload written with the change
that caused it). :func:`letter` writes it for one recipient: a subject and lines, each
from a template (``"{series}: registration confirmed"``) looked up in the ``mail``
gettext catalogue (``crosstable/web/locale/<lang>/LC_MESSAGES/mail.po``, next to the
pages' and the errors' catalogues; read with the standard library's :mod:`gettext`, so
``crosstable tick --send`` needs no web extra) and filled with the parameters, each
parameter that is a text of ours (a stage's name, a colour) translated in turn.
Moments are written in the series' zone, the zone named, as the pages write them
("4 May 2026, 18:00 UTC+03:00 (Europe/Moscow)"), the month by name in the language.

The language (:func:`language_of`): the account's choice (the notifications' settings
page, the preference ``user.<id>.language``), else the site's default
(``CROSSTABLE_LANGUAGE``, English when unset).

How to add a text: write it as ``M_("…{name}…")`` here, then (in ``crosstable/web``)
``pybabel extract -k M_ --no-location --omit-header -o locale/mail.pot
../service/series/mail_text.py``, ``pybabel update -D mail -i locale/mail.pot -d
locale``, translate ``locale/ru/LC_MESSAGES/mail.po``, ``pybabel compile -D mail -d
locale``. ``tests/test_series_mail_text.py`` fails on a text left untranslated.
"""

from __future__ import annotations

import datetime as dt
import gettext
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.text import fill
from crosstable.store.models import PreferenceRow
from crosstable.store.series_models import SeriesEditionRow, SeriesRow, SeriesStageRow

LANGUAGES = ("en", "ru", "hy")
DEFAULT = "en"
DOMAIN = "mail"
LOCALE_DIR = Path(__file__).resolve().parents[2] / "web" / "locale"
#: the preference that keeps an account's language for mails and Telegram
LANGUAGE_KEY = "user.{user}.language"
#: registration for stage 2 and later is open two weeks from the stage's start
WINDOW = dt.timedelta(days=14)
#: a notification's payload as a letter reads it: stored JSON whose fields depend on
#: the kind, each read and checked where it is used
Payload = Mapping[str, object]


def M_(message: str) -> str:  # noqa: N802 - gettext's convention: marked, translated later
    return message


MONTHS = (
    M_("January"),
    M_("February"),
    M_("March"),
    M_("April"),
    M_("May"),
    M_("June"),
    M_("July"),
    M_("August"),
    M_("September"),
    M_("October"),
    M_("November"),
    M_("December"),
)

#: the subject of each kind (also the first line of a Telegram message)
SUBJECTS = {
    "registered": M_("{series}: registration confirmed"),
    "start-moved": M_("{series}: the start moved to {start}"),
    "stage-starts": M_("{series}: {what} starts"),
    "qualified": M_("{series}: you qualified from stage {stage}"),
    "eliminated": M_("{series}: stage {stage} is over for you"),
    "news": M_("{series}: news"),
    "petition-accepted": M_("{series}: your petition for {level} is accepted"),
    "petition-refused": M_("{series}: your petition for {level} is refused"),
    "round-starts": M_("{series}: round {round} starts"),
    "start-waits": M_("{series}: the start waits"),
    "results-missing": M_("{series}: results of round {round} are missing"),
}


@cache
def catalogue(language: str) -> gettext.NullTranslations:
    if language == DEFAULT or language not in LANGUAGES:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, str(LOCALE_DIR), [language], fallback=True)


@dataclass(frozen=True)
class Letter:
    """One notification written for one recipient."""

    subject: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Context:
    """What the payload does not carry and the database knows: the series' zone and id,
    the edition's number, when the notified stage started."""

    zone: str = "UTC"
    series_id: int | None = None
    edition_number: int | None = None
    stage_started: str | None = None


def context_of(session: Session, payload: Payload) -> Context:
    edition_id = payload.get("edition")
    edition = session.get(SeriesEditionRow, edition_id) if isinstance(edition_id, int) else None
    series_id = edition.series_id if edition is not None else payload.get("series_id")
    series = session.get(SeriesRow, series_id) if isinstance(series_id, int) else None
    started = None
    stage = payload.get("stage")
    if edition is not None and isinstance(stage, int):
        row = session.scalars(
            select(SeriesStageRow).where(
                SeriesStageRow.edition_id == edition.id, SeriesStageRow.number == stage
            )
        ).first()
        started = row.started_at if row is not None else None
    return Context(
        zone=series.zone if series is not None else "UTC",
        series_id=series.id if series is not None else None,
        edition_number=edition.number if edition is not None else None,
        stage_started=started,
    )


def language_of(session: Session, user_id: int | None, default: str = DEFAULT) -> str:
    """The account's language for mails and Telegram, else ``default``."""
    if user_id is not None:
        row = session.get(PreferenceRow, LANGUAGE_KEY.format(user=user_id))
        if row is not None and row.value in LANGUAGES:
            return row.value
    return default if default in LANGUAGES else DEFAULT


def site_language(env: Mapping[str, str]) -> str:
    """The site's default language for mails and Telegram (``CROSSTABLE_LANGUAGE``)."""
    chosen = env.get("CROSSTABLE_LANGUAGE", DEFAULT).strip().lower()
    return chosen if chosen in LANGUAGES else DEFAULT


def moment_text(value: object, zone: str, translate: Callable[[str], str]) -> str:
    """A stored moment in ``zone``, the zone named (``4 May 2026, 18:00 UTC+03:00
    (Europe/Moscow)``); "" when there is none (or a payload's value is no text)."""
    if not isinstance(value, str) or not value:
        return ""
    try:
        shown = dt.datetime.fromisoformat(value).astimezone(ZoneInfo(zone))
    except (ValueError, KeyError):
        return value
    offset = shown.utcoffset() or dt.timedelta(0)
    sign, rest = ("+" if offset >= dt.timedelta(0) else "-"), abs(offset)
    hours, minutes = divmod(int(rest.total_seconds()) // 60, 60)
    where = "UTC" if not offset else f"UTC{sign}{hours:02d}:{minutes:02d}"
    return fill(
        translate(M_("{day} {month} {year}, {time} {offset} ({zone})")),
        {
            "day": str(shown.day),
            "month": translate(MONTHS[shown.month - 1]),
            "year": str(shown.year),
            "time": f"{shown:%H:%M}",
            "offset": where,
            "zone": zone,
        },
    )


def _stage_name(kind: object, number: object, translate: Callable[[str], str]) -> str:
    if kind == "final":
        return translate(M_("the final"))
    if kind == "super-final":
        return translate(M_("the super-final"))
    return fill(translate(M_("stage {stage}")), {"stage": str(number)})


def _news_title(payload: Payload, writer: _Writer) -> str:
    """The news item's title in the recipient's language (the stored English title for
    a row written before the news' parameters were kept)."""
    if "going" not in payload:
        return str(payload.get("title") or "")
    say = writer.say
    head = say(M_("{series} #{edition}"), edition=payload.get("edition_number", ""))
    what = _stage_name(payload.get("kind"), payload.get("stage"), writer.translate)
    winner = payload.get("winner")
    if payload.get("kind") in ("final", "super-final"):
        if winner:
            return say(M_("{head}: {what} is over — {winner} wins"), head=head, what=what)
        return say(M_("{head}: {what} is over"), head=head, what=what)
    if payload.get("finished"):
        return say(M_("{head}: {what} is over"), head=head, what=what)
    return say(M_("{head}: {what} is over — {going} go on"), head=head, what=what)


class _Writer:
    """Templates translated and filled for one language and one payload."""

    def __init__(self, language: str, payload: Payload) -> None:
        self.translate = catalogue(language).gettext
        self.values = {key: "" if value is None else str(value) for key, value in payload.items()}

    def say(self, template: str, **values: Any) -> str:
        merged = self.values | {key: str(value) for key, value in values.items()}
        return fill(self.translate(template), merged)


def news_title(payload: Payload, language: str = DEFAULT) -> str:
    """A ``news`` notification's title in ``language`` (the in-site list shows it)."""
    return _news_title(payload, _Writer(language, payload))


def letter(
    kind: str,
    payload: Payload,
    *,
    language: str = DEFAULT,
    context: Context | None = None,
    base_url: str = "",
) -> Letter:
    """The notification ``kind`` with ``payload`` written in ``language``."""
    ctx = context or Context()
    writer = _Writer(language, payload)
    say, translate = writer.say, writer.translate
    start = moment_text(payload.get("start"), ctx.zone, translate)
    what = _stage_name(payload.get("kind"), payload.get("stage"), translate)
    subject = say(SUBJECTS.get(kind, "{series}"), start=start, what=what)
    lines: list[str] = []
    edition_url = ""
    if base_url and ctx.series_id is not None and ctx.edition_number is not None:
        edition_url = f"{base_url}/series/{ctx.series_id}/editions/{ctx.edition_number}"
    if kind == "registered":
        lines.append(say(M_("You are registered.")))
        if start:
            lines.append(say(M_("It starts {start}."), start=start))
    elif kind == "start-moved":
        lines.append(
            say(M_("Too few players registered: the start moved to {start}."), start=start)
        )
    elif kind == "stage-starts":
        lines.append(say(M_("Your group: {group}"), group=payload.get("group", "")))
        first = payload.get("first_game")
        if isinstance(first, Mapping):
            colour = M_("White") if first.get("colour") == "white" else M_("Black")
            lines.append(
                say(
                    M_(
                        "Your first game: round {round}, board {board}, {colour} against {opponent}"
                    ),
                    round=first.get("round", ""),
                    board=first.get("board", ""),
                    colour=translate(colour),
                    opponent=first.get("opponent", ""),
                )
            )
        if base_url and payload.get("tournament"):
            lines.append(f"{base_url}/t/{payload['tournament']}")
        number = payload.get("stage")
        if payload.get("kind") == "groups" and isinstance(number, int) and number >= 2:
            closes = ""
            if ctx.stage_started:
                until = dt.datetime.fromisoformat(ctx.stage_started) + WINDOW
                closes = moment_text(until.isoformat(), ctx.zone, translate)
            lines.append(
                say(
                    M_(
                        "Confirm your place in stage {stage} on the edition's page until"
                        " {closes} (registration for stage 2 and later is open for two weeks"
                        " from the stage's start)."
                    ),
                    closes=closes,
                )
            )
            if edition_url:
                lines.append(edition_url)
    elif kind == "qualified":
        lines.append(say(M_("You go on to the next stage.")))
    elif kind == "eliminated":
        if payload.get("barred"):
            lines.append(say(M_("You do not go on: fair play (flagged for computer help).")))
        elif payload.get("played") is False:
            lines.append(say(M_("A player who played no game in a stage does not go on.")))
    elif kind == "news":
        title = _news_title(payload, writer)
        if title:
            lines.append(title)
        place = payload.get("place")
        if payload.get("awarded") and isinstance(place, int):
            lines.append(say(M_("Your award: place {place} ({points} points)."), place=place))
        series_id = payload.get("series_id") or ctx.series_id
        if base_url and series_id:
            lines.append(f"{base_url}/series/{series_id}/news")
    elif kind == "petition-accepted":
        lines.append(say(M_("The tournament of {level} is made and started.")))
        if base_url and payload.get("tournament"):
            lines.append(f"{base_url}/t/{payload['tournament']}")
    elif kind == "petition-refused":
        lines.append(say(M_("The administrators' reason: {reason}")))
    elif kind in ("round-starts", "start-waits", "results-missing"):
        lines.extend(_clock_lines(kind, payload, writer, ctx.zone, base_url))
    return Letter(subject, tuple(lines))


def _clock_lines(
    kind: str, payload: Payload, writer: _Writer, zone: str, base_url: str
) -> list[str]:
    """A tournament's clock: a knockout game, a start that waits, results missing."""
    say, translate = writer.say, writer.translate
    deadline = moment_text(payload.get("deadline"), zone, translate)
    lines: list[str] = []
    if kind == "round-starts":
        colour = M_("White") if payload.get("colour") == "white" else M_("Black")
        lines.append(
            say(
                M_("Your game: round {game_round}, board {board}, {colour} against {opponent}"),
                colour=translate(colour),
            )
        )
        if deadline:
            lines.append(say(M_("Play it and report the result by {deadline}."), deadline=deadline))
    elif kind == "start-waits":
        start = moment_text(payload.get("start"), zone, translate)
        lines.append(say(M_("The tournament did not start at {start}: {reason}"), start=start))
        lines.append(say(M_("It starts at the first pass of the clock after that is put right.")))
    else:
        lines.append(say(M_("Still without a result at {deadline}: {games}"), deadline=deadline))
    if base_url and payload.get("tournament"):
        lines.append(f"{base_url}/t/{payload['tournament']}")
    return lines


def unsubscribe_line(link: str, language: str) -> str:
    return fill(
        catalogue(language).gettext(M_("No more mails like this one: {link}")), {"link": link}
    )
