"""The tie-break protocol and the registry keyed by FIDE code.

Every tie-break is one small class registered with :func:`register`. It
computes a :class:`Column` — one value per player, kept as an integer (or an
exact fraction) over a ``denominator`` so that ranking compares exact numbers
— and explains any single value.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, TypeVar

from crosstable.core.model import RulesEdition
from crosstable.core.tiebreaks.explain import Explanation, Number, show
from crosstable.core.tiebreaks.field import Field, fraction
from crosstable.core.tiebreaks.spec import KNOWN, TieBreakSpec

Value = int | Fraction


@dataclass(slots=True)
class Column:
    """One tie-break's values for every player (index = starting number − 1)."""

    spec: TieBreakSpec
    values: list[Value | None]
    denominator: int = 1
    higher_is_better: bool = True
    integral: bool = False
    dropped: str | None = None  # why the tie-break does not apply (every value is None)

    def natural(self, p: int) -> Number | None:
        """The exact value of player index ``p`` (None when it does not apply)."""
        v = self.values[p]
        if v is None:
            return None
        if self.integral and self.denominator == 1 and isinstance(v, int):
            return v
        if isinstance(v, int):
            return fraction(v, self.denominator)
        return v / self.denominator

    def key(self, p: int) -> Value | float:
        """Sort key: smaller is better; a missing value sorts last."""
        v = self.values[p]
        if v is None:
            return _LAST
        return -v if self.higher_is_better else v


_LAST = float("inf")


@dataclass(frozen=True, slots=True)
class Change:
    """One game's result changed: its two players (then the players of byes that entered
    or left the table with it), with their scores before the change."""

    players: tuple[int, ...]
    old_score: dict[int, int]
    old_adjusted: dict[int, int]


class TieBreak:
    """Base of every tie-break; subclasses set the class attributes and ``values``."""

    name: ClassVar[str]
    title: ClassVar[str]
    article: ClassVar[str]  # C.07 article
    tb_type: ClassVar[str]  # C.07 4.3 type: A, B, C, D or a combination
    modifiers: ClassVar[frozenset[str]] = frozenset()  # the letters of spec.py
    higher_is_better: ClassVar[bool] = True
    integral: ClassVar[bool] = False
    # What a new result disturbs: "self" (the two players), "opponents" (their
    # opponents too), "field" (anyone), "group" (decided at ranking time: DE).
    scope: ClassVar[str] = "self"

    def denominator(self, f: Field, spec: TieBreakSpec) -> int:
        return 1

    def applies(self, f: Field, spec: TieBreakSpec) -> str | None:
        """Why the tie-break does not apply to this field (None: it applies)."""
        return None

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        raise NotImplementedError

    def compute(self, f: Field, spec: TieBreakSpec) -> Column:
        reason = self.applies(f, spec)
        higher = self.higher_is_better != spec.reverse
        if reason is not None:
            return Column(spec, [None] * f.n, 1, higher, self.integral, reason)
        return Column(spec, self.values(f, spec), self.denominator(f, spec), higher, self.integral)

    def player_value(self, f: Field, spec: TieBreakSpec, p: int) -> Value | None:
        """One player's value (subclasses with a cheap per-player form override this)."""
        return self.values(f, spec)[p]

    def update(self, f: Field, spec: TieBreakSpec, column: Column, change: Change) -> None:
        """Bring ``column`` up to date after one game's result changed (the live table).

        Only the values the new result can touch are recomputed: the two players
        ("self"), also their opponents ("opponents"), or everyone ("field").
        """
        if column.dropped is not None or self.scope == "group":
            return
        if self.scope == "field":
            column.values[:] = self.values(f, spec)
            return
        targets = set(change.players)
        if self.scope == "opponents":
            for p in change.players:
                targets.update(o for o in f.opp[p] if o >= 0)
        for p in targets:
            column.values[p] = self.player_value(f, spec, p)

    def explain(self, f: Field, spec: TieBreakSpec, p: int) -> Explanation:
        column = self.compute(f, spec)
        value = column.natural(p)
        return Explanation(spec.code, p + 1, value, show(value), note=column.dropped or "")


def edition(f: Field, spec: TieBreakSpec) -> RulesEdition:
    """The C.07 edition for this tie-break: its /V modifier, else the tournament's."""
    return spec.edition or f.edition


REGISTRY: dict[str, TieBreak] = {}

T = TypeVar("T", bound=type[TieBreak])


def register(cls: T) -> T:
    """Class decorator: make the tie-break available under its FIDE code."""
    REGISTRY[cls.name] = cls()
    KNOWN[cls.name] = cls.modifiers
    return cls


def tiebreak(spec: TieBreakSpec) -> TieBreak:
    return REGISTRY[spec.name]
