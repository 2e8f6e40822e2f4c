"""Matches: two teams' games in a round, seated board by board and scored.

A team round robin pairs the teams on the FIDE Berger tables (single or double);
each match seats its line-ups board by board: on board 1 the team drawn White has
White, and the colours alternate down the boards. A match's result is its boards'
game points (a forfeited board counts what the point system gives a forfeit); the
match points (2-1-0 by default) go to the team with more game points.

>>> from crosstable.core.model import GameResult
>>> games = seat_match(1, 1, (1, 2), (5, 6))
>>> [(g.board, g.white, g.black) for g in games]
[(1, 1, 5), (2, 6, 2)]
>>> games = (games[0].__class__(1, 1, 1, 5, GameResult.WHITE_WINS()),
...          games[1].__class__(1, 2, 6, 2, GameResult.DRAW()))
>>> Match(1, 1, 1, 2, games, {1: 1, 2: 1, 5: 2, 6: 2}).game_points(TeamScoring())
(Fraction(3, 2), Fraction(1, 2))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from crosstable.core.errors import RuleError
from crosstable.core.model import Game, GameResult, Outcome, Tournament
from crosstable.core.scoring import PointSystem, points_json
from crosstable.core.teams.roster import Team
from crosstable.core.tiebreaks.explain import amount

PRIMARY_SCORES = ("MP", "GP")


@dataclass(frozen=True, slots=True)
class TeamScoring:
    """How matches are scored: match points for a won, drawn and lost match (2-1-0
    by default), the boards' point system, and which score ranks first (``MP``
    match points or ``GP`` game points, by the regulations)."""

    match_points: PointSystem = field(
        default_factory=lambda: PointSystem(Fraction(2), Fraction(1), Fraction(0))
    )
    game_points: PointSystem = field(default_factory=PointSystem)
    primary: str = "MP"
    #: the match points and game points of a team's pairing-allocated bye (a Swiss)
    bye: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0))

    def __post_init__(self) -> None:
        if self.primary not in PRIMARY_SCORES:
            raise RuleError(
                "the primary score is MP (match points) or GP (game points), not {given}",
                given=repr(self.primary),
            )

    @property
    def secondary(self) -> str:
        return "GP" if self.primary == "MP" else "MP"


@lru_cache(maxsize=256)
def worth(outcome: Outcome, system: PointSystem) -> Fraction:
    """What ``outcome`` scores under ``system`` (looked up once per pair)."""
    return outcome.points(system)


def seat_match(
    round_number: int, first_board: int, white_team: Sequence[int], black_team: Sequence[int]
) -> tuple[Game, ...]:
    """The games of a match, numbered from ``first_board``: board 1 of the match has
    the line-up of the team drawn White with White, the colours alternate."""
    if len(white_team) != len(black_team):
        raise RuleError(
            "round {round}: line-ups of {first} and {second} players cannot meet",
            round=round_number,
            first=len(white_team),
            second=len(black_team),
        )
    return tuple(
        Game(round_number, first_board + k, a, b)
        if k % 2 == 0
        else Game(round_number, first_board + k, b, a)
        for k, (a, b) in enumerate(zip(white_team, black_team, strict=True))
    )


@dataclass(frozen=True, slots=True)
class Match:
    """One match: ``white`` is the team drawn White (White on its board 1), ``games``
    its boards in board order, ``team_of`` each player's team."""

    round: int
    table: int
    white: int
    black: int
    games: tuple[Game, ...]
    team_of: Mapping[int, int]

    @property
    def finished(self) -> bool:
        """Every board has a result."""
        return all(g.result is not None and g.result.is_decided for g in self.games)

    def board_points(self, team: int, scoring: TeamScoring) -> tuple[Fraction, ...]:
        """``team``'s points on each board, board 1 first (a board without a result: 0)."""
        system = scoring.game_points
        return tuple(
            worth(g.outcome_of(g.white if self.team_of[g.white] == team else g.black), system)
            for g in self.games
        )

    def game_points(self, scoring: TeamScoring) -> tuple[Fraction, Fraction]:
        """The game points of the White and the Black team."""
        return (
            sum(self.board_points(self.white, scoring), Fraction(0)),
            sum(self.board_points(self.black, scoring), Fraction(0)),
        )

    def card(self, number: int, scoring: TeamScoring) -> dict[str, Any]:
        """The match card as the JSON API and ``crosstable team matches`` write it: round
        ``number``, the teams, the score, whether it is over, and each board."""
        white, black = self.game_points(scoring)
        return {
            "round": number,
            "white": self.white,
            "black": self.black,
            "score": [points_json(white), points_json(black)],
            "finished": self.finished,
            "boards": [
                {
                    "board": g.board,
                    "white": g.white,
                    "black": g.black,
                    "result": g.result.label() if g.result else None,
                }
                for g in self.games
            ],
        }

    def match_points(self, scoring: TeamScoring) -> tuple[Fraction, Fraction]:
        """The match points of the White and the Black team (the match finished)."""
        first, second = self.game_points(scoring)
        mp = scoring.match_points
        if first == second:
            return mp.draw, mp.draw
        return (mp.win, mp.loss) if first > second else (mp.loss, mp.win)

    @property
    def forfeited(self) -> bool:
        """Every board was forfeited."""
        return all(g.result is not None and g.result.is_forfeit for g in self.games)

    def opponent(self, team: int) -> int:
        return self.black if team == self.white else self.white


def check_match_score(
    match: Match, claimed: tuple[Fraction, Fraction], scoring: TeamScoring
) -> None:
    """RuleError when a match score given (White team's, Black team's game points)
    is not what its boards give."""
    given = match.game_points(scoring)
    if given != tuple(claimed):
        raise RuleError(
            (
                "round {round}: the match of teams {white} and {black} is "
                "{claimed_white}–{claimed_black} by the score given, but its boards give "
                "{white_points}–{black_points}"
            ),
            round=match.round,
            white=match.white,
            black=match.black,
            claimed_white=amount(claimed[0]),
            claimed_black=amount(claimed[1]),
            white_points=amount(given[0]),
            black_points=amount(given[1]),
        )


def forfeit_boards(games: Sequence[Game], late: set[int]) -> tuple[Game, ...]:
    """The boards after a late line-up: each board of a late player is lost by forfeit
    (a board where both players are late is lost by both); other boards keep theirs."""
    out = []
    for g in games:
        white_late, black_late = g.white in late, g.black in late
        if not (white_late or black_late):
            out.append(g)
            continue
        white = Outcome.FORFEIT_LOSS if white_late else Outcome.FORFEIT_WIN
        black = Outcome.FORFEIT_LOSS if black_late else Outcome.FORFEIT_WIN
        out.append(replace(g, result=GameResult(white, black)))
    return tuple(out)


def team_of(teams: Sequence[Team]) -> dict[int, int]:
    """Each member's team."""
    return {start: team.start for team in teams for start in team.starts}


def rounds_of_matches(games: Tournament, teams: Sequence[Team]) -> tuple[tuple[Match, ...], ...]:
    """The matches of every round of ``games``: the games between two teams' players
    in a round are their match; the team White on the first of its boards is the team
    drawn White."""
    owner = team_of(teams)
    out = []
    for rnd in games.rounds:
        grouped: dict[frozenset[int], list[Game]] = {}
        for g in sorted(rnd.games, key=lambda g: g.board):
            white, black = owner.get(g.white), owner.get(g.black)
            if white is None or black is None or white == black:
                raise RuleError(
                    "round {round} board {board}: not a game between two teams",
                    round=rnd.number,
                    board=g.board,
                )
            grouped.setdefault(frozenset((white, black)), []).append(g)
        matches: list[Match] = []
        seen: set[int] = set()
        for table, boards in enumerate(grouped.values(), 1):
            white = owner[boards[0].white]
            black = owner[boards[0].black]
            for team in (white, black):
                if team in seen:
                    raise RuleError(
                        "round {round}: team {team} plays two matches",
                        round=rnd.number,
                        team=team,
                    )
                seen.add(team)
            matches.append(Match(rnd.number, table, white, black, tuple(boards), owner))
        out.append(tuple(matches))
    return tuple(out)


__all__ = [
    "PRIMARY_SCORES",
    "Match",
    "TeamScoring",
    "check_match_score",
    "forfeit_boards",
    "rounds_of_matches",
    "seat_match",
    "team_of",
]
