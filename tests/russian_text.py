"""What the Russian check (tests/test_russian_everywhere.py) reads of a page, and what it
calls English.

The visible text of a page: its text nodes outside ``<script>``, ``<style>`` and
``<template>``, and of the attributes only those a reader sees or hears (``title``,
``aria-label``, ``placeholder``, ``alt``, and a button's ``value``). A word is a run of
Latin letters; a word is English unless the allow-list below says it stays Latin in a
Russian text. URLs, e-mail addresses, file names, chess moves and time controls are
taken out before the text is split into words.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

#: words that stay Latin on a Russian page, each for its reason (kept short: a word is
#: added here only when Russian readers see it so in Russian chess texts too)
# fmt: off
ALLOWED = frozenset({
    # names of things that have no Russian name: formats, standards, services
    "FIDE", "PGN", "TRF", "JSON", "API", "CSV", "PDF", "SVG", "HTML", "XML", "TXT",
    "iCalendar", "Atom", "Telegram", "Elo", "UTC", "SHA", "OpenAPI", "Swagger", "htmx",
    "crosstable",  # the product's name
    "Bearer", "ct",  # the token's scheme and prefix on the account page ("Bearer ct_…")
    # the demo's own names (its tournaments and login are called "demo"); accounts
    "demo", "admin", "anna", "pavel",
    # the Swiss table's mark of the pairing-allocated bye (FIDE's wall-chart notation)
    "bye",
    # time zones are the IANA names
    "Europe", "Moscow",
    # the language switch names each language in itself
    "EN", "RU", "English",
    # an HTTP header's name (the account page shows how to send a token), the binary
    # logarithm's sign (⌈log₂ N⌉ rounds) and an archive's format (a zip file)
    "Authorization", "log", "zip",
    # FIDE C.07's team tie-break codes of five letters (docs/teams.md)
    "EMGSB", "EMMSB", "EGMSB", "EGGSB", "MPVGP",
})
# fmt: on

#: codes written in capitals: titles (GM, WFM), federations (RUS), FIDE tie-break codes
#: (BH, SB, TPR, ARO, DE; the portal's ARO_RATED), bye kinds (H, Z, F, U): at most four
#: letters, all capitals
CODE = re.compile(r"^[A-Z]{1,4}(?:_[A-Z]+)?\d?$")

#: taken out before the words are read: URLs, e-mail addresses, file names, time
#: controls (G/25 d5, 90+30), chess moves (Nf3, O-O, exd5), the Swiss table's cells
#: (5w1), a word quoted as it is typed in a file (a CSV column 'team', «team»)
NOT_WORDS = re.compile(
    r"https?://\S+|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    r"|\b[\w-]+\.(?:trf|pgn|json|pdf|csv|txt|xml|zip|ics|atom|svg|db)\b"
    r"|\bG/\d+(?:\s*d\d+)?|\b\d+\s*\+\s*\d+\b|\b\d+[wb][10½+\-=]?"
    r"|\b(?:[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](?:=[QRBN])?[+#]?|O-O(?:-O)?)\b"
    r"|\b[a-z]{2}_[A-Z]{2}\b|/[\w/{}.-]+|'[A-Za-z_]+'|«[A-Za-z_]+»",
)

WORD = re.compile(r"[A-Za-z][A-Za-z_'’]*")

#: a requirement id (R-RR-13, R-SE-5) or a seed's number ("seed 003"): never for readers
REQUIREMENT = re.compile(r"\bR-[A-Z]{1,3}-\d+\b|\bseed 0\d\d\b", re.IGNORECASE)

_SKIPPED = {"script", "style", "template", "noscript", "svg"}
_SPOKEN = ("title", "aria-label", "placeholder", "alt")


class _Visible(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self.depth += 1
            return
        values = dict(attrs)
        for name in _SPOKEN:
            if values.get(name):
                self.parts.append(str(values[name]))
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.parts.append(str(values["value"]))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _SKIPPED:
            self.handle_starttag(tag, attrs)
            if tag in _SKIPPED:
                self.depth -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth and data.strip():
            self.parts.append(data.strip())


def visible_text(html: str) -> list[str]:
    """The pieces of text a reader of ``html`` sees (or hears from a screen reader)."""
    parser = _Visible()
    parser.feed(html)
    parser.close()
    return parser.parts


def english_words(text: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """The words of ``text`` that are English: Latin words outside the allow-list, the
    codes and ``allowed`` (the names of this page's players and accounts)."""
    cleaned = NOT_WORDS.sub(" ", text)
    return [
        word
        for word in WORD.findall(cleaned)
        if word not in ALLOWED and word not in allowed and not CODE.match(word)
    ]


def requirement_ids(text: str) -> list[str]:
    return REQUIREMENT.findall(text)
