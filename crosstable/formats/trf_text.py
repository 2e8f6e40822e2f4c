"""Small helpers for fixed-column TRF text: fields by 1-based column, numbers, points."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from crosstable.core.errors import InputError
from crosstable.formats.limits import MAX_NUMBER_TEXT, MAX_POINTS, is_number_text

# ASCII digits only: ``\d`` would also match ``²`` or ``６``
_POINTS = re.compile(r"^-?[0-9]+(?:[.,][0-9]*)?$|^-?[.,][0-9]+$")


class RecoverableError(InputError):
    """An inconsistency that a reader can get past: ``--lenient`` turns it into a warning."""


class Line:
    """One line of a TRF, with its number, for column-exact reading and errors."""

    __slots__ = ("number", "source", "text")

    def __init__(self, text: str, number: int, source: str) -> None:
        self.text = text
        self.number = number
        self.source = source

    @property
    def tag(self) -> str:
        return self.text[:3]

    def field(self, first: int, last: int) -> str:
        """Columns ``first…last`` (1-based, inclusive), blanks kept; short lines pad."""
        return self.text[first - 1 : last].ljust(last - first + 1)

    def char(self, column: int) -> str:
        return self.text[column - 1] if column <= len(self.text) else " "

    def rest(self, first: int = 5) -> str:
        """The text from column ``first`` on, trailing blanks dropped."""
        return self.text[first - 1 :].rstrip()

    def error(
        self, message: str, column: int | None = None, *, recoverable: bool = False
    ) -> InputError:
        kind = RecoverableError if recoverable else InputError
        return kind(message, source=self.source, line=self.number, column=column)

    def integer(self, first: int, last: int, what: str, *, blank_ok: bool = True) -> int | None:
        """A right-aligned whole number in columns ``first…last``; None when blank."""
        raw = self.field(first, last)
        text = raw.strip()
        if not text:
            if blank_ok:
                return None
            raise self.error(f"{what} is missing (columns {first}–{last})", first)
        if not is_number_text(text):
            offset = len(raw) - len(raw.lstrip())
            raise self.error(f"{what} {number_problem(text)}", first + offset)
        return int(text)

    def points(self, first: int, last: int, what: str) -> Fraction | None:
        """Points such as ``4.5`` (``4,5`` too) in columns ``first…last``; None when blank."""
        raw = self.field(first, last)
        text = raw.strip()
        if not text:
            return None
        offset = len(raw) - len(raw.lstrip())
        return parse_points(text, lambda message: self.error(f"{what}: {message}", first + offset))


def parse_points(text: str, error: Callable[[str], InputError]) -> Fraction:
    """``4.5``, ``4,5``, ``.5``, ``-1.0`` as an exact fraction (at most 12 characters,
    at most 9 999 either way)."""
    if len(text) > MAX_NUMBER_TEXT or not _POINTS.match(text):
        raise error(f"{shown(text)} is not a number of points")
    value = Fraction(text.replace(",", "."))
    if abs(value) > MAX_POINTS:
        raise error(f"{text} points: at most {MAX_POINTS} either way")
    return value


def number_problem(text: str) -> str:
    """What is wrong with ``text`` as a whole number (for a message)."""
    if text.isascii() and text.isdigit():
        return f"{shown(text)} has more than {MAX_NUMBER_TEXT} digits"
    return f"{shown(text)} is not a whole number (digits 0–9)"


def shown(text: str) -> str:
    """A bad value quoted for a message, cut when it is long."""
    return repr(text) if len(text) <= 20 else repr(text[:20]) + f"… ({len(text)} characters)"


def format_fixed(value: Fraction, width: int) -> str:
    """Points right-aligned in ``width`` columns with at least one decimal: `` 4.5``, ``10.0``.

    >>> [format_fixed(Fraction(n, d), 4) for n, d in ((9, 2), (21, 4), (3, 1))]
    [' 4.5', '5.25', ' 3.0']
    """
    text = decimal_text(value)
    if "." not in text:
        text += ".0"
    if len(text) > width:
        text = decimal_text(value)  # drop the ".0" if that is what overflows
    if len(text) > width:
        raise ValueError(f"{text} does not fit in {width} columns")
    return text.rjust(width)


def decimal_text(value: Fraction) -> str:
    """An exact decimal (``4.5``, ``5.25``, ``-1``); ValueError when none exists.

    >>> decimal_text(Fraction(-21, 4)), decimal_text(Fraction(7))
    ('-5.25', '7')
    """
    rest = value.denominator
    twos = fives = 0
    while rest % 2 == 0:
        rest //= 2
        twos += 1
    while rest % 5 == 0:
        rest //= 5
        fives += 1
    if rest != 1:
        raise ValueError(f"{value} has no exact decimal form")
    digits = max(twos, fives)
    scaled = abs(value) * 10**digits
    whole = str(scaled.numerator).rjust(digits + 1, "0")
    sign = "-" if value < 0 else ""
    if digits == 0:
        return sign + whole
    return f"{sign}{whole[:-digits]}.{whole[-digits:]}"


def split_lines(text: str) -> list[str]:
    """Lines split on CR LF, LF or CR (the spec ends lines with CR); a BOM is dropped."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines
