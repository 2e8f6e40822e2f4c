"""What sits in a pairing: a competitor, of a registered kind.

A :class:`Competitor` is known by its starting number, like a player: a single
player, or a team of players in a fixed board order (the first ``boards`` members
play, the rest are reserves). What is played is always games between players (a
:class:`~crosstable.core.model.Tournament`, board by board); a competitor *kind*
says how those games make the competitors' own table — the tournament the pairing
systems pair and the standings rank:

* ``player`` (:data:`PLAYER`): the games are the table (every competitor is one player);
* ``team`` (:data:`TEAM`): the games of two teams in a round are one match, won by the
  team with more game points; the table is a tournament of teams whose games are the
  matches, scored in match points (2-1-0 by default).

So a team round robin is the round robin's schedule, standings and tie-breaks with
another competitor kind, not a copy of them. A new kind is one class with ``name``,
``check`` and ``table``, registered with :func:`register_kind`.

>>> from crosstable.core.model import Game, GameResult, Player, Round, Tournament
>>> players = tuple(Player(n, f"P{n}") for n in range(1, 5))
>>> a = Competitor(1, "Ararat", players[:2], kind="team", boards=2)
>>> b = Competitor(2, "Sevan", players[2:], kind="team", boards=2)
>>> boards = Tournament(players=players, rounds=(Round(1, (
...     Game(1, 1, 1, 3, GameResult.WHITE_WINS()), Game(1, 2, 4, 2, GameResult.DRAW()))),))
>>> table = competitor_kind("team").table(boards, (a, b))
>>> [p.name for p in table.players], table.score(1), table.score(2)
(['Ararat', 'Sevan'], Fraction(2, 1), Fraction(0, 1))
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from crosstable.core.errors import RuleError
from crosstable.core.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Outcome,
    Player,
    Round,
    Settings,
    Tournament,
)
from crosstable.core.scoring import PointSystem


@dataclass(frozen=True, slots=True)
class Competitor:
    """One competitor of a section, known by its starting number ``start``.

    ``members`` are its players in board order (a player competitor: the player
    alone); the first ``boards`` play each round, the others are reserves.
    """

    start: int
    name: str
    members: tuple[Player, ...]
    kind: str = "player"
    boards: int = 1
    rating: int | None = None

    def __post_init__(self) -> None:
        if self.start < 1:
            raise RuleError("starting number {start}: must be 1 or more", start=self.start)
        if not self.members:
            raise RuleError("competitor {start}: no players", start=self.start)
        if not 1 <= self.boards <= len(self.members):
            raise RuleError(
                "competitor {start}: {boards} boards, but {players} players",
                start=self.start,
                boards=self.boards,
                players=len(self.members),
            )

    @property
    def board_players(self) -> tuple[Player, ...]:
        """The members who play, board 1 first."""
        return self.members[: self.boards]

    @property
    def reserves(self) -> tuple[Player, ...]:
        return self.members[self.boards :]

    def as_player(self) -> Player:
        """The competitor as a line of its table (its starting number, name and rating)."""
        return Player(self.start, self.name, self.rating)


class CompetitorKind(Protocol):
    """What a kind of competitor decides: whether a competitor is one of its kind, and
    how the games between players make the table of competitors."""

    @property
    def name(self) -> str:
        """The kind's name, as a competitor's ``kind`` says it."""
        ...

    def check(self, competitor: Competitor) -> None:
        """RuleError when ``competitor`` cannot be of this kind."""
        ...

    def table(self, games: Tournament, competitors: Sequence[Competitor]) -> Tournament:
        """The tournament of the competitors (numbered 1…N) made from ``games``."""
        ...


_KINDS: dict[str, CompetitorKind] = {}


def register_kind(kind: CompetitorKind) -> CompetitorKind:
    """Make ``kind`` available under its name (a second kind of the same name replaces it)."""
    _KINDS[kind.name] = kind
    return kind


def unregister_kind(name: str) -> None:
    """Forget a kind (a plug-in's tests clean up after themselves)."""
    _KINDS.pop(name, None)


def competitor_kind(name: str) -> CompetitorKind:
    """The registered kind called ``name``."""
    try:
        return _KINDS[name]
    except KeyError:
        raise RuleError(
            "unknown competitor kind {kind} (known: {known})",
            kind=repr(name),
            known=", ".join(sorted(_KINDS)),
        ) from None


def competitor_kinds() -> tuple[str, ...]:
    """The names of every registered kind, sorted."""
    return tuple(sorted(_KINDS))


def players_as_competitors(players: Sequence[Player]) -> tuple[Competitor, ...]:
    """Each player as a competitor of the player kind (same starting number)."""
    return tuple(Competitor(p.start, p.name, (p,), rating=p.rating) for p in players)


def check_competitors(kind: CompetitorKind, competitors: Sequence[Competitor]) -> None:
    """Every competitor is of ``kind`` and they are numbered 1…N in order."""
    for number, competitor in enumerate(competitors, 1):
        if competitor.start != number:
            raise RuleError("starting numbers must be 1…N in order, each once")
        if competitor.kind != kind.name:
            raise RuleError(
                "competitor {start} is a {given}, not a {kind}",
                start=competitor.start,
                given=competitor.kind,
                kind=kind.name,
            )
        kind.check(competitor)


class PlayerKind:
    """A competitor is one player; the games are the table."""

    name = "player"

    def check(self, competitor: Competitor) -> None:
        if len(competitor.members) != 1:
            raise RuleError(
                "competitor {start}: a player competitor has one player",
                start=competitor.start,
            )

    def table(self, games: Tournament, competitors: Sequence[Competitor]) -> Tournament:
        check_competitors(self, competitors)
        if competitors and [c.members[0].start for c in competitors] != [
            c.start for c in competitors
        ]:
            raise RuleError("a player competitor has the starting number of its player")
        return games


@dataclass(frozen=True, slots=True)
class TeamKind:
    """A competitor is a team; two teams' games in a round are one match.

    A match is won by the team with more game points (a forfeited board counts what
    the point system gives it); ``match_points`` scores the matches (2-1-0 by
    default). A team whose playing members all have a pairing-allocated bye in a
    round has the team's bye; the match's board-1 White is the team listed White.
    """

    name: str = "team"
    match_points: PointSystem = field(
        default_factory=lambda: PointSystem(Fraction(2), Fraction(1), Fraction(0))
    )

    def check(self, competitor: Competitor) -> None:
        if competitor.boards < 1:
            raise RuleError("team {start}: no boards", start=competitor.start)

    def table(self, games: Tournament, competitors: Sequence[Competitor]) -> Tournament:
        check_competitors(self, competitors)
        team_of: dict[int, int] = {}
        for team in competitors:
            for player in team.members:
                if player.start in team_of:
                    raise RuleError("player {start} is in two teams", start=player.start)
                team_of[player.start] = team.start
        system = games.settings.point_system
        rounds = tuple(self._round(rnd, team_of, competitors, system) for rnd in games.rounds)
        settings = Settings(
            system=games.settings.system,
            cycles=games.settings.cycles,
            point_system=self.match_points,
            tiebreaks=games.settings.tiebreaks,
            withdrawal_rule=games.settings.withdrawal_rule,
            rules=games.settings.rules,
            rounds=games.settings.rounds,
            forfeits_in_tiebreaks=games.settings.forfeits_in_tiebreaks,
        )
        return Tournament(
            settings=settings,
            players=tuple(c.as_player() for c in competitors),
            rounds=rounds,
            name=games.name,
        )

    def _round(
        self,
        rnd: Round,
        team_of: dict[int, int],
        competitors: Sequence[Competitor],
        system: PointSystem,
    ) -> Round:
        matches: dict[tuple[int, int], list[Game]] = {}
        for game in sorted(rnd.games, key=lambda g: g.board):
            white, black = team_of.get(game.white), team_of.get(game.black)
            if white is None or black is None:
                raise RuleError(
                    "round {round} board {board}: a player of no team",
                    round=rnd.number,
                    board=game.board,
                )
            if white == black:
                raise RuleError(
                    "round {round} board {board}: two players of one team",
                    round=rnd.number,
                    board=game.board,
                )
            key = (white, black) if (black, white) not in matches else (black, white)
            matches.setdefault(key, []).append(game)
        played: set[int] = set()
        team_games: list[Game] = []
        for table, ((first, second), boards) in enumerate(matches.items(), 1):
            for team in (first, second):
                if team in played:
                    raise RuleError(
                        "round {round}: team {team} plays two matches",
                        round=rnd.number,
                        team=team,
                    )
                played.add(team)
            result = match_result(boards, first, team_of, system)
            team_games.append(Game(rnd.number, table, first, second, result))
        byes = tuple(
            Bye(rnd.number, team.start, ByeKind.PAIRING)
            for team in competitors
            if team.start not in played and _all_have_pab(rnd, team)
        )
        return Round(rnd.number, tuple(team_games), byes, rnd.date)


def _all_have_pab(rnd: Round, team: Competitor) -> bool:
    pab = {b.player for b in rnd.byes if b.kind is ByeKind.PAIRING}
    return all(p.start in pab for p in team.board_players)


def match_result(
    boards: Sequence[Game], first: int, team_of: dict[int, int], system: PointSystem
) -> GameResult | None:
    """The match of ``first`` (listed White) against the other team, from its boards:
    None while a board has no result; a forfeit when every board was forfeited."""
    points = {True: Fraction(0), False: Fraction(0)}
    forfeits = True
    for game in boards:
        if game.result is None or not game.result.is_decided:
            return None
        forfeits = forfeits and game.result.is_forfeit
        for start in (game.white, game.black):
            points[team_of[start] == first] += game.outcome_of(start).points(system)
    mine, theirs = points[True], points[False]
    if forfeits:
        win, loss = Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS
        if mine == theirs:
            return GameResult(loss, loss)
    else:
        win, loss = Outcome.WIN, Outcome.LOSS
        if mine == theirs:
            return GameResult.DRAW()
    return GameResult(win, loss) if mine > theirs else GameResult(loss, win)


def team_game_points(games: Tournament, team: Competitor) -> Fraction:
    """A team's game points: the sum of its members' points."""
    return sum((games.score(p.start) for p in team.members), Fraction(0))


def iter_members(competitors: Sequence[Competitor]) -> Iterator[tuple[Competitor, Player]]:
    """Every (competitor, member) pair in starting and board order."""
    for competitor in competitors:
        for member in competitor.members:
            yield competitor, member


PLAYER = register_kind(PlayerKind())
TEAM = register_kind(TeamKind())

__all__ = [
    "PLAYER",
    "TEAM",
    "Competitor",
    "CompetitorKind",
    "PlayerKind",
    "TeamKind",
    "check_competitors",
    "competitor_kind",
    "competitor_kinds",
    "iter_members",
    "match_result",
    "players_as_competitors",
    "register_kind",
    "team_game_points",
    "unregister_kind",
]
