"""The team tournament's use cases: teams and their members before the start, the
line-ups, a match's score checked against its boards, and the team reads (standings
with their explanations, player scores, board prizes).

A team tournament is a round robin whose regulations say its competitors are teams
(:mod:`crosstable.core.teams.settings`); it starts with the round robin's start, which
hands it to :func:`crosstable.service.teams.start.start_team_round_robin`, and its
board results are entered as any game's (``record_result``). Each change here is one
event of the history (undo and revert take it back as any other).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from sqlalchemy import func, select

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.teams import (
    BoardPrize,
    BoardRecord,
    LineUp,
    Match,
    TeamStandings,
    board_prizes,
    check_lineup,
    check_match_score,
    player_scores,
    rounds_of_matches,
    team_standings,
)
from crosstable.core.teams.settings import TeamSettings
from crosstable.core.text import Message
from crosstable.service.errors import NotFoundError
from crosstable.service.frame import Change, ChangeFrame, Done
from crosstable.service.players import PlayerInfo
from crosstable.service.registration import Regulations
from crosstable.service.teams.rows import (
    TeamState,
    lineup_rows,
    settings_of,
    team_rows,
    team_state,
)
from crosstable.service.unit import Tx
from crosstable.store.models import EntryRow, GameRow, TournamentRow
from crosstable.store.team_models import TeamMemberRow, TeamRow


class Creates(Protocol):
    def create_tournament(self, regulations: Regulations, *, actor: str = "") -> Change: ...


@dataclass(frozen=True, slots=True)
class TeamMember:
    entry: int
    start: int | None
    name: str
    rating: int | None
    position: int


@dataclass(frozen=True, slots=True)
class TeamInfo:
    """A team as the reads show it: number (order added), drawn number, members."""

    number: int
    start: int | None
    name: str
    captain: int | None
    members: tuple[TeamMember, ...]


class TeamPlay:
    """Team tournaments' own use cases (handed the use case that creates a tournament)."""

    def __init__(self, frame: ChangeFrame, tournaments: Creates) -> None:
        self.frame = frame
        self.tournaments = tournaments

    # -- before the start --------------------------------------------------------------

    def create_team_tournament(
        self, name: str, settings: TeamSettings, *, cycles: int = 1, actor: str = ""
    ) -> Change:
        """A round robin of teams with ``settings`` (boards, scoring, order, tie-breaks)."""
        regulations = Regulations(
            name=name, system=System.ROUND_ROBIN, cycles=cycles, details=settings.to_details()
        )
        return self.tournaments.create_tournament(regulations, actor=actor)

    def add_team(self, tournament_id: int, name: str, *, actor: str = "") -> Change:
        """A new team (no players yet), numbered after the others."""
        cleaned = " ".join(name.split())

        def body(tx: Tx) -> Done:
            _before_start(tx)
            if not cleaned:
                raise RuleError("a team needs a name")
            rows = team_rows(tx.session, tx.tournament_id)
            for other in rows.teams:
                if other.name.casefold() == cleaned.casefold():
                    raise RuleError("there is a team {team} already", team=repr(other.name))
            number = max((t.number for t in rows.teams), default=0) + 1
            tx.insert(TeamRow(number=number, start=None, name=cleaned, captain=None))
            tx.flush()
            return Done(
                Message("team {number} added: {team}", number=number, team=cleaned),
                {"team": number},
            )

        return self.frame.change(tournament_id, "team-add", body, actor=actor)

    def add_team_member(
        self,
        tournament_id: int,
        team: int,
        player: PlayerInfo,
        *,
        captain: bool = False,
        actor: str = "",
    ) -> Change:
        """A player joins ``team`` at the end of its board order (a new entry of the
        tournament); ``captain``: they captain it."""
        info = player.checked()

        def body(tx: Tx) -> Done:
            _before_start(tx)
            rows = team_rows(tx.session, tx.tournament_id)
            found = rows.team(team)
            session = tx.session
            last = session.scalar(
                select(func.max(EntryRow.number)).where(EntryRow.tournament_id == tx.tournament_id)
            )
            number = (last or 0) + 1
            tx.insert(
                EntryRow(
                    number=number,
                    start=number,
                    name=info.name,
                    rating=info.rating,
                    title=info.title,
                    federation=info.federation,
                    fide_id=info.fide_id,
                    birth_date=info.birth_date,
                    sex=info.sex,
                    club=info.club,
                    team=found.name,
                )
            )
            tx.flush()
            position = len(rows.members.get(team, ())) + 1
            tx.insert(TeamMemberRow(entry=number, team=team, position=position))
            if captain:
                tx.update(found, captain=number)
            tx.flush()
            return Done(
                Message(
                    "{player} joins team {team} on board {position}",
                    player=info.name,
                    team=found.name,
                    position=position,
                ),
                {"entry": number, "team": team, "position": position},
            )

        return self.frame.change(tournament_id, "team-member-add", body, actor=actor)

    # -- the rounds ----------------------------------------------------------------------

    def set_lineup(
        self,
        tournament_id: int,
        round_number: int,
        team: int,
        players: Sequence[int],
        *,
        actor: str = "",
    ) -> Change:
        """``team`` (its drawn number) plays ``round_number`` with ``players`` (starting
        numbers, board 1 first): checked against the board-order rule and seated on the
        match's boards; refused once a board of the match has a result."""

        def body(tx: Tx) -> Done:
            row = tx.tournament
            if row.status != "running":
                raise RuleError("line-ups are given once the tournament has started")
            state = team_state(tx.session, row)
            if not 1 <= team <= len(state.teams):
                raise NotFoundError("there is no team {team}", team=team)
            core = state.teams[team - 1]
            check_lineup(
                core,
                LineUp(round_number, team, tuple(players)),
                free_order=state.settings.free_order,
            )
            match = _match_of(state, round_number, team)
            if any(g.result is not None for g in match.games):
                raise RuleError(
                    "round {round}: the match of team {team} has results; its line-up is fixed",
                    round=round_number,
                    team=team,
                )
            entry_of = {e.start: e.number for e in _entries(tx)}
            games = {
                g.board: g
                for g in tx.session.scalars(
                    select(GameRow).where(
                        GameRow.tournament_id == row.id, GameRow.round == round_number
                    )
                )
            }
            for board_game, player in zip(match.games, players, strict=True):
                game = games[board_game.board]
                side = "white" if match.team_of[board_game.white] == team else "black"
                tx.update(game, **{side: entry_of[player]})
            number = state.rows.team_by_start(team).number
            for lineup in lineup_rows(tx.session, row.id, round_number):
                if lineup.team == number:
                    tx.update(lineup, entry=entry_of[players[lineup.board - 1]])
            tx.flush()
            return Done(
                Message(
                    "round {round}: line-up of team {team} set: {players}",
                    round=round_number,
                    team=core.name,
                    players=", ".join(str(p) for p in players),
                ),
                {"round": round_number, "team": team, "players": list(players)},
            )

        return self.frame.change(tournament_id, "lineup", body, actor=actor)

    # -- the reads ---------------------------------------------------------------------

    def _state(self, tournament_id: int) -> TeamState:
        with self.frame.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise NotFoundError(
                    "there is no tournament {tournament} in this database",
                    tournament=tournament_id,
                )
            return team_state(session, row)

    def team_list(self, tournament_id: int) -> tuple[TeamInfo, ...]:
        """The teams with their members in board order."""
        with self.frame.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise NotFoundError(
                    "there is no tournament {tournament} in this database",
                    tournament=tournament_id,
                )
            settings_of(row)
            rows = team_rows(session, tournament_id)
            entries = {
                e.number: e
                for e in session.scalars(
                    select(EntryRow).where(EntryRow.tournament_id == tournament_id)
                )
            }
            return tuple(
                TeamInfo(
                    t.number,
                    t.start,
                    t.name,
                    t.captain,
                    tuple(
                        TeamMember(
                            m.entry,
                            entries[m.entry].start,
                            entries[m.entry].name,
                            entries[m.entry].rating,
                            m.position,
                        )
                        for m in rows.members.get(t.number, ())
                    ),
                )
                for t in sorted(rows.teams, key=lambda t: (t.start is None, t.start or t.number))
            )

    def team_standings(self, tournament_id: int) -> TeamStandings:
        """The team table with the regulations' team tie-breaks."""
        state = self._state(tournament_id)
        settings = state.settings
        scoring = settings.scoring
        return team_standings(state.games, state.teams, settings.tiebreaks, scoring)

    def team_matches(self, tournament_id: int) -> tuple[tuple[Match, ...], ...]:
        """Every round's matches, board by board."""
        state = self._state(tournament_id)
        return rounds_of_matches(state.games, state.teams)

    def check_match(
        self, tournament_id: int, round_number: int, team: int, score: tuple[Fraction, Fraction]
    ) -> Match:
        """The match of ``team`` in a round, when ``score`` (the White team's game points,
        the Black team's) is what its boards give; else a RuleError naming both."""
        state = self._state(tournament_id)
        match = _match_of(state, round_number, team)
        check_match_score(match, score, state.settings.scoring)
        return match

    def player_scores(self, tournament_id: int) -> tuple[BoardRecord, ...]:
        state = self._state(tournament_id)
        return player_scores(state.games, state.teams)

    def board_prizes(
        self, tournament_id: int, *, min_games: int | None = None
    ) -> tuple[BoardPrize, ...]:
        state = self._state(tournament_id)
        return board_prizes(state.games, state.teams, min_games=min_games)


def _before_start(tx: Tx) -> None:
    settings_of(tx.tournament)
    if tx.tournament.status != "registration":
        raise RuleError("teams and their players are added before the start")


def _entries(tx: Tx) -> list[EntryRow]:
    return list(
        tx.session.scalars(select(EntryRow).where(EntryRow.tournament_id == tx.tournament_id))
    )


def _match_of(state: TeamState, round_number: int, team: int) -> Match:
    rounds = rounds_of_matches(state.games, state.teams)
    if not 1 <= round_number <= len(rounds):
        raise NotFoundError("there is no round {round}", round=round_number)
    for match in rounds[round_number - 1]:
        if team in (match.white, match.black):
            return match
    raise RuleError("round {round}: team {team} has no match", round=round_number, team=team)


__all__ = ["TeamInfo", "TeamMember", "TeamPlay"]
