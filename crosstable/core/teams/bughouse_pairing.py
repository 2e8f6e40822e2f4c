"""Pairing Bughouse pairs: the round robin, the Swiss and the knockout of pairs.

No pairing here is Bughouse's own: each system pairs the pairs as competitors and the
team seating puts each match on two boards (the pair drawn White has White on its
first board, Black on its second, so partners always have opposite colours).

* the round robin is the team round robin (FIDE Berger tables) of pairs;
* the Swiss is the FIDE Dutch engine on the table of pairs (:class:`BughouseKind`):
  each pair rated by the average of its two players, scored by match points from
  the regulations' rule; a pair left over gets the pairing-allocated bye (both its
  players have it);
* the knockout is the knockout bracket of pairs: each game of a knockout match is a
  Bughouse match, its result the match result by the rule.

>>> from crosstable.core.model import Player, Tournament
>>> pairs = [Team(n, f"P{n}", (Player(2 * n - 1, "a", 2000 - 10 * n),
...     Player(2 * n, "b", 1900)), 2) for n in (1, 2, 3)]
>>> games = Tournament(players=tuple(p for t in pairs for p in t.members))
>>> r = pair_swiss_round(games, pairs, BughouseRules())
>>> [(g.board, g.white, g.black) for g in r.games], [b.player for b in r.byes]
([(1, 1, 3), (2, 4, 2)], [5, 6])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from crosstable.core.errors import RuleError
from crosstable.core.model import Bye, ByeKind, Colour, Game, GameResult, Tournament
from crosstable.core.pairing.dutch import pair_round, request_for
from crosstable.core.pairing.knockout import Knockout
from crosstable.core.schedule import Schedule
from crosstable.core.teams.bughouse import BughouseKind, BughouseRules, as_competitor, check_pairs
from crosstable.core.teams.matches import Match, seat_match, team_of
from crosstable.core.teams.pairing import team_round_robin
from crosstable.core.teams.roster import Team


def bughouse_round_robin(pairs: Sequence[Team], *, cycles: int = 1) -> Schedule:
    """The pairs' Berger tables (``cycles`` 2: the double round robin)."""
    check_pairs(pairs)
    return team_round_robin(pairs, cycles=cycles)


def pairs_table(games: Tournament, pairs: Sequence[Team], rules: BughouseRules) -> Tournament:
    """The tournament of pairs (numbered as the pairs, rated by their averages) whose
    games are the matches, decided by ``rules``."""
    check_pairs(pairs)
    return BughouseKind(rules).table(games, [as_competitor(p) for p in pairs])


@dataclass(frozen=True, slots=True)
class BughouseRound:
    """A round of pairs: the matches as (White pair, Black pair), their games board
    by board, and the byes of the pair left over (one per player)."""

    number: int
    matches: tuple[tuple[int, int], ...]
    games: tuple[Game, ...]
    byes: tuple[Bye, ...]


def pair_swiss_round(
    games: Tournament,
    pairs: Sequence[Team],
    rules: BughouseRules,
    *,
    initial_colour: Colour = Colour.WHITE,
    total_rounds: int | None = None,
) -> BughouseRound:
    """The next round of a Swiss of pairs by the Dutch rules (the pairs numbered in
    their initial ranking, :func:`crosstable.core.teams.swiss.initial_order`: the
    higher average rating first). Every match of the rounds before must be decided."""
    table = pairs_table(games, pairs, rules)
    for rnd in table.rounds:
        for game in rnd.games:
            if game.result is None:
                raise RuleError(
                    "round {round}: the match of pairs {white} and {black} is not decided yet",
                    round=rnd.number,
                    white=game.white,
                    black=game.black,
                )
    request = request_for(table, initial_colour=initial_colour, total_rounds=total_rounds)
    pairing = pair_round(request)
    return seat_pairs(pairing.round, pairs, pairing.boards, pairing.bye)


def seat_pairs(
    number: int,
    pairs: Sequence[Team],
    matches: Sequence[tuple[int, int]],
    bye: int | None = None,
    *,
    first_board: int = 1,
) -> BughouseRound:
    """Round ``number``'s games: each match on two boards, numbered from ``first_board``."""
    by_start = {p.start: p for p in pairs}
    games: list[Game] = []
    for white, black in matches:
        sides = [by_start[t].starts[:2] for t in (white, black)]
        games.extend(seat_match(number, first_board + len(games), sides[0], sides[1]))
    byes = (
        tuple(Bye(number, s, ByeKind.PAIRING) for s in by_start[bye].starts[:2])
        if bye is not None
        else ()
    )
    return BughouseRound(number, tuple(matches), tuple(games), byes)


def knockout_round(ko: Knockout, pairs: Sequence[Team], number: int) -> BughouseRound:
    """The games waiting in a knockout of pairs (its competitors are the pairs'
    numbers), each knockout game a Bughouse match seated on two boards."""
    matches = tuple((game.white, game.black) for _slot, game in ko.pending_games())
    return seat_pairs(number, pairs, matches)


def knockout_record(
    ko: Knockout, pairs: Sequence[Team], boards: Sequence[Game], rules: BughouseRules
) -> Knockout:
    """``ko`` with the Bughouse match on ``boards`` (its two games) entered as the
    result of the knockout game of those two pairs; unchanged while it is undecided."""
    owner = team_of(pairs)
    first = boards[0]
    white, black = owner[first.white], owner[first.black]
    match = Match(first.round, 1, white, black, tuple(boards), owner)
    result = rules.match_result(match)
    if result is None:
        return ko
    for slot, game in ko.pending_games():
        if {game.white, game.black} == {white, black}:
            if game.white != white:
                result = GameResult(result.black, result.white)
            return ko.record(slot, game.number, result)
    raise RuleError(
        "pairs {white} and {black} have no knockout game waiting", white=white, black=black
    )


__all__ = [
    "BughouseRound",
    "bughouse_round_robin",
    "knockout_record",
    "knockout_round",
    "pair_swiss_round",
    "pairs_table",
    "seat_pairs",
]
