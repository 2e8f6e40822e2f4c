"""Bughouse events' use cases: create one, mark the game of a match that finished
first, and the reads (the pairs' table and the match cards with each match's result
by the rule).

A Bughouse event is a team round robin of pairs (two boards a match) whose details
say ``bughouse`` (the rule, ``sum`` or ``first``): the pairs and their players are
added, started and their games' results entered as any team tournament's
(:mod:`crosstable.service.teams.part`). The first-finished marks are kept in the
regulations' details (``bughouse_first``), so a mark is one event of the history
that undo takes back as any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.teams import Match, TeamStandings, rounds_of_matches
from crosstable.core.teams.bughouse import (
    BughouseRules,
    bughouse_details,
    bughouse_settings,
    bughouse_standings,
    is_bughouse,
)
from crosstable.core.text import Message
from crosstable.service.errors import NotFoundError
from crosstable.service.frame import Change, ChangeFrame, Done
from crosstable.service.registration import Regulations
from crosstable.service.teams.bughouse_knockout import (
    bughouse_knockout_details,
    continue_pairs_knockout,
    is_pairs_knockout,
)
from crosstable.service.teams.bughouse_swiss import pair_next
from crosstable.service.teams.rows import TeamState, team_state
from crosstable.service.unit import Tx
from crosstable.store.models import TournamentRow


class Creates(Protocol):
    def create_tournament(self, regulations: Regulations, *, actor: str = "") -> Change: ...


@dataclass(frozen=True, slots=True)
class KnockoutOptions:
    """A knockout of pairs' match settings, as an individual knockout's (docs/knockout.md):
    games a match (each a Bughouse match), the tie rule, formats by round, third place."""

    match_format: str = "1"
    tie_rule: str = "lower-rated"
    round_formats: str = ""
    third_place: bool = False


@dataclass(frozen=True, slots=True)
class BughouseMatch:
    """A match as the reads show it: the match, the game marked finished first (its
    board, None: not marked) and the match points (None: not decided yet)."""

    number: int
    match: Match
    first: int | None
    match_points: tuple[Fraction, Fraction] | None


def _rules(row: TournamentRow) -> BughouseRules:
    details = row.regulations or {}
    if not is_bughouse(details):
        raise RuleError("tournament {tournament} is not a Bughouse event", tournament=row.id)
    return bughouse_settings(details)[1]


class BughousePlay:
    """Bughouse events' own use cases (handed the use case that creates a tournament)."""

    def __init__(self, frame: ChangeFrame, tournaments: Creates) -> None:
        self.frame = frame
        self.tournaments = tournaments

    def create_bughouse_tournament(
        self,
        name: str,
        rule: str = "sum",
        *,
        scoring: str = "2-1-0",
        primary: str = "MP",
        tiebreaks: Sequence[str] = (),
        cycles: int = 1,
        swiss: bool = False,
        rounds: int | None = None,
        knockout: KnockoutOptions | None = None,
        actor: str = "",
    ) -> Change:
        """A round robin of Bughouse pairs (``swiss``: a Swiss of pairs by the Dutch
        rules in ``rounds`` rounds; ``knockout``: a knockout of pairs with these match
        settings) whose matches are decided by ``rule``."""
        if knockout is not None:
            details = bughouse_knockout_details(
                rule,
                match_format=knockout.match_format,
                tie_rule=knockout.tie_rule,
                round_formats=knockout.round_formats,
                third_place=knockout.third_place,
                scoring=scoring,
                primary=primary,
                tiebreaks=tiebreaks,
            )
            ko = Regulations(name=name, system=System.KNOCKOUT, details=details)
            return self.tournaments.create_tournament(ko, actor=actor)
        details = bughouse_details(
            rule, scoring=scoring, primary=primary, tiebreaks=tiebreaks, swiss=swiss
        )
        if swiss:
            regulations = Regulations(
                name=name, system=System.SWISS_DUTCH, rounds=rounds, details=details
            )
        else:
            regulations = Regulations(
                name=name, system=System.ROUND_ROBIN, cycles=cycles, details=details
            )
        return self.tournaments.create_tournament(regulations, actor=actor)

    def pair_bughouse_round(self, tournament_id: int, *, actor: str = "") -> Change:
        """Pair the next round of a Swiss of pairs from the results and marks stored;
        in a knockout of pairs, continue it: the tie-break matches now due, or the next
        round once every match of the round is decided."""

        def body(tx: Tx) -> Done:
            rules = _rules(tx.tournament)
            if is_pairs_knockout(tx.tournament):
                return continue_pairs_knockout(tx)
            return pair_next(tx, team_state(tx.session, tx.tournament), rules)

        return self.frame.change(tournament_id, "bughouse-pair", body, actor=actor)

    def mark_first_finished(
        self, tournament_id: int, round_number: int, board: int, *, actor: str = ""
    ) -> Change:
        """The game on ``board`` of ``round_number`` finished first in its match (a mark
        on the match's other game is replaced); under the ``first`` rule it decides."""

        def body(tx: Tx) -> Done:
            row = tx.tournament
            rules = _rules(row)
            if rules.rule != "first":
                raise RuleError(
                    "the match rule is {rule}: no game decides a match alone", rule=rules.rule
                )
            if row.status != "running":
                raise RuleError("games are marked while the tournament is running")
            state = team_state(tx.session, row)
            match = _match_at(state, round_number, board)
            marks = rules.first.mark(match, board)
            details = dict(row.regulations or {})
            details["bughouse_first"] = marks.text()
            tx.update(row, regulations=details)
            tx.flush()
            return Done(
                Message(
                    "round {round}: the game on board {board} finished first",
                    round=round_number,
                    board=board,
                ),
                {"round": round_number, "board": board},
            )

        return self.frame.change(tournament_id, "bughouse-first", body, actor=actor)

    def _state(self, tournament_id: int) -> tuple[TeamState, BughouseRules]:
        with self.frame.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise NotFoundError(
                    "there is no tournament {tournament} in this database",
                    tournament=tournament_id,
                )
            rules = _rules(row)
            return team_state(session, row), rules

    def bughouse_rule(self, tournament_id: int) -> str:
        """The event's match rule: ``sum`` or ``first``."""
        return self._state(tournament_id)[1].rule

    def bughouse_standings(self, tournament_id: int) -> TeamStandings:
        """The pairs' table: match points by the rule, then the tie-breaks."""
        state, rules = self._state(tournament_id)
        return bughouse_standings(state.games, state.teams, rules, state.settings.tiebreaks)

    def bughouse_matches(self, tournament_id: int) -> tuple[BughouseMatch, ...]:
        """Every match, round by round, with its first-finished mark and match points."""
        state, rules = self._state(tournament_id)
        out = []
        for number, matches in enumerate(rounds_of_matches(state.games, state.teams), 1):
            for match in matches:
                first = rules.first.first_of(match)
                mark = first.board if first is not None else None
                out.append(BughouseMatch(number, match, mark, rules.match_points(match)))
        return tuple(out)


def _match_at(state: TeamState, round_number: int, board: int) -> Match:
    rounds = rounds_of_matches(state.games, state.teams)
    if not 1 <= round_number <= len(rounds):
        raise NotFoundError("there is no round {round}", round=round_number)
    for match in rounds[round_number - 1]:
        if any(g.board == board for g in match.games):
            return match
    raise NotFoundError("round {round} has no board {board}", round=round_number, board=board)


__all__ = ["BughouseMatch", "BughousePlay", "KnockoutOptions"]
