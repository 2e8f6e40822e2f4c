"""The team Swiss: the teams' initial ranking, their history read from the boards, and
the next round paired by FIDE's Olympiad Pairing Rules or by the Dutch rules applied to
teams.

The initial ranking (Olympiad Pairing Rules 2022, 3.1): the average rating of a
team's highest-rated players (as many as the match has boards, four at an Olympiad),
then the rating of the next player (the fifth), then the team's name; a player without
a rating counts the rating floor. The teams keep these pairing numbers to the end.

>>> from crosstable.core.model import Player
>>> def team(n, name, *ratings):
...     players = tuple(Player(10 * n + k, f"p{k}", r) for k, r in enumerate(ratings))
...     return Team(n, name, players, 2)
>>> order = initial_order([team(1, "Sevan", 2000, 2000), team(2, "Ararat", 2100, 1900, 1800),
...                        team(3, "Masis", 2100, 1900, 1700), team(4, "Aragats", 2200, None)])
>>> [t.name for t in order]
['Ararat', 'Masis', 'Sevan', 'Aragats']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from crosstable.core.errors import RuleError
from crosstable.core.model import ByeKind, Colour, Outcome, Tournament
from crosstable.core.teams.matches import Match, TeamScoring, rounds_of_matches
from crosstable.core.teams.roster import Team

#: the rating counted for a player without one (the FIDE rating floor)
RATING_FLOOR = 1400
#: how a team Swiss pairs its rounds
SWISS_PAIRINGS = ("olympiad", "dutch")


def team_rating(team: Team, counted: int | None = None) -> Fraction:
    """The average rating of the team's ``counted`` highest-rated players (by default
    as many as the match has boards); a player without a rating counts the floor.

    >>> from crosstable.core.model import Player
    >>> t = Team(1, "A", (Player(1, "a", 2000), Player(2, "b", None), Player(3, "c", 1900)), 2)
    >>> team_rating(t)
    Fraction(1950, 1)
    """
    ratings = _ratings(team)
    top = ratings[: counted or team.boards]
    return Fraction(sum(top), len(top)) if top else Fraction(0)


def _ratings(team: Team) -> list[int]:
    return sorted((p.rating or RATING_FLOOR for p in team.members), reverse=True)


def ranking_key(team: Team, counted: int | None = None) -> tuple[Fraction, int, str]:
    """What the initial ranking sorts by (smallest first)."""
    ratings = _ratings(team)
    size = counted or team.boards
    next_rating = ratings[size] if len(ratings) > size else 0
    return (-team_rating(team, size), -next_rating, team.name.casefold())


def initial_order(teams: Sequence[Team], counted: int | None = None) -> list[Team]:
    """The teams in the order of their pairing numbers (see the module's text)."""
    return sorted(teams, key=lambda t: ranking_key(t, counted))


@dataclass(frozen=True, slots=True)
class TeamRound:
    """One past round of one team: ``opponent`` None for the bye or an absence;
    ``colour`` the team's colour on its first board; ``played`` False when every board
    was forfeited; ``default_win`` the team won a match its opponent forfeited."""

    opponent: int | None
    colour: Colour
    played: bool
    mp: Fraction
    gp: Fraction
    bye: bool = False
    default_win: bool = False

    def score(self, kind: str) -> Fraction:
        return self.mp if kind == "MP" else self.gp


@dataclass(frozen=True, slots=True)
class SwissTeam:
    """A team as the pairing sees it: its pairing number and its rounds."""

    start: int
    history: tuple[TeamRound, ...] = ()

    def score(self, kind: str) -> Fraction:
        return sum((r.score(kind) for r in self.history), Fraction(0))

    @property
    def colours(self) -> tuple[Colour, ...]:
        """First-board colours of the matches played, in order."""
        return tuple(r.colour for r in self.history if r.played and r.colour is not Colour.NONE)

    @property
    def had_bye(self) -> bool:
        return any(r.bye for r in self.history)

    @property
    def won_by_default(self) -> bool:
        return any(r.default_win for r in self.history)

    @property
    def met(self) -> frozenset[int]:
        """The teams met over the board (a match forfeited on every board is no meeting)."""
        return frozenset(r.opponent for r in self.history if r.opponent is not None and r.played)


@dataclass(frozen=True, slots=True)
class TeamSwissRequest:
    """Everything needed to pair round ``round`` of a team Swiss: the teams numbered
    1…N in their initial ranking, each with ``round - 1`` past rounds."""

    round: int
    total_rounds: int
    teams: tuple[SwissTeam, ...]
    method: str = "olympiad"
    scoring: TeamScoring = field(default_factory=TeamScoring)
    boards: int = 4
    initial_colour: Colour = Colour.WHITE
    absent: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if self.method not in SWISS_PAIRINGS:
            raise RuleError(
                "team Swiss pairing {given}: olympiad or dutch", given=repr(self.method)
            )
        if not 1 <= self.round <= self.total_rounds:
            raise RuleError(
                "round {round} cannot be paired: the event has {rounds} rounds",
                round=self.round,
                rounds=self.total_rounds,
            )
        for index, team in enumerate(self.teams, 1):
            if team.start != index or len(team.history) != self.round - 1:
                raise RuleError(
                    "team {team}: its pairing number or past rounds do not fit round {round}",
                    team=team.start,
                    round=self.round,
                )

    @property
    def primary(self) -> str:
        return self.scoring.primary


@dataclass(frozen=True, slots=True)
class TeamPairing:
    """A round's matches as (team White on board 1, the other team), and the bye."""

    round: int
    boards: tuple[tuple[int, int], ...]
    bye: int | None = None

    def as_json(self) -> dict[str, object]:
        return {
            "round": self.round,
            "matches": [[white, black] for white, black in self.boards],
            "bye": self.bye,
        }


def team_histories(
    games: Tournament,
    teams: Sequence[Team],
    scoring: TeamScoring,
    bye_score: tuple[Fraction, Fraction],
) -> tuple[SwissTeam, ...]:
    """Each team's rounds read from the boards: a match gives the opponent, the first
    board's colour and the scores; a round in which the team's players had the
    pairing-allocated bye is the team's bye (``bye_score``: its match and game points);
    a round without either scores nothing. A match still without every result is
    refused: the next round is paired once the last one is over."""
    rows: dict[int, list[TeamRound]] = {team.start: [] for team in teams}
    owner = {start: team.start for team in teams for start in team.starts}
    worth: dict[Outcome, Fraction] = {}
    for rnd, matches in zip(games.rounds, rounds_of_matches(games, teams), strict=True):
        busy: set[int] = set()
        for match in matches:
            if not match.finished:
                raise RuleError(
                    "round {round}: the match of teams {white} and {black} has boards "
                    "without a result",
                    round=rnd.number,
                    white=match.white,
                    black=match.black,
                )
            gps = _game_points(match, scoring, worth)
            mps = _match_points(gps, scoring)
            played = not match.forfeited
            for k, team in enumerate((match.white, match.black)):
                busy.add(team)
                won = mps[k] > mps[1 - k]
                rows[team].append(
                    TeamRound(
                        match.opponent(team),
                        (Colour.WHITE, Colour.BLACK)[k] if played else Colour.NONE,
                        played,
                        mps[k],
                        gps[k],
                        default_win=won and not played,
                    )
                )
        bye_teams = {
            owner[b.player] for b in rnd.byes if b.kind is ByeKind.PAIRING and b.player in owner
        }
        for team in rows:
            if team in busy:
                continue
            if team in bye_teams:
                rows[team].append(TeamRound(None, Colour.NONE, False, *bye_score, bye=True))
            else:
                rows[team].append(TeamRound(None, Colour.NONE, False, Fraction(0), Fraction(0)))
    return tuple(SwissTeam(team.start, tuple(rows[team.start])) for team in teams)


def _game_points(
    match: Match, scoring: TeamScoring, worth: dict[Outcome, Fraction]
) -> tuple[Fraction, Fraction]:
    """The White and the Black team's game points (each outcome's points looked up once)."""
    system = scoring.game_points
    total = [Fraction(0), Fraction(0)]
    for g in match.games:
        assert g.result is not None  # the match is finished
        for outcome, start in ((g.result.white, g.white), (g.result.black, g.black)):
            points = worth.get(outcome)
            if points is None:
                points = worth[outcome] = outcome.points(system)
            total[0 if match.team_of[start] == match.white else 1] += points
    return total[0], total[1]


def _match_points(
    gps: tuple[Fraction, Fraction], scoring: TeamScoring
) -> tuple[Fraction, Fraction]:
    mp = scoring.match_points
    if gps[0] == gps[1]:
        return mp.draw, mp.draw
    return (mp.win, mp.loss) if gps[0] > gps[1] else (mp.loss, mp.win)


__all__ = [
    "RATING_FLOOR",
    "SWISS_PAIRINGS",
    "SwissTeam",
    "TeamPairing",
    "TeamRound",
    "TeamSwissRequest",
    "initial_order",
    "ranking_key",
    "team_histories",
    "team_rating",
]
