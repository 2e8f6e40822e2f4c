"""A TRF with team records read as a team tournament (docs/teams.md, "Importing a team
TRF"): what the team import stores, worked out before anything is stored.

* the teams from ``310`` (or ``013``: numbered in the file's order), their members in
  board order; every player in one team;
* the boards from ``352`` (else the most games a match has), the match points from
  ``362`` (default 2/1/0), a round robin or a Swiss from ``192`` (``*TEAM_ROUNDROBIN``,
  ``*TEAM_DOUBLEROUNDROBIN``; ``FIDE_TEAM_*``, ``CUSTOM_TEAM_SWISS*``: a Swiss, ``_GP``
  first: game points rank first), else from the games' shape (every two teams met equally
  often: a round robin);
* each round's matches from the players' games: the games between two teams' players are
  their match, each team's players on the boards in its roster order or as its ``300``
  record lists them, the team White on board 1 by ``352``;
* ``330`` forfeited matches (their games, or the line-ups' forfeits when the players'
  lines show none), ``320`` the team PAB (its points: the Swiss's bye).

Every record is checked against the games; a contradiction is an InputError naming the
record and what is wrong. The standings the file declares (``310``/``802``/``801``
match and game points) must be what the games give.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from crosstable.core.model import (
    Bye,
    ByeKind,
    Colour,
    Game,
    GameResult,
    Outcome,
    Round,
    System,
    Tournament,
)
from crosstable.core.teams import Team, team_standings
from crosstable.core.teams.matches import TeamScoring
from crosstable.core.teams.settings import MAX_BOARDS, TeamSettings
from crosstable.core.teams.standings import DEFAULT_TEAM_TIEBREAKS, TeamStandings
from crosstable.core.teams.swiss_pair import TeamSwissSettings, default_team_swiss_tiebreaks
from crosstable.formats.trf_model import TrfDocument
from crosstable.formats.trf_team_records import ForfeitedMatch, TeamRecords, team_records_of
from crosstable.service.teams.trf_settings import (
    TeamFileError,
    kind_of,
    match_points_of,
    shape_of,
    tiebreaks_of,
)
from crosstable.service.teams.trf_teams import board_colours

_FORFEIT = {
    "+-": (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS),
    "-+": (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN),
    "--": (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_LOSS),
}


@dataclass(frozen=True, slots=True)
class TeamPlan:
    """What a team import stores beside the players and games: the settings, the teams
    (number, name, members in board order), each round's line-ups (round, team → players
    board by board), the games renumbered match by match, and notes to show."""

    settings: TeamSettings
    system: System
    cycles: int
    teams: tuple[tuple[int, str, tuple[int, ...]], ...]
    lineups: dict[tuple[int, int], tuple[int, ...]]
    tournament: Tournament
    notes: tuple[str, ...]

    def core_teams(self) -> list[Team]:
        """The teams as the core computes with them: numbered as in the file, their
        members in board order."""
        players = {p.start: p for p in self.tournament.players}
        boards = self.settings.boards
        return [
            Team(number, name, tuple(players[s] for s in members), boards)
            for number, name, members in self.teams
        ]

    def standings(self, tiebreaks: Sequence[str] | None = None) -> TeamStandings:
        """The team table by the file's team tie-breaks (``tiebreaks``: others)."""
        codes = self.settings.tiebreaks if tiebreaks is None else tiebreaks
        return team_standings(self.tournament, self.core_teams(), codes, self.settings.scoring)

    def first_colour(self) -> Colour | None:
        """Team 1's colour on its first board in the first round it played (None: it
        played no game)."""
        for rnd in self.tournament.rounds:
            lineup = self.lineups.get((rnd.number, 1))
            if not lineup:
                continue
            for game in rnd.games:
                if lineup[0] in (game.white, game.black):
                    return Colour.WHITE if game.white == lineup[0] else Colour.BLACK
        return None


def is_team_file(doc: TrfDocument) -> bool:
    """The file is a team tournament's: it has team records (013 or 310) and says so (a
    team code in 192, team board colours 352 or match points 362), or every player is in
    one of its teams and no game is between two players of the same team (an individual
    tournament may list teams for a team prize: it stays a tournament of players)."""
    if not doc.teams:
        return False
    if "TEAM" in doc.headers.get("192", "").upper() or {"352", "362"} & set(doc.headers):
        return True
    owner: dict[int, int] = {}
    for index, team in enumerate(doc.teams):
        for start in team.members:
            if owner.setdefault(start, index) != index:
                return False
    if any(p.start not in owner for p in doc.tournament.players):
        return False
    return all(owner[g.white] != owner[g.black] for rnd in doc.tournament.rounds for g in rnd.games)


def _teams(doc: TrfDocument, source: str) -> list[tuple[int, str, tuple[int, ...]]]:
    out = []
    owner: dict[int, int] = {}
    for index, team in enumerate(doc.teams, 1):
        number = team.number if team.number is not None else index
        record = team.record
        if not team.members:
            raise TeamFileError(
                "team {team} has no players", source=source, record=record, team=number
            )
        for start in team.members:
            if start in owner:
                raise TeamFileError(
                    "player {player} is in two teams: {first} and {second}",
                    source=source,
                    record=record,
                    player=start,
                    first=owner[start],
                    second=number,
                )
            owner[start] = number
        out.append((number, " ".join(team.name.split()) or f"Team {number}", team.members))
    numbers = sorted(n for n, _, _ in out)
    if numbers != list(range(1, len(out) + 1)):
        raise TeamFileError(
            "the teams are numbered {numbers}: number them 1…{count}",
            source=source,
            record=doc.teams[0].record,
            numbers=",".join(map(str, numbers)),
            count=len(out),
        )
    for player in doc.tournament.players:
        if player.start not in owner:
            raise TeamFileError(
                "player {player} {name} is in no team",
                source=source,
                record=doc.teams[0].record,
                player=player.start,
                name=player.name,
            )
    return sorted(out)


class _Builder:
    def __init__(self, doc: TrfDocument, source: str) -> None:
        self.doc = doc
        self.source = source
        self.teams = _teams(doc, source)
        self.owner = {s: n for n, _, members in self.teams for s in members}
        self.roster = {n: members for n, _, members in self.teams}
        self.names = {n: name for n, name, _ in self.teams}
        self.records: TeamRecords = team_records_of(doc.other_records, source, doc.headers)
        self.order = {(r.round, r.team): r for r, _ in self.records.out_of_order}
        self.colours = doc.headers.get("352", "").strip().upper()
        if self.colours and (
            set(self.colours) - {"W", "B"} or not 1 <= len(self.colours) <= MAX_BOARDS
        ):
            raise TeamFileError(
                "board colours {colours}: W and B, one a board (at most {most})",
                source=source,
                record="352",
                colours=repr(self.colours),
                most=MAX_BOARDS,
            )
        self.lineups: dict[tuple[int, int], tuple[int, ...]] = {}
        self.pab: dict[int, int] = {}

    def boards(self) -> int:
        if self.colours:
            return len(self.colours)
        most = 0
        for rnd in self.doc.tournament.rounds:
            counts: dict[frozenset[int], int] = {}
            for g in rnd.games:
                pair = frozenset((self.owner[g.white], self.owner[g.black]))
                counts[pair] = counts.get(pair, 0) + 1
            most = max([most, *counts.values()])
        if not most:
            most = min(len(m) for m in self.roster.values())
        return min(most, MAX_BOARDS)

    def side(self, rnd: int, team: int, played: set[int], opponent: int) -> tuple[int, ...]:
        """The team's players board by board: its 300 record's, else in roster order."""
        record = self.order.get((rnd, team))
        if record is None:
            return tuple(s for s in self.roster[team] if s in played)
        if record.opponent != opponent or 0 in record.players:
            raise TeamFileError(
                "round {round}: team {team} met team {opponent}, and every board was occupied, "
                "by the games; the record says otherwise",
                source=self.source,
                record="300",
                round=rnd,
                team=team,
                opponent=opponent,
            )
        if set(record.players) != played or len(record.players) != len(played):
            raise TeamFileError(
                "round {round}: team {team}'s players {listed} are not those who played: {played}",
                source=self.source,
                record="300",
                round=rnd,
                team=team,
                listed=",".join(map(str, record.players)),
                played=",".join(map(str, sorted(played))),
            )
        return record.players

    def round_of(self, rnd: Round, boards: int) -> Round:
        """The round with its games in match order, boards numbered on through the round."""
        grouped: dict[frozenset[int], list[Game]] = {}
        for g in rnd.games:
            white, black = self.owner[g.white], self.owner[g.black]
            if white == black:
                raise TeamFileError(
                    "round {round}: players {white} and {black} of team {team} met",
                    source=self.source,
                    record="310",
                    round=rnd.number,
                    white=g.white,
                    black=g.black,
                    team=white,
                )
            grouped.setdefault(frozenset((white, black)), []).append(g)
        byes = list(rnd.byes)
        for record, _ in self.records.forfeited:
            if record.round != rnd.number:
                continue
            pair = frozenset((record.white, record.black))
            if pair in grouped:
                self.check_forfeit(record, grouped[pair])
            else:
                grouped[pair] = self.forfeit_games(rnd.number, record, boards)
                taken = set().union(*(set(self.roster[t]) for t in pair))
                byes = [b for b in byes if b.player not in taken]
        busy: dict[int, int] = {}
        games: list[Game] = []
        for pair in sorted(grouped, key=lambda p: min(p)):
            for team in pair:
                if team in busy:
                    raise TeamFileError(
                        "round {round}: team {team} plays two matches",
                        source=self.source,
                        record="310",
                        round=rnd.number,
                        team=team,
                    )
                busy[team] = len(busy)
            games.extend(self.match(rnd.number, grouped[pair], boards, len(games) + 1))
        byes = self.team_byes(rnd.number, byes, set(busy), boards)
        return replace(rnd, games=tuple(games), byes=tuple(byes))

    def check_forfeit(self, record: ForfeitedMatch, games: list[Game]) -> None:
        """The match's games are what 330 says: every board forfeited, won as it says."""
        white_out, black_out = _FORFEIT[record.kind]
        for game in games:
            result = game.result
            ours = (
                (
                    (result.white, result.black)
                    if self.owner[game.white] == record.white
                    else (result.black, result.white)
                )
                if result is not None
                else None
            )
            if ours != (white_out, black_out):
                raise TeamFileError(
                    "round {round}: the match of teams {white} and {black} is not forfeited "
                    "as {kind} says: players {first} and {second} have {result}",
                    source=self.source,
                    record="330",
                    round=record.round,
                    white=record.white,
                    black=record.black,
                    kind=record.kind,
                    first=game.white,
                    second=game.black,
                    result=result.label() if result is not None else "no result",
                )

    def forfeit_games(self, rnd: int, record: ForfeitedMatch, boards: int) -> list[Game]:
        white_team, black_team = record.white, record.black
        for team in (white_team, black_team):
            if team not in self.roster:
                raise TeamFileError(
                    "round {round}: there is no team {team}",
                    source=self.source,
                    record="330",
                    round=rnd,
                    team=team,
                )
        white_out, black_out = _FORFEIT[record.kind]
        # (every team has the boards' players: plan_team_import refuses one short first)
        sides = [self.roster[white_team][:boards], self.roster[black_team][:boards]]
        out = []
        pattern = self.colours or board_colours(boards)
        for k in range(boards):
            first, second = sides[0][k], sides[1][k]
            if pattern[k] == "W":
                out.append(Game(rnd, k + 1, first, second, GameResult(white_out, black_out)))
            else:
                out.append(Game(rnd, k + 1, second, first, GameResult(black_out, white_out)))
        return out

    def match(self, rnd: int, games: list[Game], boards: int, first: int) -> list[Game]:
        teams = sorted({self.owner[games[0].white], self.owner[games[0].black]})
        if len(games) != boards:
            raise TeamFileError(
                "round {round}: teams {first} and {second} played {games} games, not {boards} "
                "boards (a match with an unoccupied board is not imported)",
                source=self.source,
                record="352",
                round=rnd,
                first=teams[0],
                second=teams[1],
                games=len(games),
                boards=boards,
            )
        played = {
            t: {s for g in games for s in (g.white, g.black) if self.owner[s] == t} for t in teams
        }
        sides = {t: self.side(rnd, t, played[t], teams[1 - k]) for k, t in enumerate(teams)}
        by_pair = {frozenset((g.white, g.black)): g for g in games}
        ordered = []
        for k in range(boards):
            a, b = sides[teams[0]][k], sides[teams[1]][k]
            game = by_pair.get(frozenset((a, b)))
            if game is None:
                raise TeamFileError(
                    "round {round}: board {board} of teams {first} and {second} should be "
                    "players {white} and {black}, who did not meet",
                    source=self.source,
                    record="300",
                    round=rnd,
                    board=k + 1,
                    first=teams[0],
                    second=teams[1],
                    white=a,
                    black=b,
                )
            ordered.append(game)
        white_team = self.owner[ordered[0].white]
        if self.colours and self.colours[0] == "B":
            white_team = self.owner[ordered[0].black]
        pattern = self.colours or board_colours(boards)
        for k, game in enumerate(ordered):
            has_white = self.owner[game.white] == white_team
            if has_white != (pattern[k] == "W"):
                raise TeamFileError(
                    "round {round}: board {board} of teams {first} and {second}: the colours "
                    "do not follow {colours}",
                    source=self.source,
                    record="352",
                    round=rnd,
                    board=k + 1,
                    first=teams[0],
                    second=teams[1],
                    colours=pattern,
                )
        for team in teams:
            self.lineups[(rnd, team)] = sides[team]
        return [replace(g, round=rnd, board=first + k) for k, g in enumerate(ordered)]

    def team_byes(self, rnd: int, byes: list[Bye], busy: set[int], boards: int) -> list[Bye]:
        """The round's byes; the team PAB (its players' ``U`` byes, or 320's team) given
        to the first boards of the team that had it."""
        named = {
            self.owner[b.player]
            for b in byes
            if b.kind is ByeKind.PAIRING and b.player in self.owner
        }
        for record, _ in self.records.byes:
            if rnd <= len(record.teams) and record.teams[rnd - 1]:
                named.add(record.teams[rnd - 1])
            elif rnd <= len(record.teams) and named:
                raise TeamFileError(
                    "round {round}: team {team}'s players have the PAB, the record names none",
                    source=self.source,
                    record="320",
                    round=rnd,
                    team=min(named),
                )
        if len(named) > 1:
            raise TeamFileError(
                "round {round}: teams {teams} both have the PAB",
                source=self.source,
                record="320",
                round=rnd,
                teams=",".join(map(str, sorted(named))),
            )
        if not named:
            return byes
        team = named.pop()
        if team in busy or team not in self.roster:
            raise TeamFileError(
                "round {round}: team {team} has the PAB but plays a match (or does not exist)",
                source=self.source,
                record="320",
                round=rnd,
                team=team,
            )
        self.pab[rnd] = team
        lineup = self.roster[team][:boards]
        self.lineups[(rnd, team)] = lineup
        kept = [b for b in byes if self.owner.get(b.player) != team]
        return kept + [Bye(rnd, p, ByeKind.PAIRING) for p in lineup]


def plan_team_import(doc: TrfDocument, source: str = "import") -> TeamPlan:
    """The team tournament a file with team records holds; InputError when a record is
    bad or contradicts the games (nothing is stored)."""
    builder = _Builder(doc, source)
    boards = builder.boards()
    short = [n for n, _, members in builder.teams if len(members) < boards]
    if short:
        raise TeamFileError(
            "team {team} is short of players: {players} for {boards} boards",
            source=source,
            record=doc.teams[0].record,
            team=short[0],
            players=len(builder.roster[short[0]]),
            boards=boards,
        )
    rounds = tuple(builder.round_of(rnd, boards) for rnd in doc.tournament.rounds)
    kind, cycles, primary = kind_of(doc)
    notes = []
    if kind is None:
        kind, cycles = shape_of(rounds, builder.owner, len(builder.teams))
        notes.append(
            "192 names no team system: a team "
            + ("round robin" if kind == "rr" else "Swiss")
            + " by the games"
        )
    points = match_points_of(doc, source)
    scoring = TeamScoring(match_points=points, primary=primary)
    swiss = None
    defaults: tuple[str, ...] = DEFAULT_TEAM_TIEBREAKS
    if kind == "swiss":
        bye = (points.win, Fraction(boards, 2))
        if builder.records.byes:
            first = builder.records.byes[0][0]
            bye = (first.match_points, first.game_points)
        swiss = TeamSwissSettings("olympiad", bye)
        scoring = replace(scoring, bye=bye)
        defaults = default_team_swiss_tiebreaks(primary)
    tiebreaks = tiebreaks_of(doc, defaults, notes)
    settings = TeamSettings(boards, scoring, False, tiebreaks, swiss)
    if any(
        list(lineup) != [s for s in builder.roster[team] if s in lineup]
        for (_, team), lineup in builder.lineups.items()
    ):
        settings = replace(settings, free_order=True)
        notes.append("a team played out of its roster order (300): the board order is free")
    system = System.ROUND_ROBIN if kind == "rr" else System.SWISS_DUTCH
    tournament = replace(
        doc.tournament,
        rounds=rounds,
        settings=replace(
            doc.tournament.settings,
            system=system,
            cycles=cycles,
            rounds=doc.tournament.settings.rounds if kind == "swiss" else None,
            tiebreaks=(),  # (the file's 202 are the team tie-breaks)
            bye_points=None,
        ),
    )
    plan = TeamPlan(settings, system, cycles, tuple(builder.teams), builder.lineups, tournament, ())
    _check_declared(doc, builder, plan, source, notes)
    return replace(plan, notes=tuple(notes))


def _check_declared(
    doc: TrfDocument, builder: _Builder, plan: TeamPlan, source: str, notes: list[str]
) -> None:
    """The match and game points the file declares (310, 801/802) against the games'."""
    if not plan.tournament.rounds:
        return
    table = plan.standings()
    rows = {r.team: r for r in table.rows}
    declared: list[tuple[str, int, Fraction | None, Fraction | None, int | None]] = []
    for index, team in enumerate(doc.teams, 1):
        number = team.number if team.number is not None else index
        declared.append((team.record, number, team.match_points, team.game_points, team.rank))
    for line, _ in builder.records.lines:
        declared.append((line.tag, line.team, line.match_points, line.game_points, None))
    for record, number, mp, gp, rank in declared:
        row = rows.get(number)
        if row is None:
            raise TeamFileError(
                "there is no team {team}", source=source, record=record, team=number
            )
        if mp is not None and mp != row.mp:
            raise TeamFileError(
                "team {team}: the file says match points {said}, the games give {given}",
                source=source,
                record=record,
                team=number,
                said=str(mp),
                given=str(row.mp),
            )
        if gp is not None and gp != row.gp:
            raise TeamFileError(
                "team {team}: the file says game points {said}, the games give {given}",
                source=source,
                record=record,
                team=number,
                said=str(gp),
                given=str(row.gp),
            )
        if rank is not None and rank != row.place:
            notes.append(f"team {number}: the file's rank {rank}, by the tie-breaks {row.place}")


__all__ = ["TeamFileError", "TeamPlan", "is_team_file", "plan_team_import"]
