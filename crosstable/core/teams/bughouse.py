"""Bughouse: pairs of two players on two boards, another kind of team.

A Bughouse pair is a team of two on two boards (reserves allowed, as in any team);
two pairs meet in a match of two games played at once. The team seating gives the
partners opposite colours: on board 1 the pair drawn White has White, on board 2
Black. Each game's result is entered as any game's; the match result comes from the
two games by the regulations' rule:

* ``sum``: the pairs' game points summed, the more wins the match (a tie draws it);
* ``first``: the game that finished first decides the match (its winner wins the
  match; a draw there draws it). Which game finished first is recorded per match
  (:class:`FirstFinished`); until it is, a match under this rule has no result.

Either way the pairs' game points are both games' points. Standings go by match
points (2-1-0 by default) then game points and the team tie-breaks, as for teams.

>>> from crosstable.core.model import Game, GameResult, Player, Round, Tournament
>>> pairs = [Team(n, f"P{n}", (Player(2 * n - 1, "a"), Player(2 * n, "b")), 2) for n in (1, 2)]
>>> games = Tournament(players=tuple(p for t in pairs for p in t.members), rounds=(Round(1, (
...     Game(1, 1, 1, 3, GameResult.BLACK_WINS()), Game(1, 2, 4, 2, GameResult.BLACK_WINS()))),))
>>> [r.mp for r in bughouse_standings(games, pairs, BughouseRules("sum")).rows]
[Fraction(1, 1), Fraction(1, 1)]
>>> first = BughouseRules("first", FirstFinished.parse("1:2"))
>>> [(r.team, r.mp, r.gp) for r in bughouse_standings(games, pairs, first).rows]
[(1, Fraction(2, 1), Fraction(1, 1)), (2, Fraction(0, 1), Fraction(1, 1))]
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from crosstable.core.competitor import Competitor, check_competitors, register_kind
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
from crosstable.core.teams.matches import Match, TeamScoring, rounds_of_matches
from crosstable.core.teams.records import MatchRow, TeamField, TeamRecord
from crosstable.core.teams.roster import Team
from crosstable.core.teams.settings import TeamSettings
from crosstable.core.teams.standings import TeamRow, TeamStandings, rank_field
from crosstable.core.teams.tiebreaks import GroupTieBreak, team_tiebreak

#: how a match's result is made from its two games
BUGHOUSE_RULES = ("sum", "first")
#: the boards of a Bughouse match
BUGHOUSE_BOARDS = 2
#: the tie-breaks after match points when the regulations name none
DEFAULT_BUGHOUSE_TIEBREAKS = ("GP", "EDE", "BH:MP")
#: the most marks a tournament's "finished first" list may hold
MAX_MARKS = 100_000

_MARK = re.compile(r"\s*(\d{1,6})\s*:\s*(\d{1,6})\s*")


@dataclass(frozen=True, slots=True)
class FirstFinished:
    """Which game of each match finished first: (round, board) marks, boards numbered
    through the round as the games are."""

    marks: frozenset[tuple[int, int]] = frozenset()

    @classmethod
    def parse(cls, text: str) -> FirstFinished:
        """Marks written ``ROUND:BOARD`` separated by commas (as the regulations keep them).

        >>> sorted(FirstFinished.parse("1:2, 2:3").marks)
        [(1, 2), (2, 3)]
        """
        marks: set[tuple[int, int]] = set()
        parts = [p for p in text.split(",") if p.strip()]
        if len(parts) > MAX_MARKS:
            raise RuleError("more than {most} games marked finished first", most=MAX_MARKS)
        for part in parts:
            found = _MARK.fullmatch(part)
            if found is None or int(found[1]) < 1 or int(found[2]) < 1:
                raise RuleError(
                    "finished first {given}: write ROUND:BOARD, e.g. 3:2",
                    given=repr(part.strip()[:40]),
                )
            marks.add((int(found[1]), int(found[2])))
        return cls(frozenset(marks))

    def text(self) -> str:
        return ",".join(f"{r}:{b}" for r, b in sorted(self.marks))

    def first_of(self, match: Match) -> Game | None:
        """The game of ``match`` marked as finished first (None: not marked yet)."""
        for game in match.games:
            if (game.round, game.board) in self.marks:
                return game
        return None

    def mark(self, match: Match, board: int) -> FirstFinished:
        """The marks with ``board`` as the game of ``match`` that finished first (a mark
        on its other game is replaced)."""
        boards = {g.board for g in match.games}
        if board not in boards:
            raise RuleError(
                "round {round}: board {board} is not a game of the match of pairs {white} "
                "and {black}",
                round=match.round,
                board=board,
                white=match.white,
                black=match.black,
            )
        kept = {m for m in self.marks if not (m[0] == match.round and m[1] in boards)}
        return FirstFinished(frozenset(kept | {(match.round, board)}))


@dataclass(frozen=True, slots=True)
class BughouseRules:
    """The regulations of a Bughouse event: the match rule, the first-finished marks,
    the match scoring (as the team one)."""

    rule: str = "sum"
    first: FirstFinished = field(default_factory=FirstFinished)
    scoring: TeamScoring = field(default_factory=TeamScoring)

    def __post_init__(self) -> None:
        if self.rule not in BUGHOUSE_RULES:
            raise RuleError(
                "Bughouse rule {given}: sum (game points summed) or first (the first "
                "game finished decides)",
                given=repr(self.rule),
            )

    def decisive(self, match: Match) -> tuple[Fraction, Fraction] | None:
        """What the match is decided on, White pair first: both games' points (``sum``)
        or the first finished game's (``first``); None while it is not known."""
        system = self.scoring.game_points
        if self.rule == "sum":
            return match.game_points(self.scoring) if match.finished else None
        game = self.first.first_of(match)
        if game is None or game.result is None or not game.result.is_decided:
            return None
        white = next(s for s in (game.white, game.black) if match.team_of[s] == match.white)
        black = game.opponent_of(white)
        return game.outcome_of(white).points(system), game.outcome_of(black).points(system)

    def match_points(self, match: Match) -> tuple[Fraction, Fraction] | None:
        """The match points of the White and the Black pair (None: not decided yet)."""
        decided = self.decisive(match)
        if decided is None:
            return None
        mp = self.scoring.match_points
        if decided[0] == decided[1]:
            return mp.draw, mp.draw
        return (mp.win, mp.loss) if decided[0] > decided[1] else (mp.loss, mp.win)

    def match_result(self, match: Match) -> GameResult | None:
        """The match as one game between the pairs (White pair first)."""
        decided = self.decisive(match)
        if decided is None:
            return None
        forfeit = match.forfeited
        win, loss = (
            (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS) if forfeit else (Outcome.WIN, Outcome.LOSS)
        )
        if decided[0] == decided[1]:
            return GameResult(loss, loss) if forfeit else GameResult.DRAW()
        return GameResult(win, loss) if decided[0] > decided[1] else GameResult(loss, win)


def is_bughouse(details: Mapping[str, object]) -> bool:
    """The regulations' details say the competitors are Bughouse pairs."""
    return bool(str(details.get("bughouse") or "").strip())


def bughouse_settings(details: Mapping[str, object]) -> tuple[TeamSettings, BughouseRules]:
    """The team settings and the Bughouse rules kept in the regulations' details
    (``bughouse``: the rule; ``bughouse_first``: the first-finished marks).

    >>> team, rules = bughouse_settings({"competitors": "team", "team_boards": "2",
    ...     "bughouse": "first", "bughouse_first": "1:2"})
    >>> team.boards, rules.rule, rules.first.text()
    (2, 'first', '1:2')
    """
    team = TeamSettings.from_details(details)
    if team.boards != BUGHOUSE_BOARDS:
        raise RuleError("a Bughouse match has two boards, not {boards}", boards=team.boards)
    if team.swiss is not None and team.swiss.pairing != "dutch":
        raise RuleError("a Swiss of Bughouse pairs is paired by the Dutch rules")
    rule = str(details.get("bughouse") or "").strip().lower()
    first = FirstFinished.parse(str(details.get("bughouse_first") or ""))
    return team, BughouseRules(rule, first, team.scoring)


def bughouse_details(
    rule: str,
    *,
    scoring: str = "2-1-0",
    primary: str = "MP",
    tiebreaks: Sequence[str] = (),
    swiss: bool = False,
) -> dict[str, str]:
    """The regulations' details of a new Bughouse event (checked); ``swiss``: a Swiss of
    pairs by the Dutch rules (a round robin otherwise), the bye a won match and one game.
    Under the ``first`` rule the organiser finishes the event (``finish: confirm``): the
    last game's result comes before the mark that decides its match.

    >>> bughouse_details("sum", swiss=True)["team_pairing"]
    'dutch'
    """
    codes = tuple(tiebreaks) or DEFAULT_BUGHOUSE_TIEBREAKS
    details = {
        "competitors": "team",
        "team_boards": str(BUGHOUSE_BOARDS),
        "team_scoring": scoring,
        "team_primary": primary,
        "team_tiebreaks": ",".join(codes),
    }
    if swiss:
        details |= {"team_system": "swiss", "team_pairing": "dutch"}
    team = TeamSettings.from_details(details)
    checked = BughouseRules(rule.strip().lower(), scoring=team.scoring)
    out = {**team.to_details(), "bughouse": checked.rule, "bughouse_first": ""}
    if checked.rule == "first":  # the last result does not finish it: its mark may follow
        out["finish"] = "confirm"
    return out


def check_pairs(pairs: Sequence[Team]) -> None:
    """Every pair plays two boards."""
    for pair in pairs:
        if pair.boards != BUGHOUSE_BOARDS:
            raise RuleError(
                "pair {pair} plays {boards} boards; a Bughouse pair plays two",
                pair=pair.start,
                boards=pair.boards,
            )


def pair_rating(pair: Team) -> int | None:
    """The pair's rating: the average of its two players' (rounded half up); None
    when either has none."""
    ratings = [p.rating for p in pair.members[:BUGHOUSE_BOARDS]]
    if any(r is None for r in ratings):
        return None
    total = sum(r for r in ratings if r is not None)
    return (total + 1) // 2


def as_competitor(pair: Team) -> Competitor:
    """The pair as a competitor of the ``bughouse`` kind, rated by its average."""
    return Competitor(
        pair.start, pair.name, pair.members, kind="bughouse", boards=2, rating=pair_rating(pair)
    )


def _byes(rnd: Round, pair: Team) -> bool:
    pab = {b.player for b in rnd.byes if b.kind is ByeKind.PAIRING}
    return all(s in pab for s in pair.starts[:BUGHOUSE_BOARDS])


def bughouse_records(
    games: Tournament, pairs: Sequence[Team], rules: BughouseRules
) -> dict[int, TeamRecord]:
    """Every pair's record, match by match, scored by ``rules``. A pair with a
    pairing-allocated bye scores what the scoring gives the bye; a pair without a match
    in a round (an odd round robin's free round) scores nothing, once a match of the
    round is decided."""
    check_pairs(pairs)
    scoring = rules.scoring
    rows: dict[int, list[MatchRow]] = {pair.start: [] for pair in pairs}
    for rnd, matches in zip(games.rounds, rounds_of_matches(games, pairs), strict=True):
        busy: set[int] = set()
        begun = False
        for match in matches:
            busy.update((match.white, match.black))
            mps = rules.match_points(match)
            if mps is None:
                continue
            begun = True
            for k, team in enumerate((match.white, match.black)):
                boards = match.board_points(team, scoring)
                row = MatchRow(
                    rnd.number,
                    match.opponent(team),
                    mps[k],
                    sum(boards, Fraction(0)),
                    boards,
                    match.forfeited,
                )
                rows[team].append(row)
        for pair in pairs:
            if pair.start in busy:
                continue
            if _byes(rnd, pair):
                rows[pair.start].append(MatchRow(rnd.number, None, *scoring.bye))
            elif begun:
                rows[pair.start].append(MatchRow(rnd.number, None, Fraction(0), Fraction(0)))
    return {team: TeamRecord(team, tuple(r)) for team, r in rows.items()}


def bughouse_standings(
    games: Tournament,
    pairs: Sequence[Team],
    rules: BughouseRules,
    tiebreaks: Sequence[str] = DEFAULT_BUGHOUSE_TIEBREAKS,
) -> TeamStandings:
    """The pairs' table: the primary score (match points by default), then the
    tie-breaks (game points first by default); pairs tied on all share the place."""
    records = bughouse_records(games, pairs, rules)
    rounds = max(games.settings.rounds or 0, len(games.rounds), 1)
    f = TeamField(records, rules.scoring, rounds, BUGHOUSE_BOARDS)
    codes = tuple(team_tiebreak(code).code for code in tiebreaks)
    names = {pair.start: pair.name for pair in pairs}
    rows: list[TeamRow] = []
    for group in rank_field(f, codes):
        place = len(rows) + 1
        for team in group:
            values = tuple(
                None if isinstance(tb, GroupTieBreak) else tb.value(f, team)
                for tb in (team_tiebreak(c) for c in codes)
            )
            record = records[team]
            rows.append(TeamRow(place, team, names[team], record.mp, record.gp, values))
    return TeamStandings(tuple(rows), codes, rules.scoring.primary, f)


@dataclass(frozen=True, slots=True)
class BughouseKind:
    """The ``bughouse`` competitor kind: a pair of two players on two boards; the
    table is a tournament of pairs whose games are the matches, decided by ``rules``
    and scored in match points."""

    rules: BughouseRules = field(default_factory=BughouseRules)
    name: str = "bughouse"

    def check(self, competitor: Competitor) -> None:
        if competitor.boards != BUGHOUSE_BOARDS:
            raise RuleError(
                "pair {pair} plays {boards} boards; a Bughouse pair plays two",
                pair=competitor.start,
                boards=competitor.boards,
            )

    def table(self, games: Tournament, competitors: Sequence[Competitor]) -> Tournament:
        check_competitors(self, competitors)
        pairs = [Team(c.start, c.name, c.members, c.boards) for c in competitors]
        rounds = []
        for rnd, matches in zip(games.rounds, rounds_of_matches(games, pairs), strict=True):
            played = {t for m in matches for t in (m.white, m.black)}
            team_games = tuple(
                Game(rnd.number, table, m.white, m.black, self.rules.match_result(m))
                for table, m in enumerate(matches, 1)
            )
            byes = tuple(
                Bye(rnd.number, p.start, ByeKind.PAIRING)
                for p in pairs
                if p.start not in played and _byes(rnd, p)
            )
            rounds.append(Round(rnd.number, team_games, byes, rnd.date))
        s = games.settings
        settings = Settings(
            system=s.system,
            cycles=s.cycles,
            point_system=self.rules.scoring.match_points,
            tiebreaks=s.tiebreaks,
            rounds=s.rounds,
        )
        players = tuple(Player(c.start, c.name, c.rating) for c in competitors)
        return Tournament(settings=settings, players=players, rounds=tuple(rounds), name=games.name)


BUGHOUSE = register_kind(BughouseKind())

__all__ = [
    "BUGHOUSE",
    "BUGHOUSE_BOARDS",
    "BUGHOUSE_RULES",
    "DEFAULT_BUGHOUSE_TIEBREAKS",
    "BughouseKind",
    "BughouseRules",
    "FirstFinished",
    "as_competitor",
    "bughouse_details",
    "bughouse_records",
    "bughouse_settings",
    "bughouse_standings",
    "check_pairs",
    "is_bughouse",
    "pair_rating",
]
