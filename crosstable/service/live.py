"""Live standings after each change (R-RR-12): the only coupling to the standings core.

The body stored with the tournament (and sent with in-process notifications) is
the standings core's JSON (the command line's shape): ``{"tiebreaks": [...],
"rows": [{"start", "rank", "name", "points", <code>: value…}], "provisional": …}``,
computed exactly and printed as JSON numbers (4.5).

A service keeps each tournament's :class:`LiveStandings` between changes: when the
next change is only game results and nobody else changed the tournament meanwhile
(its revision is the one the table was built at), the table is updated for those
games alone; otherwise it is rebuilt from the database.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from crosstable.core.model import GameResult, Outcome, Tournament
from crosstable.core.standings import compute_standings
from crosstable.core.standings.live import LiveStandings

#: game columns whose change the live table can take in one step
_RESULT_COLUMNS = frozenset({"result", "reason", "white_report", "black_report"})


@dataclass
class LiveTable:
    """One tournament's live table, valid at ``revision``."""

    revision: int
    standings: LiveStandings
    #: (round, board) → (white, black) starting numbers
    boards: dict[tuple[int, int], tuple[int, int]]


class LiveTables:
    """The live tables a service keeps between changes (thread-safe)."""

    def __init__(self) -> None:
        self._tables: dict[int, LiveTable] = {}
        self._lock = threading.Lock()

    def checkout(self, tournament_id: int) -> LiveTable | None:
        """Take a table out while a change uses it (it goes back only if the change commits)."""
        with self._lock:
            return self._tables.pop(tournament_id, None)

    def checkin(self, tournament_id: int, table: LiveTable) -> None:
        with self._lock:
            self._tables[tournament_id] = table


def refresh(
    table: LiveTable | None,
    revision: int,
    changes: list[dict[str, Any]],
    load: Callable[[], Tournament | None],
) -> tuple[dict[str, Any] | None, LiveTable | None]:
    """The standings body after a change at ``revision``, and the table to keep."""
    if table is not None and table.revision == revision - 1 and _results_only(changes):
        for change in changes:
            if "result" in change["after"]:
                spot = (change["key"]["round"], change["key"]["board"])
                white, black = table.boards[spot]
                table.standings.record(spot[0], white, black, _result(change["after"]["result"]))
        table.revision = revision
        return _json(table.standings), table
    tournament = load()
    if tournament is None:
        return None, None
    live = LiveStandings(tournament, withdrawn=sorted(tournament.withdrawn))
    boards = {
        (rnd.number, game.board): (game.white, game.black)
        for rnd in tournament.rounds
        for game in rnd.games
    }
    kept = LiveTable(revision, live, boards)
    return _json(live), kept


def live_standings(tournament: Tournament) -> dict[str, Any]:
    """The provisional table of ``tournament`` as it stands now (computed whole)."""
    body: dict[str, Any] = compute_standings(
        tournament, withdrawn=sorted(tournament.withdrawn), final=False
    ).to_json()
    return body


def final_places(tournament: Tournament) -> dict[int, int]:
    """Final place by starting number; players the withdrawal rule removes have none."""
    table = compute_standings(tournament, withdrawn=sorted(tournament.withdrawn), final=True)
    return {row.start: row.rank for row in table.rows if row.rank is not None and not row.excluded}


def _json(live: LiveStandings) -> dict[str, Any]:
    body: dict[str, Any] = live.standings().to_json()
    return body


def _results_only(changes: list[dict[str, Any]]) -> bool:
    return bool(changes) and all(
        change["table"] == "games"
        and change["before"] is not None
        and change["after"] is not None
        and set(change["after"]) <= _RESULT_COLUMNS
        for change in changes
    )


def _result(code: str | None) -> GameResult | None:
    return None if code is None else GameResult(Outcome(code[0]), Outcome(code[1]))
