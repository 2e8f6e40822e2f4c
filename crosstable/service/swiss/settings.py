"""A Swiss's settings: the regulations' details it reads, and the bye kinds a player may ask for.

The settings are a :class:`~crosstable.core.system_settings.SwissSettings` (one parser
for the start, the pairing, the wizard and ``crosstable new``).
"""

from __future__ import annotations

from crosstable.core.model import Colour
from crosstable.core.system_settings import SwissSettings, parse_forbidden
from crosstable.service.details import Details

#: requested byes: half-point, zero-point, full-point
BYE_KINDS = {"H": "half-point", "Z": "zero-point", "F": "full-point"}
_COLOURS = {"white": Colour.WHITE, "black": Colour.BLACK}


def swiss_settings(details: Details | None) -> SwissSettings:
    """The settings of a Swiss as stored (another system's detail is not refused here:
    the start and the edits of the regulations refuse those)."""
    return SwissSettings.from_details(details or {}, strict=False)


def initial_colour_of(details: Details) -> Colour:
    """The initial colour the start fixed (white when a tournament has none recorded)."""
    return _COLOURS.get(str(details.get("initial_colour", "")).strip().lower(), Colour.WHITE)


def max_rounds(players: int) -> int:
    """Without a rematch, an even field has N − 1 rounds at most, an odd one N."""
    return players if players % 2 else players - 1


__all__ = ["BYE_KINDS", "initial_colour_of", "max_rounds", "parse_forbidden", "swiss_settings"]
