"""A team Swiss round paired by the Dutch rules (C.04.3) with teams as the competitors,
where the regulations ask for it: the individual Dutch engine pairs the teams, each
team's pairing number its initial ranking (the average rating of its top boards), its
score the primary score (match points or game points), its colour its first board's.

A team's past matches become the engine's rounds: a match played (at least one board
over the board) is a game with the first board's colour; a match forfeited on every
board is a forfeit; the team's bye is the pairing-allocated bye; a round without a match
is an absence.

>>> from crosstable.core.teams.swiss import SwissTeam, TeamSwissRequest
>>> request = TeamSwissRequest(1, 3, tuple(SwissTeam(n) for n in range(1, 6)), method="dutch")
>>> dutch_team_pairing(request)
TeamPairing(round=1, boards=((1, 3), (4, 2)), bye=5)
"""

from __future__ import annotations

from fractions import Fraction

from crosstable.core.pairing.dutch import Competitor, PairingRequest, RoundRecord, pair_round
from crosstable.core.teams.swiss import TeamPairing, TeamRound, TeamSwissRequest


def dutch_team_pairing(request: TeamSwissRequest) -> TeamPairing:
    """The Dutch engine's pairing of the teams (see the module's text)."""
    kind = request.primary
    if kind == "MP":
        mp = request.scoring.match_points
        win, draw, loss = mp.win, mp.draw, mp.loss
    else:
        points = request.scoring.game_points
        boards = request.boards
        win, draw, loss = boards * points.win, boards * points.draw, boards * points.loss
    competitors = tuple(
        Competitor(team.start, tuple(_record(r, kind) for r in team.history))
        for team in request.teams
    )
    pairing = pair_round(
        PairingRequest(
            request.round,
            request.total_rounds,
            competitors,
            initial_colour=request.initial_colour,
            absent=request.absent,
            win=win,
            draw=draw,
            loss=loss,
        )
    )
    return TeamPairing(request.round, pairing.boards, pairing.bye)


def _record(r: TeamRound, kind: str) -> RoundRecord:
    points: Fraction = r.score(kind)
    if r.bye:
        return RoundRecord.pairing_bye(points)
    if r.opponent is None:
        return RoundRecord.absence(points)
    if r.played:
        return RoundRecord.game(r.opponent, r.colour, points)
    return RoundRecord.forfeit(r.opponent, points)


__all__ = ["dutch_team_pairing"]
