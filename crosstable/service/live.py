"""Live standings after each change (R-RR-12): the only coupling to the standings core.

The body stored with the tournament (and sent with in-process notifications) is
the standings core's JSON (the command line's shape): ``{"tiebreaks": [...],
"rows": [{"start", "rank", "name", "points", <code>: value…}], "provisional": …}``,
computed exactly and printed as JSON numbers (4.5).
"""

from __future__ import annotations

from typing import Any

from crosstable.core.model import Tournament


def _compute(tournament: Tournament, *, final: bool) -> Any:
    try:
        from crosstable.core.standings import compute_standings
    except ImportError:  # the package's public face may not be there yet
        from crosstable.core.standings.table import compute_standings

    return compute_standings(tournament, withdrawn=sorted(tournament.withdrawn), final=final)


def live_standings(tournament: Tournament) -> dict[str, Any]:
    """The provisional table of ``tournament`` as it stands now."""
    body: dict[str, Any] = _compute(tournament, final=False).to_json()
    return body


def final_places(tournament: Tournament) -> dict[int, int]:
    """Final place by starting number; players the withdrawal rule removes have none."""
    table = _compute(tournament, final=True)
    return {row.start: row.rank for row in table.rows if row.rank is not None and not row.excluded}
