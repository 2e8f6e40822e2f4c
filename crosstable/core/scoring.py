"""Point systems: what a win, a draw, a forfeit or a bye is worth.

Points are exact :class:`fractions.Fraction` values, never floats.

>>> PointSystem.classic().win, PointSystem.classic().draw
(Fraction(1, 1), Fraction(1, 2))
>>> PointSystem.parse("3-1-0").draw
Fraction(1, 1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, overload

from crosstable.core.errors import RuleError

PointsLike = int | str | Fraction


def points(value: PointsLike | float) -> Fraction:
    """Exact points from an int, a string (``"2.5"``, ``"½"``, ``"1/2"``) or a float.

    >>> points("½"), points("2.5"), points(0.25)
    (Fraction(1, 2), Fraction(5, 2), Fraction(1, 4))
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, str):
        text = value.strip().replace(",", ".")
        if text.endswith("½"):
            head = text[:-1]
            return Fraction(head or 0) + Fraction(1, 2)
        return Fraction(text)
    if isinstance(value, float):
        return Fraction(value).limit_denominator(1000)
    return Fraction(value)


#: how :func:`points_json` writes an exact value into JSON
JsonForm = Literal["number", "exact", "float", "typed"]


@overload
def points_json(value: Fraction | int, form: Literal["number", "typed"] = ...) -> int | float: ...
@overload
def points_json(value: Fraction | int, form: Literal["float"]) -> float: ...
@overload
def points_json(value: Fraction | int, form: Literal["exact"]) -> int | float | str: ...
@overload
def points_json(value: Fraction | int | None, form: JsonForm = ...) -> int | float | str | None: ...
def points_json(
    value: Fraction | int | None, form: JsonForm = "number"
) -> int | float | str | None:
    """Points (or any exact value) as JSON writes them: the one place that decides it.
    The forms, each where it is used today:

    * ``"number"``: whole as an int (``4``), else the nearest float (``4.5``): the
      knockout's scores, the duration estimate;
    * ``"exact"``: as ``"number"``, but the fraction as text (``"1/3"``) where a short
      decimal would not read back as the value: the export files, read back exactly;
    * ``"float"``: always a float (``4.0``): the points of the live table and of the
      JSON API's standings, as version 1 writes them;
    * ``"typed"``: an int stays an int (a count), a fraction is a float even when whole
      (``4.0``): the tie-break columns.

    ``None`` (a value that does not apply) is ``null`` in every form.

    >>> [points_json(Fraction(9, 2)), points_json(Fraction(4)), points_json(3, "float")]
    [4.5, 4, 3.0]
    >>> points_json(Fraction(1, 3), "exact"), points_json(Fraction(1, 3))
    ('1/3', 0.3333333333333333)
    >>> points_json(Fraction(4), "typed"), points_json(4, "typed")
    (4.0, 4)
    """
    if value is None:
        return None
    if form == "float":
        return float(value)
    if isinstance(value, int):
        return value
    if form == "typed":
        return float(value)
    if value.denominator == 1:
        return value.numerator
    if form == "exact" and not _short_decimal(value):
        return str(value)
    return float(value)


def _short_decimal(value: Fraction) -> bool:
    """Whether ``value`` is a decimal of at most six places that a float's shortest text
    gives back exactly (``4.25``, ``0.1``; not ``1/3``, not ``1/128``)."""
    rest, twos, fives = value.denominator, 0, 0
    while rest % 2 == 0:
        rest //= 2
        twos += 1
    while rest % 5 == 0:
        rest //= 5
        fives += 1
    if rest != 1 or max(twos, fives) > 6:
        return False
    return Fraction(repr(float(value))) == value


def format_points(value: Fraction) -> str:
    """Points as a plain decimal: ``4``, ``2.5``, ``5.25``."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}"


@dataclass(frozen=True, slots=True)
class PointSystem:
    """Points per result. ``None`` for the bye and forfeit values means "as a win/loss/draw".

    The free round of an odd round robin is not part of the point system: it is
    the tournament setting ``Settings.bye_points``.
    """

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    forfeit_win: Fraction | None = None
    forfeit_loss: Fraction | None = None
    pairing_bye: Fraction | None = None
    full_bye: Fraction | None = None
    half_bye: Fraction | None = None
    zero_bye: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        for name in ("win", "draw", "loss", "zero_bye"):
            object.__setattr__(self, name, points(getattr(self, name)))
        for name in ("forfeit_win", "forfeit_loss", "pairing_bye", "full_bye", "half_bye"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, points(value))
        if not self.win > self.draw >= self.loss:
            raise RuleError(
                (
                    "point system {system}: a win must be worth more than a draw, and a draw at "
                    "least as much as a loss"
                ),
                system=self.label(),
            )
        if 2 * self.draw > self.win + self.loss:
            raise RuleError(
                (
                    "point system {system}: two draws ({draws}) would outscore a win and a loss "
                    "({win_loss})"
                ),
                system=self.label(),
                draws=format_points(2 * self.draw),
                win_loss=format_points(self.win + self.loss),
            )
        if self.pairing_bye is not None:
            check_bye_value(self, self.pairing_bye)

    @classmethod
    def classic(cls) -> PointSystem:
        """1 - ½ - 0."""
        return cls()

    @classmethod
    def three_one_zero(cls) -> PointSystem:
        """3 - 1 - 0 ("football scoring")."""
        return cls(win=Fraction(3), draw=Fraction(1), loss=Fraction(0))

    @classmethod
    def parse(cls, text: str) -> PointSystem:
        """``"1-0.5-0"``, ``"3-1-0"``, ``"classic"``, ``"3/1/0"``."""
        cleaned = text.strip().lower()
        if cleaned in ("", "classic", "fide", "1-1/2-0", "1-½-0"):
            return cls.classic()
        parts = [p for p in re.split(r"[-/\s]+", cleaned) if p]
        if len(parts) != 3:
            raise RuleError(
                "point system {text}: write it as WIN-DRAW-LOSS, e.g. 3-1-0", text=repr(text)
            )
        try:
            win, draw, loss = (points(p) for p in parts)
        except (ValueError, ZeroDivisionError):
            raise RuleError(
                "point system {text}: WIN-DRAW-LOSS must be numbers", text=repr(text)
            ) from None
        return cls(win=win, draw=draw, loss=loss)

    def label(self) -> str:
        return "-".join(format_points(v) for v in (self.win, self.draw, self.loss))

    @property
    def forfeit_win_points(self) -> Fraction:
        return self.win if self.forfeit_win is None else self.forfeit_win

    @property
    def forfeit_loss_points(self) -> Fraction:
        return self.loss if self.forfeit_loss is None else self.forfeit_loss

    @property
    def pairing_bye_points(self) -> Fraction:
        return self.win if self.pairing_bye is None else self.pairing_bye

    @property
    def full_bye_points(self) -> Fraction:
        return self.win if self.full_bye is None else self.full_bye

    @property
    def half_bye_points(self) -> Fraction:
        return self.draw if self.half_bye is None else self.half_bye

    def per_game(self) -> Fraction:
        """Points handed out by one decisive game (win + loss)."""
        return self.win + self.loss

    @property
    def standard(self) -> bool:
        """Whether this is FIDE's standard scoring, 1 - ½ - 0."""
        return (self.win, self.draw, self.loss) == (Fraction(1), Fraction(1, 2), Fraction(0))


#: what a pairing-allocated bye may be worth under standard scoring
STANDARD_BYE_VALUES = (Fraction(1), Fraction(1, 2), Fraction(0))


def check_bye_value(system: PointSystem, value: Fraction) -> None:
    """Refuse a pairing-allocated bye (or a free round) worth more than a win, below
    zero, or, with standard scoring, other than 1, ½ or 0 (FIDE's checklist for
    tournament programs).

    >>> check_bye_value(PointSystem(), Fraction(1, 2))
    >>> check_bye_value(PointSystem.three_one_zero(), Fraction(2))
    >>> try:
    ...     check_bye_value(PointSystem(), Fraction(3, 4))
    ... except RuleError as error:
    ...     print(error)
    with standard scoring (1-0.5-0) a bye is worth 1, 0.5 or 0, not 0.75
    """
    if value > system.win:
        raise RuleError(
            "a bye worth {value} would be worth more than a win ({win})",
            value=format_points(value),
            win=format_points(system.win),
        )
    if value < 0:
        raise RuleError(
            "a bye cannot be worth less than nothing ({value})", value=format_points(value)
        )
    if system.standard and value not in STANDARD_BYE_VALUES:
        raise RuleError(
            "with standard scoring (1-0.5-0) a bye is worth 1, 0.5 or 0, not {value}",
            value=format_points(value),
        )
