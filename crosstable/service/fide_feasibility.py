"""Before round 1: settings that cannot all be played legally are a level-2 warning.

FIDE's checklist (Q62) wants a warning when the configuration cannot be completed. A
Swiss without rematches has at most N − 1 rounds for an even field of N (N for an odd
one, each player's PAB once), and a player kept apart from others by prohibited pairs
has fewer possible opponents than that. When the number of rounds of a Swiss in FIDE
mode is set before the start and the players registered cannot play them all, the
organiser acknowledges a level-2 warning (the start itself refuses too many rounds for
the field; more players may register before it).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select

from crosstable.core.model import System
from crosstable.core.text import Message
from crosstable.service.details import Details, RegulationsEdit, edited_details
from crosstable.service.fide_mode import in_fide_mode
from crosstable.service.swiss.settings import max_rounds, swiss_settings
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import UNWRITTEN, FideWarning, Level
from crosstable.store.models import EntryRow

#: the code of the warning (level 2; kept in the history, not written to the TRF)
UNPLAYABLE = next(iter(UNWRITTEN))


def shortest_reach(players: int, forbidden: tuple[tuple[int, ...], ...]) -> tuple[int, int]:
    """The player (starting number) with the fewest possible opponents under the
    prohibited pairs, and how many they have.

    >>> shortest_reach(6, ((1, 2), (1, 3))), shortest_reach(4, ())
    ((1, 3), (1, 3))
    """
    kept: dict[int, set[int]] = {start: set() for start in range(1, players + 1)}
    for group in forbidden:
        for a in group:
            for b in group:
                if a != b and a in kept and b in kept:
                    kept[a].add(b)
    start = min(kept, key=lambda s: (-len(kept[s]), s))
    return start, players - 1 - len(kept[start])


def feasibility_warnings(
    tx: Tx, rounds: int | None, details: Details | None, *, leaving: int = 0
) -> list[FideWarning]:
    """The level-2 warnings of ``rounds`` rounds for the players registered so far, less
    ``leaving`` (none outside FIDE mode, for another system, or with fewer than two
    players)."""
    row = tx.tournament
    if row.system != System.SWISS_DUTCH.value or not rounds:
        return []
    if not in_fide_mode(tx.session, row):
        return []
    players = int(
        tx.session.scalar(select(func.count()).where(EntryRow.tournament_id == row.id)) or 0
    )
    players -= leaving
    if players < 2:
        return []
    found = []
    most = max_rounds(players)
    if rounds > most:
        found.append(
            Message(
                "with {players} players registered, {rounds} rounds cannot all be played "
                "without a rematch (at most {most}): the start refuses them unless more "
                "players register",
                players=players,
                rounds=rounds,
                most=most,
            )
        )
    forbidden = swiss_settings(details).forbidden
    if forbidden and rounds <= most:
        start, reach = shortest_reach(players, forbidden)
        if reach < rounds:
            found.append(
                Message(
                    "player {start} may meet only {reach} of the other players (prohibited "
                    "pairs): {rounds} rounds cannot all be played",
                    start=start,
                    reach=reach,
                    rounds=rounds,
                )
            )
    return [
        FideWarning(
            UNPLAYABLE,
            Level.ACKNOWLEDGE,
            message,
            round=1,
        )
        for message in found
    ]


def edit_feasibility(
    tx: Tx, rounds: int | None, changing: Sequence[str], given: RegulationsEdit
) -> list[FideWarning]:
    """Before round 1, the level-2 warnings of an edit that sets the number of rounds or
    changes the prohibited pairs (alone too), with the details the edit leaves."""
    current = tx.tournament.regulations or {}
    details = edited_details(current, given)
    pairs_changed = swiss_settings(details).forbidden != swiss_settings(current).forbidden
    if "rounds" not in changing and not pairs_changed:
        return []
    return feasibility_warnings(tx, rounds, details)


def removal_feasibility(tx: Tx) -> list[FideWarning]:
    """Before round 1, the level-2 warnings of a player removed from a Swiss whose number
    of rounds is set: the smaller field may no longer play them all."""
    row = tx.tournament
    return feasibility_warnings(tx, row.rounds_planned, row.regulations, leaving=1)


__all__ = [
    "UNPLAYABLE",
    "edit_feasibility",
    "feasibility_warnings",
    "removal_feasibility",
    "shortest_reach",
]
