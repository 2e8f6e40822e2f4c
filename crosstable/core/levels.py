"""Classes and levels of players: the portal's register, from rating bands or set by the
administrator for a player.

The administrator names the levels by rating bands — ``Level 1: 0-1199; Level 2:
1200-1599; Level 3: 1600-`` (a band without an upper end is open) — and may set a
player's level by hand (a player without a rating, or the portal's own rule). A
player's level is the one set by hand, else the band their rating falls in; an unrated
player has none until it is set. A class or
level tournament accepts only players of its level and runs with at least
:data:`MIN_PLAYERS` of them.

>>> levels = Levels.parse("Level 1: 0-1199; Level 2: 1200-1599; Level 3: 1600-")
>>> levels.level_of(1450), levels.level_of(2100), levels.level_of(None)
('Level 2', 'Level 3', None)
>>> levels.level_of(1450, assigned="level 3")
'Level 3'
>>> levels.text()
'Level 1: 0-1199; Level 2: 1200-1599; Level 3: 1600-'
>>> Levels.parse("").bands
()
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from crosstable.core.errors import RuleError

#: a class or level tournament runs with at least this many players of its level
MIN_PLAYERS = 11
#: at most this many levels, names of at most this many characters
MAX_LEVELS = 50
MAX_NAME = 80
#: the rating range a band may cover (0: unrated)
LOWEST, HIGHEST = 0, 4000

_BAND = re.compile(r"^(?P<name>[^:]+):\s*(?P<low>\d{1,4})\s*-\s*(?P<high>\d{1,4})?$")


@dataclass(frozen=True, slots=True)
class Band:
    """One level: its name and the ratings it covers (``high`` None: no upper end)."""

    name: str
    low: int
    high: int | None = None

    def covers(self, rating: int) -> bool:
        return self.low <= rating and (self.high is None or rating <= self.high)

    def text(self) -> str:
        return f"{self.name}: {self.low}-{'' if self.high is None else self.high}"

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "low": self.low, "high": self.high}


@dataclass(frozen=True, slots=True)
class Levels:
    """The register: the bands in rating order (none: the portal keeps no levels)."""

    bands: tuple[Band, ...] = ()

    @staticmethod
    def parse(text: str) -> Levels:
        """``"name: low-high; …"`` (lines or semicolons), checked."""
        if len(text) > MAX_LEVELS * (MAX_NAME + 12):
            raise RuleError("levels: the text is too long")
        bands = []
        for number, part in enumerate(
            (p.strip() for p in re.split(r"[;\n]", text) if p.strip()), start=1
        ):
            match = _BAND.match(part)
            if match is None:
                raise RuleError(
                    "levels: band {number} ({text}) is not written as name: low-high",
                    number=number,
                    text=repr(part[:60]),
                )
            high = None if match["high"] is None else int(match["high"])
            bands.append(Band(match["name"].strip(), int(match["low"]), high))
        return Levels.of(bands)

    @staticmethod
    def from_json(value: Any) -> Levels:
        """A list of ``{"name", "low", "high"}`` (as :meth:`as_json` writes it), checked."""
        if not isinstance(value, Sequence) or isinstance(value, (str, bytes)):
            raise RuleError("levels: a list of bands is expected")
        if len(value) > MAX_LEVELS:  # before any band is read
            raise RuleError("levels: at most {most} levels", most=MAX_LEVELS)
        bands = []
        for number, item in enumerate(value, start=1):
            if not isinstance(item, Mapping):
                raise RuleError("levels: band {number} is not an object", number=number)
            name, low, high = item.get("name"), item.get("low", 0), item.get("high")
            if not isinstance(name, str) or not _whole(low) or not (high is None or _whole(high)):
                raise RuleError(
                    "levels: band {number} needs a name and whole ratings low and high",
                    number=number,
                )
            bands.append(Band(name.strip(), int(low), None if high is None else int(high)))
        return Levels.of(bands)

    @staticmethod
    def of(bands: Iterable[Band]) -> Levels:
        """The bands checked: names given and different, ranges inside the rating scale,
        no two overlapping; sorted by rating."""
        found = sorted(bands, key=lambda b: b.low)
        if len(found) > MAX_LEVELS:
            raise RuleError("levels: at most {most} levels", most=MAX_LEVELS)
        seen: set[str] = set()
        for band in found:
            if not band.name or len(band.name) > MAX_NAME:
                raise RuleError("levels: a level's name has 1 to {most} characters", most=MAX_NAME)
            if band.name.casefold() in seen:
                raise RuleError("levels: {name} is named twice", name=band.name)
            seen.add(band.name.casefold())
            top = HIGHEST if band.high is None else band.high
            if not LOWEST <= band.low <= top <= HIGHEST:
                raise RuleError(
                    "levels: {name} covers {low}-{high}; ratings run from {lowest} to {highest}, "
                    "low first",
                    name=band.name,
                    low=band.low,
                    high="" if band.high is None else band.high,
                    lowest=LOWEST,
                    highest=HIGHEST,
                )
        for lower, upper in pairwise(found):
            if lower.high is None or lower.high >= upper.low:
                raise RuleError(
                    "levels: {first} and {second} overlap", first=lower.name, second=upper.name
                )
        return Levels(tuple(found))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(band.name for band in self.bands)

    def named(self, name: str) -> str | None:
        """The level called ``name`` (letter case aside), as the register spells it."""
        wanted = name.strip().casefold()
        return next((n for n in self.names if n.casefold() == wanted), None)

    def by_rating(self, rating: int | None) -> str | None:
        """The band a rating falls in; an unrated player (None or 0) has no level by
        rating: an administrator sets it."""
        if not rating:
            return None
        return next((band.name for band in self.bands if band.covers(rating)), None)

    def level_of(self, rating: int | None, assigned: str | None = None) -> str | None:
        """A player's level: the one set by hand (when it is a level), else by rating."""
        if assigned:
            named = self.named(assigned)
            if named is not None:
                return named
        return self.by_rating(rating)

    def text(self) -> str:
        return "; ".join(band.text() for band in self.bands)

    def as_json(self) -> list[dict[str, Any]]:
        return [band.as_json() for band in self.bands]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


__all__ = ["MIN_PLAYERS", "Band", "Levels"]
