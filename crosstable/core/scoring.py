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
                f"point system {self.label()}: a win must be worth more than a draw, "
                "and a draw at least as much as a loss"
            )
        if 2 * self.draw > self.win + self.loss:
            raise RuleError(
                f"point system {self.label()}: two draws ({format_points(2 * self.draw)}) "
                f"would outscore a win and a loss ({format_points(self.win + self.loss)})"
            )

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
            raise RuleError(f"point system {text!r}: write it as WIN-DRAW-LOSS, e.g. 3-1-0")
        try:
            win, draw, loss = (points(p) for p in parts)
        except (ValueError, ZeroDivisionError):
            raise RuleError(f"point system {text!r}: WIN-DRAW-LOSS must be numbers") from None
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
