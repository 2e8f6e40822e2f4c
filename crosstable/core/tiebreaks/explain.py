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

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from crosstable.core.scoring import format_points, points_json
from crosstable.core.text import Message

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
    #: whose value it is: a ``player``'s, or a ``team``'s (the team tie-breaks)
    subject: str = "player"

    def text(self) -> str:
        """The walk-through as lines: a :class:`Message`, English as it
        always was, translated piece by piece on the web."""
        value: object = self.shown
        if self.value is not None and show(self.value) == self.shown:
            value = amount(self.value)
        header = (
            Message(
                "{code} of team {team} = {value}", code=self.code, team=self.player, value=value
            )
            if self.subject == "team"
            else Message(
                "{code} of player {player} = {value}",
                code=self.code,
                player=self.player,
                value=value,
            )
        )
        lines: list[object] = [header]
        if self.note:
            lines.append(Message.joined("", ["  ", self.note]))
        for item in self.items:
            pieces: list[object] = ["  "]
            if item.round is not None:
                pieces.append(Message("round {round}: ", round=item.round))
            pieces.append(item.text)
            if item.amount is not None:
                pieces.append(Message("  → {amount}", amount=amount(item.amount)))
            if not item.counted:
                pieces.append(Message("  [not counted]"))
            lines.append(Message.joined("", pieces))
        if self.formula:
            lines.append(Message.joined("", ["  ", self.formula]))
        return Message.joined("\n", lines)

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


class Amount(Fraction):
    """A value put into an explanation's :class:`Message`: the English text writes it as
    :func:`show` does (``2.5``, ``1523.33``), the web as a number in the reader's notation
    (``2,5`` in Russian: the way the explain page already writes the items' amounts).

    >>> str(Message("score {score}", score=Amount(5, 2)))
    'score 2.5'
    """

    def __format__(self, spec: str) -> str:
        return show(Fraction(self)) if not spec else super().__format__(spec)

    def __str__(self) -> str:
        return show(Fraction(self))


class Fixed(Fraction):
    """A value a formula writes with two decimals, as an average or a share: ``1755.20``,
    ``0.50``; on the web in the reader's notation (``1755,20``: only the decimal sign
    changes, see :mod:`crosstable.web.messages`).

    >>> str(Message("= {average}", average=Fixed(8776, 5))), str(Fixed(1, 2))
    ('= 1755.20', '0.50')
    """

    #: the decimals it is written with (what the web's notation keeps)
    decimals = 2

    def __format__(self, spec: str) -> str:
        return f"{float(self):.{self.decimals}f}" if not spec else super().__format__(spec)

    def __str__(self) -> str:
        return format(self, "")


def amount(value: Number | None) -> Amount | str:
    """``value`` as a message's parameter (see :class:`Amount`); ``—`` for none."""
    if value is None:
        return show(None)
    return Amount(value)


def join_sum(parts: Sequence[object]) -> str:
    """``a + b + c`` (``0`` when empty), each part kept (a Message's list)."""
    return Message.joined(" + ", parts) if parts else "0"
