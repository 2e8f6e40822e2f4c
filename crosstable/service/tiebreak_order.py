"""The tie-break order a tournament publishes in its regulations.

The regulations name the order from the moment the tournament exists, before any lot
is drawn: the tournament's own list, or — when the organiser gave none — the one its
standings will use, its system's default (:func:`crosstable.core.tiebreaks.default_tiebreaks`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from crosstable.core.model import System
from crosstable.core.tiebreaks import default_tiebreaks


def published_tiebreaks(settings: Mapping[str, Any]) -> tuple[str, ...]:
    """The tie-break codes in order, as a tournament's settings (its view's) give them.

    >>> published_tiebreaks({"system": "round-robin", "tiebreaks": ["DE", "SB"]})
    ('DE', 'SB')
    >>> published_tiebreaks({"system": "round-robin", "tiebreaks": []}) == default_tiebreaks(
    ...     System.ROUND_ROBIN)
    True
    >>> published_tiebreaks({"system": "dutch"}) == default_tiebreaks(System.SWISS_DUTCH)
    True
    """
    own = tuple(str(code) for code in settings.get("tiebreaks") or ())
    return own or default_tiebreaks(System(settings.get("system") or System.ROUND_ROBIN.value))
