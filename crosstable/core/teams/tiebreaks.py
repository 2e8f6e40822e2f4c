"""FIDE C.07's team tie-breaks, one small class each, registered by code.

Every team tie-break gives each team a sort key (higher is better unless it says
otherwise) and explains its value match by match, as the individual ones do:

* ``MP`` / ``GP``: match points / game points (C.07 11.1);
* ``MPVGP``: the score that is not the primary one (13.1: game points when the
  match points rank first);
* ``EDE``: the extended direct encounter (13.3.1): among teams still tied, the
  primary score of their matches against each other (when all of them met), then the
  secondary score; with matches missing, a team is placed first only when no other
  could catch it;
* ``EMMSB``, ``EMGSB`` (the Olympiad Sonneborn-Berger), ``EGMSB``, ``EGGSB``: the
  extended Sonneborn-Berger (13.2): for each match, the opponent's match points (M)
  or game points (G) times the match points (M) or game points (G) scored against
  it;
* ``BH:MP`` / ``BH:GP``: the Buchholz on match / game points (C.07 13: the
  individual rules on a team score): the opponents' totals, a round without a match
  counting the team's own total;
* ``BC``: the board count (12.1): board number × game points on that board, summed;
  the lower wins;
* ``TBR``: the top-board result (12.2): game points on board 1, then board 2, …;
* ``BBE``: the bottom-board elimination (12.3): game points on all boards but the
  bottom one, then but the two bottom ones, ….

Individual forfeits count as ordinary wins and losses (12, introduction).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import ClassVar

from crosstable.core.errors import RuleError
from crosstable.core.teams.records import TeamField
from crosstable.core.text import Message
from crosstable.core.tiebreaks.explain import Explanation, Item, amount, join_sum, show

Key = tuple[Fraction, ...]


class TeamTieBreak:
    """One team tie-break: ``value`` (what the tables show), ``key`` (what ranks:
    higher first unless ``higher_is_better`` is False) and ``explain``."""

    code: ClassVar[str]
    article: ClassVar[str]
    higher_is_better: ClassVar[bool] = True

    def value(self, f: TeamField, team: int) -> Fraction:
        raise NotImplementedError

    def key(self, f: TeamField, team: int) -> Key:
        return (self.value(f, team),)

    def items(self, f: TeamField, team: int) -> tuple[Item, ...]:
        return ()

    def explain(self, f: TeamField, team: int) -> Explanation:
        value = self.value(f, team)
        items = self.items(f, team)
        formula = Message(
            "{code} = {sum} = {value}",
            code=self.code,
            sum=join_sum([amount(i.amount) for i in items if i.counted and i.amount is not None]),
            value=amount(value),
        )
        return Explanation(self.code, team, value, show(value), items, formula, subject="team")


class GroupTieBreak(TeamTieBreak):
    """A tie-break decided among the tied teams only (the direct encounter)."""

    def split(self, f: TeamField, group: Sequence[int]) -> list[list[int]]:
        raise NotImplementedError

    def value(self, f: TeamField, team: int) -> Fraction:
        return Fraction(0)


TEAM_TIEBREAKS: dict[str, TeamTieBreak] = {}


def register_team_tiebreak(cls: type[TeamTieBreak]) -> type[TeamTieBreak]:
    """Class decorator: the team tie-break under its code."""
    TEAM_TIEBREAKS[cls.code] = cls()
    return cls


def team_tiebreak(code: str) -> TeamTieBreak:
    """The registered team tie-break called ``code`` (any case)."""
    try:
        return TEAM_TIEBREAKS[code.strip().upper()]
    except KeyError:
        raise RuleError(
            "unknown team tie-break {code} (known: {known})",
            code=repr(code),
            known=", ".join(TEAM_TIEBREAKS),
        ) from None


def _per_match(f: TeamField, team: int, kind: str) -> tuple[Item, ...]:
    return tuple(
        Item(
            row.round,
            row.opponent,
            Message("against team {opponent}", opponent=row.opponent)
            if row.opponent is not None
            else Message("no match"),
            row.score(kind),
        )
        for row in f.records[team].rows
    )


@register_team_tiebreak
class MatchPoints(TeamTieBreak):
    code = "MP"
    article = "11.1.1"

    def value(self, f: TeamField, team: int) -> Fraction:
        return f.total(team, "MP")

    def items(self, f: TeamField, team: int) -> tuple[Item, ...]:
        return _per_match(f, team, "MP")


@register_team_tiebreak
class GamePoints(TeamTieBreak):
    code = "GP"
    article = "11.1.2"

    def value(self, f: TeamField, team: int) -> Fraction:
        return f.total(team, "GP")

    def items(self, f: TeamField, team: int) -> tuple[Item, ...]:
        return _per_match(f, team, "GP")


@register_team_tiebreak
class SecondaryScore(TeamTieBreak):
    code = "MPVGP"
    article = "13.1"

    def value(self, f: TeamField, team: int) -> Fraction:
        return f.total(team, f.secondary)

    def items(self, f: TeamField, team: int) -> tuple[Item, ...]:
        return _per_match(f, team, f.secondary)


class ExtendedSonnebornBerger(TeamTieBreak):
    """The opponent's total of ``opponent_score`` times ``scored`` against it."""

    article = "13.2"
    opponent_score: ClassVar[str]
    scored: ClassVar[str]

    def value(self, f: TeamField, team: int) -> Fraction:
        return sum(
            (
                f.total(row.opponent, self.opponent_score) * row.score(self.scored)
                for row in f.records[team].met
                if row.opponent is not None
            ),
            Fraction(0),
        )

    def items(self, f: TeamField, team: int) -> tuple[Item, ...]:
        out = []
        for row in f.records[team].met:
            assert row.opponent is not None
            total = f.total(row.opponent, self.opponent_score)
            text = Message(
                "team {opponent} has {total} {score}; {scored} {kind} scored against it",
                opponent=row.opponent,
                total=amount(total),
                score=self.opponent_score,
                scored=amount(row.score(self.scored)),
                kind=self.scored,
            )
            out.append(Item(row.round, row.opponent, text, total * row.score(self.scored)))
        return tuple(out)


@register_team_tiebreak
class EMMSB(ExtendedSonnebornBerger):
    code = "EMMSB"
    opponent_score = "MP"
    scored = "MP"


@register_team_tiebreak
class EMGSB(ExtendedSonnebornBerger):
    """The Olympiad Sonneborn-Berger: opponents' match points × game points scored."""

    code = "EMGSB"
    opponent_score = "MP"
    scored = "GP"


@register_team_tiebreak
class EGMSB(ExtendedSonnebornBerger):
    code = "EGMSB"
    opponent_score = "GP"
    scored = "MP"


@register_team_tiebreak
class EGGSB(ExtendedSonnebornBerger):
    code = "EGGSB"
    opponent_score = "GP"
    scored = "GP"


class TeamBuchholz(TeamTieBreak):
    article = "13"
    score: ClassVar[str]

    def items(self, f: TeamField, team: int) -> tuple[Item, ...]:
        out = []
        for row in f.records[team].rows:
            if row.opponent is None:
                total = f.total(team, self.score)
                text = Message("no match: the team's own {score}", score=self.score)
            else:
                total = f.total(row.opponent, self.score)
                text = Message("team {opponent}: {score}", opponent=row.opponent, score=self.score)
            out.append(Item(row.round, row.opponent, text, total))
        return tuple(out)

    def value(self, f: TeamField, team: int) -> Fraction:
        return sum(
            (Fraction(i.amount) for i in self.items(f, team) if i.amount is not None), Fraction(0)
        )


@register_team_tiebreak
class BuchholzMP(TeamBuchholz):
    code = "BH:MP"
    score = "MP"


@register_team_tiebreak
class BuchholzGP(TeamBuchholz):
    code = "BH:GP"
    score = "GP"


class BoardTieBreak(TeamTieBreak):
    article = "12"

    def items(self, f: TeamField, team: int) -> tuple[Item, ...]:
        totals = f.records[team].board_totals(f.boards)
        return tuple(
            Item(None, None, Message("board {board}", board=k), points)
            for k, points in enumerate(totals, 1)
        )


@register_team_tiebreak
class BoardCount(BoardTieBreak):
    code = "BC"
    article = "12.1"
    higher_is_better = False

    def value(self, f: TeamField, team: int) -> Fraction:
        totals = f.records[team].board_totals(f.boards)
        return sum((k * p for k, p in enumerate(totals, 1)), Fraction(0))

    def items(self, f: TeamField, team: int) -> tuple[Item, ...]:
        totals = f.records[team].board_totals(f.boards)
        return tuple(
            Item(None, None, Message("board {board} × {points}", board=k, points=amount(p)), k * p)
            for k, p in enumerate(totals, 1)
        )


@register_team_tiebreak
class TopBoardResult(BoardTieBreak):
    code = "TBR"
    article = "12.2"

    def key(self, f: TeamField, team: int) -> Key:
        return f.records[team].board_totals(f.boards)

    def value(self, f: TeamField, team: int) -> Fraction:
        return self.key(f, team)[0]


@register_team_tiebreak
class BottomBoardElimination(BoardTieBreak):
    code = "BBE"
    article = "12.3"

    def key(self, f: TeamField, team: int) -> Key:
        totals = f.records[team].board_totals(f.boards)
        return tuple(sum(totals[: len(totals) - k], Fraction(0)) for k in range(1, len(totals) + 1))

    def value(self, f: TeamField, team: int) -> Fraction:
        return self.key(f, team)[0]


def _mini(
    f: TeamField, group: Sequence[int], kind: str
) -> tuple[dict[int, Fraction], dict[int, int]]:
    """Each team's score of ``kind`` against the others of ``group`` (repeated meetings
    averaged), and how many of the others it has not met."""
    members = set(group)
    mini: dict[int, Fraction] = {}
    missing: dict[int, int] = {}
    for team in group:
        by_opponent: dict[int, list[Fraction]] = {}
        for row in f.records[team].met:
            if row.opponent in members:
                by_opponent.setdefault(row.opponent, []).append(row.score(kind))
        mini[team] = sum((sum(v, Fraction(0)) / len(v) for v in by_opponent.values()), Fraction(0))
        missing[team] = len(members) - 1 - len(by_opponent)
    return mini, missing


def _buckets(group: Sequence[int], score: dict[int, Fraction]) -> list[list[int]]:
    values = sorted({score[t] for t in group}, reverse=True)
    return [[t for t in group if score[t] == v] for v in values]


@register_team_tiebreak
class DirectEncounter(GroupTieBreak):
    code = "EDE"
    article = "13.3.1"

    def split(self, f: TeamField, group: Sequence[int]) -> list[list[int]]:
        if len(group) < 2:
            return [list(group)]
        mini, missing = _mini(f, group, f.primary)
        if not any(missing.values()):
            tiers: list[list[int]] = []
            for tied in _buckets(group, mini):
                if len(tied) in (1, len(group)):
                    tiers.append(tied)
                    continue
                second, _ = _mini(f, tied, f.secondary)
                tiers.extend(_buckets(tied, second))
            return tiers
        # matches missing: place a team first only when no other can catch it
        ceiling = f.scoring.match_points.win if f.primary == "MP" else Fraction(f.boards)
        remaining = list(group)
        out: list[list[int]] = []
        while remaining:
            mini, missing = _mini(f, remaining, f.primary)
            first = next(
                (
                    t
                    for t in remaining
                    if all(mini[t] > mini[o] + missing[o] * ceiling for o in remaining if o != t)
                ),
                None,
            )
            if first is None:
                out.append(remaining)
                break
            out.append([first])
            remaining = [t for t in remaining if t != first]
        return out

    def explain(self, f: TeamField, team: int) -> Explanation:
        items = tuple(
            Item(
                row.round,
                row.opponent,
                Message("against team {opponent}", opponent=row.opponent),
                row.score(f.primary),
            )
            for row in f.records[team].met
        )
        note = Message("counted only among the teams tied with it")
        return Explanation(self.code, team, None, show(None), items, note=note, subject="team")


__all__ = [
    "TEAM_TIEBREAKS",
    "GroupTieBreak",
    "TeamTieBreak",
    "register_team_tiebreak",
    "team_tiebreak",
]
