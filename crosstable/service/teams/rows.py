"""A team tournament's rows read into core values: its settings, its teams (members in
board order, numbered by their starting numbers) and the games played."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.model import Tournament
from crosstable.core.teams import Team
from crosstable.core.teams.settings import TeamSettings, is_team_tournament
from crosstable.service.loading import Loaded, player_of
from crosstable.store.models import EntryRow, TournamentRow
from crosstable.store.team_models import LineupRow, TeamMemberRow, TeamRow


@dataclass(frozen=True, slots=True)
class TeamRows:
    """The team rows of one tournament: teams by number, members in board order."""

    teams: tuple[TeamRow, ...]
    members: dict[int, tuple[TeamMemberRow, ...]]

    def team(self, number: int) -> TeamRow:
        for team in self.teams:
            if team.number == number:
                return team
        raise RuleError("there is no team {team}", team=number)

    def team_by_start(self, start: int) -> TeamRow:
        for team in self.teams:
            if team.start == start:
                return team
        raise RuleError("there is no team {team}", team=start)


def settings_of(row: TournamentRow) -> TeamSettings:
    """The team settings; RuleError when the tournament is not played by teams."""
    if not is_team_tournament(row.regulations or {}):
        raise RuleError("tournament {tournament} is not played by teams", tournament=row.id)
    return TeamSettings.from_details(row.regulations)


def team_rows(session: Session, tournament_id: int) -> TeamRows:
    teams = tuple(
        session.scalars(
            select(TeamRow).where(TeamRow.tournament_id == tournament_id).order_by(TeamRow.number)
        )
    )
    members: dict[int, list[TeamMemberRow]] = {team.number: [] for team in teams}
    for member in session.scalars(
        select(TeamMemberRow)
        .where(TeamMemberRow.tournament_id == tournament_id)
        .order_by(TeamMemberRow.team, TeamMemberRow.position)
    ):
        members.setdefault(member.team, []).append(member)
    return TeamRows(teams, {number: tuple(rows) for number, rows in members.items()})


def lineup_rows(session: Session, tournament_id: int, round_number: int) -> list[LineupRow]:
    return list(
        session.scalars(
            select(LineupRow)
            .where(LineupRow.tournament_id == tournament_id, LineupRow.round == round_number)
            .order_by(LineupRow.team, LineupRow.board)
        )
    )


def core_teams(rows: TeamRows, entries: dict[int, EntryRow], settings: TeamSettings) -> list[Team]:
    """The teams as core values, numbered by their drawn numbers (before the draw: the
    order they were added), their members with their entries' starting numbers."""
    ordered = sorted(rows.teams, key=lambda t: (t.start is None, t.start or t.number))
    out = []
    for number, team in enumerate(ordered, 1):
        members = tuple(player_of(entries[m.entry]) for m in rows.members.get(team.number, ()))
        if not members:
            raise RuleError("team {team} has no players", team=team.name)
        captain = entries[team.captain].start if team.captain is not None else None
        boards = settings.boards
        if len(members) < boards:
            raise RuleError(
                "team {team} is short of players: {players} for {boards} boards",
                team=team.name,
                players=len(members),
                boards=boards,
            )
        out.append(Team(number, team.name, members, boards, captain))
    return out


@dataclass(frozen=True, slots=True)
class TeamState:
    """What the team reads need: settings, teams, games (by starting numbers)."""

    settings: TeamSettings
    teams: list[Team]
    games: Tournament
    rows: TeamRows


def team_state(session: Session, row: TournamentRow) -> TeamState:
    settings = settings_of(row)
    loaded = Loaded(session, row)
    rows = team_rows(session, row.id)
    teams = core_teams(rows, loaded.by_number, settings)
    return TeamState(settings, teams, loaded.tournament(), rows)


__all__ = [
    "TeamRows",
    "TeamState",
    "core_teams",
    "lineup_rows",
    "settings_of",
    "team_rows",
    "team_state",
]
