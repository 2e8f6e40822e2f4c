"""Three languages (English, Russian, Armenian) through gettext catalogs, and localised
numbers and dates.

The language comes from the ``lang`` cookie (the switch in the page header),
else the browser's ``Accept-Language``, else English. Templates call ``_()``;
the current language lives in a context variable set per request.

>>> choose_locale(None, "ru-RU,ru;q=0.9,en;q=0.8")
'ru'
>>> choose_locale("en", "ru")
'en'
>>> choose_locale(None, "hy-AM,hy;q=0.9,en;q=0.8"), choose_locale("hy", "ru")
('hy', 'hy')
>>> points_text(Fraction(5, 2)), points_text(Fraction(21, 4), "ru"), points_text(Fraction(1, 2))
('2½', '5,25', '½')
>>> points_text(Fraction(21, 4), "hy"), date_text("2026-12-01", "hy")
('5,25', '2026 թ. դեկ 1')
"""

from __future__ import annotations

import contextvars
import datetime as dt
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path

from babel import Locale
from babel.dates import format_date
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

LOCALES = ("en", "ru", "hy")
DEFAULT = "en"
LOCALE_DIR = Path(__file__).parent / "locale"

current: contextvars.ContextVar[str] = contextvars.ContextVar("crosstable_locale", default=DEFAULT)


@cache
def translations(locale: str) -> NullTranslations:
    if locale == DEFAULT:
        return NullTranslations()
    return Translations.load(str(LOCALE_DIR), [locale], domain="messages")


@cache
def error_translations(locale: str) -> NullTranslations:
    """The ``errors`` catalogue: the service and rule error messages of
    :mod:`crosstable.web.messages` (``locale/<lang>/LC_MESSAGES/errors.po``)."""
    if locale == DEFAULT:
        return NullTranslations()
    return Translations.load(str(LOCALE_DIR), [locale], domain="errors")


def gettext(message: str, **values: object) -> str:
    text = translations(current.get()).ugettext(message)
    return text % values if values else text


def ngettext(singular: str, plural: str, n: int, **values: object) -> str:
    text = translations(current.get()).ungettext(singular, plural, n)
    values.setdefault("num", n)
    return text % values


def choose_locale(cookie: str | None, accept_language: str | None) -> str:
    if cookie in LOCALES:
        return cookie
    weighted: list[tuple[float, str]] = []
    for part in (accept_language or "").split(","):
        piece = part.strip()
        if not piece:
            continue
        tag, _, q = piece.partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            weight = 0.0
        weighted.append((weight, tag.split("-")[0].lower()))
    for _weight, tag in sorted(weighted, key=lambda item: -item[0]):
        if tag in LOCALES:
            return tag
    return DEFAULT


def points_text(value: Fraction | float | int | None, locale: str | None = None) -> str:
    """Points as a crosstable writes them: ``2½``, ``½``, ``4``; other fractions as decimals."""
    if value is None:
        return ""
    return _points(value, locale or current.get())


@lru_cache(maxsize=16384)  # (a table writes the same few values over and over)
def _points(value: Fraction | float | int, locale: str) -> str:
    frac = value if isinstance(value, Fraction) else Fraction(value).limit_denominator(1000)
    whole, rest = divmod(frac, 1)
    if rest == 0:
        return str(int(whole))
    if rest == Fraction(1, 2) and frac > 0:
        return ("" if whole == 0 else str(int(whole))) + "½"
    return number_text(frac, locale)


def number_text(value: Fraction | float | int | None, locale: str | None = None) -> str:
    """A tie-break value in the reader's notation (``6,5`` in Russian)."""
    if value is None:
        return "—"
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        value = float(value)
    return _decimal(value, locale or current.get())


def _decimal(value: float | int, locale: str) -> str:
    if value == 0:  # (0.0 and -0.0 are one key to a cache, and Babel writes "-0")
        return _made(value, locale)
    return _kept_decimal(value, locale)


def _made(value: float | int, locale: str) -> str:
    return format_decimal(value, format="#,##0.##", locale=locale)


_kept_decimal = lru_cache(maxsize=16384)(_made)


def tiebreak_value(
    code: str, value: Fraction | float | int | None, locale: str | None = None
) -> str:
    """A tie-break value as the tables show it: DE is a place in the mini-table of a tied
    group (C.07 art. 6), and its 0 only says "not tied, or not separated by the games
    among them": a dash."""
    if code == "DE" and value == 0:
        return "–"
    return number_text(value, locale)


def date_text(value: str | dt.date | None, locale: str | None = None) -> str:
    if not value:
        return ""
    if isinstance(value, str):
        try:
            parsed = dt.datetime.fromisoformat(value)
        except ValueError:
            return value
        if len(value) <= 10:
            return format_date(parsed.date(), format="medium", locale=locale or current.get())
        return moment_text(parsed, locale)
    return format_date(value, format="medium", locale=locale or current.get())


def moment_text(value: dt.datetime, locale: str | None = None) -> str:
    """A moment (a history entry, a token's creation) without ambiguity: the month by name,
    the time on 24 hours and the time zone ("12/1/26, 8:21 AM" could be
    January 12 or December 1).

    >>> moment = dt.datetime(2026, 12, 1, 8, 21, 5, tzinfo=dt.UTC)
    >>> moment_text(moment, "en"), moment_text(moment, "ru").replace("\\u202f", " ")
    ('Dec 1, 2026, 08:21 UTC', '1 дек. 2026 г., 08:21 UTC')
    >>> moment_text(moment.astimezone(dt.timezone(dt.timedelta(hours=3))), "en")
    'Dec 1, 2026, 11:21 UTC+03:00'
    """
    chosen = locale or current.get()
    day = format_date(value.date(), format="medium", locale=chosen)
    text = f"{day}, {value:%H:%M}"
    offset = value.utcoffset()
    if offset is None:  # (a moment stored without its zone: as it was written)
        return text
    if not offset:
        return f"{text} UTC"
    sign, rest = ("+" if offset > dt.timedelta(0) else "-"), abs(offset)
    hours, minutes = divmod(int(rest.total_seconds()) // 60, 60)
    return f"{text} UTC{sign}{hours:02d}:{minutes:02d}"


def language_name(code: str) -> str:
    return (Locale.parse(code).get_display_name(code) or code).capitalize()


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for "mark, translate later"
    return message


#: the tie-breaks' names, and short column heads (translated when shown)
TIEBREAK_NAMES = {
    "DE": N_("Direct encounter"),
    "WIN": N_("Number of wins"),
    "WON": N_("Wins over the board"),
    "SB": N_("Sonneborn-Berger"),
    "DSB": N_("Sonneborn-Berger, doubled (portal)"),
    "KS": N_("Koya"),
    "BH": N_("Buchholz"),
    "BH/C1": N_("Buchholz cut 1"),
    "BH/M1": N_("Median Buchholz"),
    "ARO": N_("Average rating of opponents"),
    "ARO_RATED": N_("Average rating of all opponents met"),
    "BPG": N_("Games with Black"),
    "BWG": N_("Wins with Black"),
    "PS": N_("Progressive score"),
    "TPR": N_("Tournament performance rating"),
    "PTS": N_("Points"),
    "AOB": N_("Average of opponents' Buchholz"),
}
TIEBREAK_HEADS = {
    "DE": N_("DE"),
    "WIN": N_("Wins"),
    "SB": N_("SB"),
    "DSB": N_("SB×2"),
    "KS": N_("Koya"),
    "BH": N_("BH"),
    "ARO_RATED": N_("Avg. opp."),
    "ARO": N_("ARO"),
}


@cache
def _labels(locale: str, short: bool) -> dict[str, str]:
    source = TIEBREAK_HEADS if short else TIEBREAK_NAMES
    catalog = translations(locale)
    return {code: catalog.ugettext(text) for code, text in source.items()}


def tiebreak_name(code: str) -> str:
    """A tie-break's name in the current language (its FIDE code if it has none)."""
    return _labels(current.get(), False).get(code, code)


def tiebreak_head(code: str) -> str:
    return _labels(current.get(), True).get(code, code)


#: knockout rounds with a name of their own (the others are "round of N")
_ROUND_NAMES = {
    "final": N_("Final"),
    "semi-final": N_("Semi-final"),
    "quarter-final": N_("Quarter-final"),
}


def knockout_round(name: str) -> str:
    """A knockout round's title in the current language: ``Final``, ``Round of 16``
    (Russian counts the other way: «1/8 финала», so the text gets both numbers)."""
    if name in _ROUND_NAMES:
        return gettext(_ROUND_NAMES[name])
    head, _sep, tail = name.rpartition(" ")
    if head == "round of" and tail.isdigit():
        players = int(tail)
        # braces, not %: the Russian text uses the fraction only ({fraction}), which a
        # %-format check would refuse as a placeholder the English text does not have
        return gettext("Round of {players}").format(players=players, fraction=players // 2)
    return name
