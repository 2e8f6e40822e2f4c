"""A team tournament's read view (docs/teams.md), as its page, its papers
(:mod:`crosstable.web.pdf.team_papers`) and ``GET /api/v1/tournaments/{tid}/teams`` show
it: frozen dataclasses whose ``as_json()`` is the API's JSON (built by :func:`team_data`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from crosstable.core.scoring import points_json
from crosstable.core.teams import TeamScoring
from crosstable.service import Service
from crosstable.service.read_views import JsonObject, Shown

Points = int | float


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class MemberShown(Shown):
    """A team's player: drawn number (None: not drawn yet), entry, name, rating."""

    start: int | None
    entry: int
    name: str
    rating: int | None


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class TeamShown(Shown):
    """A team: its drawn number (None: not drawn yet), the order it was added in, its
    name, its captain's drawn number and its players in board order."""

    team: int | None
    number: int
    name: str
    captain: int | None
    members: tuple[MemberShown, ...]


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class TeamTableRow(Shown):
    """A team's line of the table; ``against``: its scores against each opponent (by the
    opponent's drawn number, as text: a JSON key), a match a score."""

    team: int
    name: str
    place: int
    MP: Points
    GP: Points
    #: one a tie-break (None: decided in the group)
    tiebreaks: tuple[Points | None, ...]
    against: dict[str, tuple[Points, ...]]


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class BoardPrizeShown(Shown):
    """A board prize: the board, the place on it, the player, their team, points, games."""

    board: int
    place: int
    start: int
    team: int
    points: Points
    games: int


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class TeamsShown(Shown):
    """A team tournament as its page, its papers and ``GET …/teams`` show it: the table,
    the teams, the match cards (the core's JSON of a match card) and the board prizes;
    before the start only the teams (``started`` False, the rest empty)."""

    started: bool
    #: ``MP`` or ``GP`` ("" before the start)
    primary: str
    tiebreaks: tuple[str, ...]
    rows: tuple[TeamTableRow, ...]
    teams: tuple[TeamShown, ...]
    matches: tuple[JsonObject, ...]
    board_prizes: tuple[BoardPrizeShown, ...]

    def as_json(self) -> JsonObject:
        head = {"started": self.started, "primary": self.primary, "tiebreaks": [*self.tiebreaks]}
        teams = [team.as_json() for team in self.teams]
        rest = {
            "rows": [row.as_json() for row in self.rows],
            "matches": list(self.matches),
            "board_prizes": [prize.as_json() for prize in self.board_prizes],
        }
        if not self.started:  # the teams first: the JSON answered before the start
            return head | {"teams": teams} | rest
        return head | {"rows": rest["rows"], "teams": teams} | rest


def team_data(service: Service, tid: int) -> TeamsShown:
    """The team table, the match grid and the board prizes as data (before the start:
    the teams and their players only)."""
    teams = service.team_list(tid)  # a tournament of players: a RuleError (422)
    listed = tuple(
        TeamShown(
            team=t.start,
            number=t.number,
            name=t.name,
            captain=next((m.start for m in t.members if m.entry == t.captain), None),
            members=tuple(MemberShown(m.start, m.entry, m.name, m.rating) for m in t.members),
        )
        for t in teams
    )
    if any(t.start is None for t in teams) or not teams:
        return TeamsShown(False, "", (), (), listed, (), ())
    table = service.team_standings(tid)
    scoring = TeamScoring()
    grid: dict[int, dict[int, list[Fraction]]] = {t.start or 0: {} for t in teams}
    matches = []
    for number, round_matches in enumerate(service.team_matches(tid), 1):
        for m in round_matches:
            white, black = m.game_points(scoring)
            if m.finished:
                grid[m.white].setdefault(m.black, []).append(white)
                grid[m.black].setdefault(m.white, []).append(black)
            matches.append(m.card(number, scoring))
    return TeamsShown(
        started=True,
        primary=table.primary,
        tiebreaks=tuple(table.tiebreaks),
        rows=tuple(
            TeamTableRow(
                team=r.team,
                name=r.name,
                place=r.place,
                MP=points_json(r.mp),
                GP=points_json(r.gp),
                tiebreaks=tuple(None if v is None else points_json(v) for v in r.values),
                against={
                    str(o): tuple(points_json(p) for p in scores)
                    for o, scores in sorted(grid[r.team].items())
                },
            )
            for r in table.rows
        ),
        teams=listed,
        matches=tuple(matches),
        board_prizes=tuple(
            BoardPrizeShown(
                board=p.board,
                place=p.place,
                start=p.record.player,
                team=p.record.team,
                points=points_json(p.record.points),
                games=p.record.games,
            )
            for p in service.board_prizes(tid)
        ),
    )


__all__ = [
    "BoardPrizeShown",
    "MemberShown",
    "Points",
    "TeamShown",
    "TeamTableRow",
    "TeamsShown",
    "team_data",
]
