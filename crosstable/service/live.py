"""Live standings after each change (R-RR-12): the only coupling to the standings core.

The body stored with the tournament (and sent with in-process notifications) has
the command line's standings shape: ``{"tiebreaks": [...], "rows": [{"start",
"rank", "points", <code>: value…}], "provisional": true}``. Points are JSON
numbers (4.5), computed exactly.
"""

from __future__ import annotations

from typing import Any

from crosstable.core.model import Tournament
from crosstable.core.scoring import format_points


def live_standings(tournament: Tournament) -> dict[str, Any]:
    """The provisional table of ``tournament`` as it stands now."""
    return _points_only(tournament)


def _points_only(tournament: Tournament) -> dict[str, Any]:
    scores = {player.start: tournament.score(player.start) for player in tournament.players}
    order = sorted(scores, key=lambda start: (-scores[start], start))
    rows: list[dict[str, Any]] = []
    rank = 0
    previous = None
    for index, start in enumerate(order, 1):
        if scores[start] != previous:
            rank = index
            previous = scores[start]
        rows.append({"start": start, "rank": rank, "points": _number(format_points(scores[start]))})
    return {"tiebreaks": [], "rows": rows, "provisional": True}


def _number(text: str) -> int | float:
    return float(text) if "." in text else int(text)


def final_places(tournament: Tournament) -> dict[int, int]:
    """Final place by starting number (players the withdrawal rule removes have none)."""
    table = live_standings(tournament)
    return {int(row["start"]): int(row["rank"]) for row in table["rows"]}
