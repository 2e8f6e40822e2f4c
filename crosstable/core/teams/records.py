"""Each team's matches as rows: what the team tie-breaks are computed from.

A :class:`TeamRecord` holds one :class:`MatchRow` per round of the tournament
played so far: the opponent, the match points and game points the team scored, its
points board by board, and whether the match was forfeited on every board. A round
in which the team had no match (the free round of an odd number of teams) is a row
without an opponent that scores nothing, once a match of that round is over; the
pairing-allocated bye of a team Swiss (its players' byes) scores what the scoring gives
it. A match still being played has no row yet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from crosstable.core.model import ByeKind, Tournament
from crosstable.core.teams.matches import TeamScoring, rounds_of_matches
from crosstable.core.teams.roster import Team


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One round of one team: ``opponent`` None when it had no match."""

    round: int
    opponent: int | None
    mp: Fraction
    gp: Fraction
    boards: tuple[Fraction, ...] = ()
    forfeit: bool = False

    def score(self, kind: str) -> Fraction:
        """Match points (``MP``) or game points (``GP``) scored in this round."""
        return self.mp if kind == "MP" else self.gp


@dataclass(frozen=True, slots=True)
class TeamRecord:
    """A team's rows, round by round."""

    team: int
    rows: tuple[MatchRow, ...]
    mp: Fraction = field(init=False)
    gp: Fraction = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mp", sum((r.mp for r in self.rows), Fraction(0)))
        object.__setattr__(self, "gp", sum((r.gp for r in self.rows), Fraction(0)))

    def total(self, kind: str) -> Fraction:
        return self.mp if kind == "MP" else self.gp

    def board_totals(self, boards: int) -> tuple[Fraction, ...]:
        """Game points on each board over the tournament, board 1 first."""
        totals = [Fraction(0)] * boards
        for row in self.rows:
            for k, points in enumerate(row.boards[:boards]):
                totals[k] += points
        return tuple(totals)

    @property
    def met(self) -> tuple[MatchRow, ...]:
        """The rows with a match."""
        return tuple(r for r in self.rows if r.opponent is not None)


@dataclass(frozen=True, slots=True)
class TeamField:
    """Every team's record and what the tie-breaks need besides: the scoring, the
    number of rounds and of boards."""

    records: Mapping[int, TeamRecord]
    scoring: TeamScoring
    rounds: int
    boards: int

    def total(self, team: int, kind: str) -> Fraction:
        return self.records[team].total(kind)

    @property
    def primary(self) -> str:
        return self.scoring.primary

    @property
    def secondary(self) -> str:
        return self.scoring.secondary


def team_records(
    games: Tournament, teams: Sequence[Team], scoring: TeamScoring
) -> dict[int, TeamRecord]:
    """Every team's record from the games played, board by board."""
    rows: dict[int, list[MatchRow]] = {team.start: [] for team in teams}
    owner = {start: team.start for team in teams for start in team.starts}
    for rnd, matches in zip(games.rounds, rounds_of_matches(games, teams), strict=True):
        busy: set[int] = set()
        begun = False
        for match in matches:
            busy.update((match.white, match.black))
            if not match.finished:
                continue
            begun = True
            sides = (match.white, match.black)
            boards = [match.board_points(team, scoring) for team in sides]
            gps = [sum(b, Fraction(0)) for b in boards]
            mp = scoring.match_points
            if gps[0] == gps[1]:
                mps = (mp.draw, mp.draw)
            else:
                mps = (mp.win, mp.loss) if gps[0] > gps[1] else (mp.loss, mp.win)
            forfeited = match.forfeited
            for k, team in enumerate(sides):
                row = MatchRow(
                    rnd.number, match.opponent(team), mps[k], gps[k], boards[k], forfeited
                )
                rows[team].append(row)
        if not begun:  # a free round counts once a match of its round is over
            continue
        bye_teams = {
            owner[b.player] for b in rnd.byes if b.kind is ByeKind.PAIRING and b.player in owner
        }
        for team in rows:
            if team not in busy:
                free = scoring.bye if team in bye_teams else (Fraction(0), Fraction(0))
                rows[team].append(MatchRow(rnd.number, None, *free))
    return {team: TeamRecord(team, tuple(r)) for team, r in rows.items()}


def team_field(games: Tournament, teams: Sequence[Team], scoring: TeamScoring) -> TeamField:
    """The field the team tie-breaks are computed on."""
    rounds = max(games.settings.rounds or 0, len(games.rounds), 1)
    boards = max((team.boards for team in teams), default=1)
    return TeamField(team_records(games, teams, scoring), scoring, rounds, boards)


__all__ = ["MatchRow", "TeamField", "TeamRecord", "team_field", "team_records"]
