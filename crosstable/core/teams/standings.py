"""Team standings: the primary score, then the team tie-breaks in the order given.

Teams are ordered by the primary score (match points or game points, by the
regulations), then each tie-break splits the teams still tied, in turn; teams tied
on everything share the place and are listed by starting number.

>>> from crosstable.core.model import Player, Tournament
>>> teams = [Team(n, f"T{n}", (Player(2 * n - 1, "a"), Player(2 * n, "b")), 2) for n in (1, 2)]
>>> [row.place for row in team_standings(Tournament(players=()), teams).rows]
[1, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from crosstable.core.model import Tournament
from crosstable.core.teams.matches import TeamScoring
from crosstable.core.teams.records import TeamField, team_field
from crosstable.core.teams.roster import Team
from crosstable.core.teams.tiebreaks import (
    GroupTieBreak,
    TeamTieBreak,
    team_tiebreak,
)
from crosstable.core.tiebreaks.explain import Explanation

#: the order used when the regulations name none
DEFAULT_TEAM_TIEBREAKS = ("GP", "EDE", "EMGSB", "BC")


@dataclass(frozen=True, slots=True)
class TeamRow:
    place: int
    team: int
    name: str
    mp: Fraction
    gp: Fraction
    values: tuple[Fraction | None, ...]  # one per tie-break (None: decided in the group)


@dataclass(frozen=True, slots=True)
class TeamStandings:
    rows: tuple[TeamRow, ...]
    tiebreaks: tuple[str, ...]
    primary: str
    field: TeamField

    def explain(self, team: int, code: str) -> Explanation:
        """How one team's value of one tie-break was made."""
        return team_tiebreak(code).explain(self.field, team)


def _split(groups: list[list[int]], f: TeamField, tb: TeamTieBreak) -> list[list[int]]:
    out: list[list[int]] = []
    for group in groups:
        if len(group) < 2:
            out.append(group)
            continue
        if isinstance(tb, GroupTieBreak):
            out.extend(tb.split(f, group))
            continue
        keys = {t: tb.key(f, t) for t in group}
        order = sorted(set(keys.values()), reverse=tb.higher_is_better)
        out.extend([t for t in group if keys[t] == k] for k in order)
    return out


def rank_field(f: TeamField, codes: Sequence[str]) -> list[list[int]]:
    """The teams in groups, best first: each group tied on everything."""
    primary = team_tiebreak(f.primary)
    groups = _split([sorted(f.records)], f, primary)
    for code in codes:
        groups = _split(groups, f, team_tiebreak(code))
    return groups


def team_standings(
    games: Tournament,
    teams: Sequence[Team],
    tiebreaks: Sequence[str] = DEFAULT_TEAM_TIEBREAKS,
    scoring: TeamScoring | None = None,
) -> TeamStandings:
    """The team table of ``games``."""
    scoring = scoring or TeamScoring(game_points=games.settings.point_system)
    f = team_field(games, teams, scoring)
    codes = tuple(team_tiebreak(code).code for code in tiebreaks)
    names = {team.start: team.name for team in teams}
    rows: list[TeamRow] = []
    for group in rank_field(f, codes):
        place = len(rows) + 1
        for team in group:
            values = tuple(
                None
                if isinstance(team_tiebreak(c), GroupTieBreak)
                else team_tiebreak(c).value(f, team)
                for c in codes
            )
            record = f.records[team]
            rows.append(TeamRow(place, team, names[team], record.mp, record.gp, values))
    return TeamStandings(tuple(rows), codes, scoring.primary, f)


__all__ = ["DEFAULT_TEAM_TIEBREAKS", "TeamRow", "TeamStandings", "rank_field", "team_standings"]
