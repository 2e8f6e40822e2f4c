"""Explanations: how a value was built, in words and numbers.

Seed 003 walks an arbiter through Sonneborn-Berger by hand: list the
opponents, take the final score of each one beaten and half of each one
drawn, add up. An :class:`Explanation` is that walk-through for any value:
one :class:`Item` per element (round, opponent, what counted and how much),
the formula, and the value.

>>> e = Explanation("SB", 2, Fraction(13, 2), "6.5", (
...     Item(1, 3, "win against 3 (score 2.5)", Fraction(5, 2)),
...     Item(2, 1, "draw with 1 (score 4): ½ × 4", Fraction(2)),
... ), "2.5 + 2 + … = 6.5")
>>> print(e.text().splitlines()[0])
SB of player 2 = 6.5
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from crosstable.core.scoring import format_points, points_json

Number = int | Fraction


@dataclass(frozen=True, slots=True)
class Item:
    """One element of a tie-break: a round, the opponent, what it contributes."""

    round: int | None
    opponent: int | None
    text: str
    amount: Number | None = None
    counted: bool = True

    def to_json(self) -> dict[str, object]:
        return {
            "round": self.round,
            "opponent": self.opponent,
            "text": self.text,
            "amount": points_json(self.amount, "typed"),
            "counted": self.counted,
        }


@dataclass(frozen=True, slots=True)
class Explanation:
    """A value with the elements it was built from."""

    code: str
    player: int
    value: Number | None
    shown: str
    items: tuple[Item, ...] = ()
    formula: str = ""
    note: str = ""

    def text(self) -> str:
        lines = [f"{self.code} of player {self.player} = {self.shown}"]
        if self.note:
            lines.append(f"  {self.note}")
        for item in self.items:
            where = f"round {item.round}: " if item.round is not None else ""
            mark = "" if item.counted else "  [not counted]"
            amount = "" if item.amount is None else f"  → {show(item.amount)}"
            lines.append(f"  {where}{item.text}{amount}{mark}")
        if self.formula:
            lines.append(f"  {self.formula}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "player": self.player,
            "value": points_json(self.value, "typed"),
            "text": self.text(),
            "formula": self.formula,
            "note": self.note,
            "items": [item.to_json() for item in self.items],
        }


def show(value: Number | None) -> str:
    """A value as people write it: ``4``, ``2.5``, ``5.25``, ``1523.33``; ``—`` for none."""
    if value is None:
        return "—"
    if isinstance(value, int):
        return str(value)
    if value.denominator in (1, 2, 4, 8):
        return format_points(value)
    return f"{float(value):.2f}"


def join_sum(parts: list[str]) -> str:
    """``a + b + c`` (``0`` when empty)."""
    return " + ".join(parts) if parts else "0"
