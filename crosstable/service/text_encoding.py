"""The text of an uploaded players' file, whatever a spreadsheet saved it in.

Russian Excel saves "CSV" in Windows-1251, older Russian tools in KOI8-R, Western Excel
in Windows-1252, and "Unicode text" in UTF-16 with a byte-order mark. :func:`decode_text`
reads every one of them and says which it was; it refuses only bytes that none of them
decodes, naming the first line that is not UTF-8.

The order: a byte-order mark (UTF-8 or UTF-16) decides; then UTF-8, strictly (a file
of plain ASCII is UTF-8); then the single-byte encodings a spreadsheet writes
(:data:`CANDIDATES`). Any byte string decodes in more than one of those, and on a short
list of names `charset-normalizer`'s own guess is not reliable (for ``Иванов,1850``
saved by Russian Excel it may answer Mac-Cyrillic, for KOI8-R Windows-1251), so each
candidate's text is checked as names are written: a word in one script, capitalised
or all capitals (KOI8-R read as Windows-1251 swaps the case: ``иВАНОВ``; Windows-1251
read as Windows-1252 gives words of accented letters only: ``Èâàíîâ``, and turns
ё into a sign against a letter: ``Àà¸``; Windows-1252
read as Windows-1251 mixes scripts: ``Josй``). The text with the fewest such words
wins; on a tie, charset-normalizer's ranking of the candidates decides.

>>> decode_text("Иванов,1850".encode("cp1251")).encoding
'cp1251'
>>> decode_text("Иванов,1850".encode("koi8_r")).label
'KOI8-R'
>>> decode_text("José Müller,1800".encode("cp1252")).text
'José Müller,1800'
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from dataclasses import dataclass

from crosstable.core.errors import InputError

#: the single-byte encodings tried after UTF-8, in the order a tie prefers them
CANDIDATES = ("cp1251", "koi8_r", "cp1252")
#: what the pages and the command line call each encoding
LABELS = {
    "utf_8": "UTF-8",
    "utf_8_sig": "UTF-8",
    "utf_16": "UTF-16",
    "cp1251": "Windows-1251",
    "koi8_r": "KOI8-R",
    "cp1252": "Windows-1252",
}
_WORD = re.compile(r"[^\W\d_]+")
#: a letter written against a non-ASCII sign that no name holds: ``Àà¸`` is ``Ааё`` in
#: Windows-1251 read as Windows-1252 (ё, Ё, і, ї and their kin are signs there)
_GLUED = re.compile(r"(?<=[^\W\d_])[^\w\s\x00-\x7f]|[^\w\s\x00-\x7f](?=[^\W\d_])")


@dataclass(frozen=True, slots=True)
class Decoded:
    """A file's text and the encoding it was read in (a Python codec name)."""

    text: str
    encoding: str

    @property
    def label(self) -> str:
        """The encoding as people know it: ``Windows-1251``, ``UTF-8``."""
        return LABELS.get(self.encoding, self.encoding)

    @property
    def is_utf8(self) -> bool:
        return self.encoding in ("utf_8", "utf_8_sig")


def decode_text(data: bytes, *, source: str = "<file>") -> Decoded:
    """``data`` as text (see the module's docstring); InputError naming the line when no
    encoding a spreadsheet writes reads it."""
    if data.startswith(codecs.BOM_UTF8):
        return _strict(data[len(codecs.BOM_UTF8) :], "utf_8_sig", source)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _strict(data, "utf_16", source)
    try:
        return Decoded(data.decode("utf-8"), "utf_8")
    except UnicodeDecodeError:
        pass
    if b"\x00" not in data:
        readings = []
        for encoding in CANDIDATES:
            try:
                readings.append(Decoded(data.decode(encoding), encoding))
            except UnicodeDecodeError:
                continue
        if readings:
            ranked = _ranked(data)
            return min(
                readings,
                key=lambda d: (implausible_words(d.text), ranked.get(d.encoding, len(ranked))),
            )
    line = _first_bad_line(data)
    raise InputError(
        (
            "line {number} is neither UTF-8 nor Windows-1251, KOI8-R or Windows-1252 text; "
            "save the file as CSV UTF-8"
        ),
        source=source,
        number=line,
    )


def implausible_words(text: str) -> int:
    """Words not written as names are: mixed scripts, a capital after a small letter,
    a small first letter, or accented letters only (see the module's docstring).

    >>> implausible_words("name, Anna Petrova, Иванов Иван, ИВАНОВ, van der Berg, José")
    0
    >>> implausible_words("иВАНОВ Èâàíîâ Josй Àà¸")
    4
    """
    count = sum(1 for sign in _GLUED.findall(text) if _is_sign(sign))
    for word in _WORD.findall(text):
        scripts = {_script(ch) for ch in word}
        if len(scripts) > 1:
            count += 1
        elif word[0].islower() and any(ch.isupper() for ch in word):
            count += 1  # иВАНОВ: a case swapped by the wrong Cyrillic table
        elif word[0].islower() and scripts == {"cyrillic"} and len(word) > 2:
            count += 1  # хбюмнб: a name in capitals read with the wrong table
        elif len(word) > 2 and all(not ch.isascii() for ch in word) and scripts == {"latin"}:
            count += 1  # Èâàíîâ: Cyrillic read as Windows-1252
    return count


def _is_sign(ch: str) -> bool:
    """A symbol, a superscript or fraction, or Spanish's opening marks (not a quote or
    a dash, which names and clubs do hold)."""
    category = unicodedata.category(ch)
    return category[0] == "S" or category == "No" or ch in "¿¡"


def _script(ch: str) -> str:
    if ch.isascii() or "\u00c0" <= ch <= "\u024f":
        return "latin"
    if "\u0400" <= ch <= "\u04ff":
        return "cyrillic"
    return "other"


def _ranked(data: bytes) -> dict[str, int]:
    """charset-normalizer's order of :data:`CANDIDATES` for ``data`` (best first)."""
    from charset_normalizer import from_bytes

    matches = from_bytes(data[:65536], cp_isolation=list(CANDIDATES))
    order: dict[str, int] = {}
    for match in matches:
        order.setdefault(match.encoding, len(order))
    return order


def _strict(data: bytes, encoding: str, source: str) -> Decoded:
    try:
        return Decoded(data.decode(encoding), encoding)
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        if encoding == "utf_16":
            line = data[: error.start].count(b"\n\x00") + data[: error.start].count(b"\x00\n")
            line = max(line, 1)
        raise InputError(
            "line {number}: the file says it is {encoding} text but is not",
            source=source,
            number=line,
            encoding=LABELS[encoding],
        ) from None


def _first_bad_line(data: bytes) -> int:
    """The first line (1-based) that is not UTF-8 text or holds a NUL byte."""
    for number, line in enumerate(data.split(b"\n"), 1):
        if b"\x00" in line:
            return number
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            return number
    return 1


__all__ = ["CANDIDATES", "Decoded", "decode_text", "implausible_words"]
