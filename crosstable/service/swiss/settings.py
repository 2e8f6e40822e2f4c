"""A Swiss's settings: the regulations' details it reads, and the bye kinds a player may ask for."""

from __future__ import annotations

from typing import Any

from crosstable.core.errors import RuleError
from crosstable.core.model import Colour

#: requested byes: half-point, zero-point, full-point
BYE_KINDS = {"H": "half-point", "Z": "zero-point", "F": "full-point"}
_COLOURS = {"white": Colour.WHITE, "black": Colour.BLACK}


# -- the regulations' details ------------------------------------------------------------


def parse_forbidden(text: str) -> tuple[tuple[int, ...], ...]:
    """``"1-2,3-4-5"`` → ((1, 2), (3, 4, 5)): groups of players who may not meet.

    >>> parse_forbidden(" 1-2, 3-4-5 ")
    ((1, 2), (3, 4, 5))
    """
    groups: list[tuple[int, ...]] = []
    for part in text.split(","):
        if not part.strip():
            continue
        members: list[int] = []
        for number in part.split("-"):
            if not number.strip().isdigit():
                raise RuleError(
                    f"forbidden pairs {text!r}: {part.strip()!r} is not like 1-2 "
                    "(starting numbers joined by -, pairs separated by commas)"
                )
            members.append(int(number))
        if len(set(members)) < 2:
            raise RuleError(f"forbidden pairs {text!r}: {part.strip()!r} names one player")
        groups.append(tuple(members))
    return tuple(groups)


def initial_colour_of(details: dict[str, Any]) -> Colour:
    """The initial colour the start fixed (white when a tournament has none recorded)."""
    return _COLOURS.get(str(details.get("initial_colour", "")).strip().lower(), Colour.WHITE)


def check_details(details: dict[str, Any], players: int) -> None:
    colour = str(details.get("initial_colour", "")).strip().lower()
    if colour and colour not in _COLOURS:
        raise RuleError(f"initial colour {colour!r}: use white or black (or leave it to the lot)")
    acceleration = str(details.get("acceleration", "")).strip().lower()
    if acceleration not in ("", "baku"):
        raise RuleError(f"acceleration {acceleration!r}: use baku or none")
    for group in parse_forbidden(str(details.get("forbidden", ""))):
        for start in group:
            if not 1 <= start <= players:
                raise RuleError(
                    f"forbidden pairs: there is no starting number {start} (players 1–{players})"
                )


def max_rounds(players: int) -> int:
    """Without a rematch, an even field has N − 1 rounds at most, an odd one N."""
    return players if players % 2 else players - 1
