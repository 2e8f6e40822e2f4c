"""The team Swiss's use cases: creating one, its start (the teams numbered by their
initial ranking) and each next round paired from the results stored.

A team Swiss is a Swiss (Dutch) tournament whose regulations say its competitors are
teams and ``team_system: swiss`` (:mod:`crosstable.core.teams.swiss_pair`). Its start
goes through the Swiss's start, which hands it here; ``pair_team_round`` pairs the next
round by the Olympiad Pairing Rules or the Dutch rules, seats every match (each team's
first boards in its board order, board 1 White for the team given White, the colours
alternating down the boards) and gives the bye to the players of the team that has it.
Each change is one event of the history: undo takes a round's pairing back.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select

from crosstable.core.errors import RuleError
from crosstable.core.model import ByeKind, Colour, System
from crosstable.core.pairing.dutch import default_rounds
from crosstable.core.teams import Team, seat_match
from crosstable.core.teams.bughouse import is_bughouse
from crosstable.core.teams.settings import TeamSettings
from crosstable.core.teams.swiss import TeamPairing
from crosstable.core.teams.swiss_pair import pair_teams, team_swiss_request
from crosstable.core.text import Message
from crosstable.service.frame import Change, ChangeFrame, Done
from crosstable.service.registration import Regulations
from crosstable.service.teams.part import Creates
from crosstable.service.teams.rows import (
    TeamRows,
    team_state,
)
from crosstable.service.unit import Tx
from crosstable.store.models import ByeRow, EntryRow, GameRow, RoundRow
from crosstable.store.team_models import LineupRow


class TeamSwissPlay:
    """A team Swiss's own use cases (handed the use case that creates a tournament)."""

    def __init__(self, frame: ChangeFrame, tournaments: Creates) -> None:
        self.frame = frame
        self.tournaments = tournaments

    def create_team_swiss(
        self, name: str, settings: TeamSettings, *, rounds: int | None = None, actor: str = ""
    ) -> Change:
        """A Swiss of teams with ``settings`` (their ``swiss`` part: the pairing and the
        bye); ``rounds`` None: as many as a knockout of the teams."""
        if settings.swiss is None:
            raise RuleError("a team Swiss needs team_system swiss in its settings")
        regulations = Regulations(
            name=name, system=System.SWISS_DUTCH, rounds=rounds, details=settings.to_details()
        )
        return self.tournaments.create_tournament(regulations, actor=actor)

    def pair_team_round(self, tournament_id: int, *, actor: str = "") -> Change:
        """Pair the next round from the results stored and seat its matches."""

        def body(tx: Tx) -> Done:
            row = tx.tournament
            state = team_state(tx.session, row)
            settings = state.settings
            if settings.swiss is None or System(row.system) is not System.SWISS_DUTCH:
                raise RuleError("tournament {tournament} is not a team Swiss", tournament=row.id)
            if is_bughouse(row.regulations or {}):  # (its match rule scores the rounds)
                raise RuleError(
                    "tournament {tournament} is a Bughouse Swiss: pair its rounds as Bughouse "
                    "(crosstable bughouse pair)",
                    tournament=row.id,
                )
            if row.status == "registration":
                raise RuleError("a team Swiss pairs its rounds once it has started")
            number = len(state.games.rounds) + 1
            total = row.rounds_planned or default_rounds(len(state.teams))
            if number > total:
                raise RuleError(
                    "all {rounds} rounds are paired: no round {round}",
                    rounds=total,
                    round=number,
                )
            if row.status != "running":
                raise RuleError("the tournament is finished: no more rounds are paired")
            colour = str((row.regulations or {}).get("initial_colour") or "white")
            request = team_swiss_request(
                state.games,
                state.teams,
                round_number=number,
                total_rounds=total,
                scoring=settings.scoring,
                settings=settings.swiss,
                initial_colour=Colour.BLACK if colour == "black" else Colour.WHITE,
            )
            pairing = pair_teams(request)
            _seat(tx, state.teams, state.rows, pairing)
            return Done(
                Message(
                    "round {round} paired: {matches} matches{bye}",
                    round=number,
                    matches=len(pairing.boards),
                    bye=Message("; team {team} has the bye", team=pairing.bye)
                    if pairing.bye is not None
                    else "",
                ),
                pairing.as_json(),
            )

        return self.frame.change(tournament_id, "team-pair", body, actor=actor)


def _seat(tx: Tx, teams: Sequence[Team], rows: TeamRows, pairing: TeamPairing) -> None:
    """The round's rows: the round, each match's boards, the line-ups, the bye."""
    entries = tx.session.scalars(select(EntryRow).where(EntryRow.tournament_id == tx.tournament_id))
    entry_of = {e.start: e.number for e in entries if e.start is not None}
    number = pairing.round
    tx.insert(RoundRow(number=number, cycle=1))
    tx.flush()
    board = 0
    for white, black in pairing.boards:
        sides = [teams[t - 1].default_lineup(number) for t in (white, black)]
        for game in seat_match(number, board + 1, sides[0].players, sides[1].players):
            tx.insert(
                GameRow(
                    round=number,
                    board=game.board,
                    white=entry_of[game.white],
                    black=entry_of[game.black],
                    result=None,
                    reason="normal",
                    version=1,
                )
            )
        board += len(sides[0].players)
        for lineup in sides:
            team_number = rows.team_by_start(lineup.team).number
            for place, player in enumerate(lineup.players, 1):
                tx.insert(
                    LineupRow(round=number, team=team_number, board=place, entry=entry_of[player])
                )
    if pairing.bye is not None:
        for player in teams[pairing.bye - 1].default_lineup(number).players:
            tx.insert(ByeRow(round=number, player=entry_of[player], kind=ByeKind.PAIRING.value))
    tx.flush()


__all__ = ["TeamSwissPlay"]
