"""The rank column (86–89) against the standings computed with the declared tie-breaks.

The standings are ranked by points and then the tie-break list the file declares
(record 212, else 202, else the regulations' list); without a declared list the
places are not checked, as nothing says how the file ranked them. A
group still tied after the whole list occupies a run of places, and the file may
order it any way (by lot, by the regulations' last resort): a rank inside the
run is right. Each rank outside it is a finding, with the player's points and
tie-break values and the criterion that separates them from the player the
order puts at that place.
"""

from __future__ import annotations

from crosstable.core.checker.declared import Declared
from crosstable.core.checker.findings import Finding, RankCheck
from crosstable.core.model import Tournament
from crosstable.core.standings.table import Row, Standings, compute_standings
from crosstable.core.tiebreaks.explain import show

__all__ = ["check_ranks", "last_round", "values_text"]


def last_round(tournament: Tournament) -> int:
    """The last round with a game or a bye: the round the file's places belong to."""
    return max((r.number for r in tournament.rounds if r.games or r.byes), default=0)


def check_ranks(tournament: Tournament, declared: Declared) -> RankCheck:
    """Each rank of the file outside the places the tie-break order gives."""
    codes = declared.tiebreaks or tournament.settings.tiebreaks
    after = last_round(tournament)
    given = {start: rank for start, rank in declared.ranks.items() if rank is not None}
    if not given or not codes:
        return RankCheck(tuple(codes or ()), False, after)
    planned = tournament.settings.rounds
    final = planned is None or after >= planned
    standings = compute_standings(tournament, codes, final=final)
    runs: dict[int, int] = {}
    for row in standings.rows:
        if row.rank is not None:
            runs[row.rank] = runs.get(row.rank, 0) + 1
    at_place: dict[int, Row] = {}
    for row in standings.rows:
        if row.rank is not None:
            for place in range(row.rank, row.rank + runs[row.rank]):
                at_place.setdefault(place, row)
    findings = []
    for row in standings.rows:
        rank = given.get(row.start)
        if rank is None:
            continue
        if row.rank is None:
            message = (
                f"player {row.start} is placed {rank} in the file; the withdrawal rule "
                "leaves them out of the standings"
            )
            findings.append(Finding("rank", message, after, (row.start,)))
            continue
        low, high = row.rank, row.rank + runs[row.rank] - 1
        if low <= rank <= high:
            continue
        places = str(low) if low == high else f"{low}–{high}"
        message = (
            f"player {row.start} is placed {rank} in the file; the tie-break order places "
            f"them {places} ({values_text(standings, row)})"
        )
        other = at_place.get(rank)
        if other is not None and other.rank != row.rank:
            message += f"; {standings.why(row.start, other.start)}"
        players = (row.start,) if other is None else (row.start, other.start)
        findings.append(Finding("rank", message, after, players))
    return RankCheck(standings.tiebreaks, True, after, tuple(findings))


def values_text(standings: Standings, row: Row) -> str:
    """``4 points, BH/C1 12.5, BH 14``: a row's points and tie-break values."""
    parts = [f"{show(row.points)} points"]
    for code, value in zip(standings.tiebreaks, row.values, strict=True):
        if code != "PTS":
            parts.append(f"{code} {show(value)}")
    return ", ".join(parts)
