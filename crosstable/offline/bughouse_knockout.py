"""A knockout of Bughouse pairs in the offline app, laid out as the server stores one.

The core's knockout runs the bracket of the pairs (numbered by their average rating,
rated by it); each of its games is a Bughouse match seated on two boards. As on the
server, a store round is a *sitting* (game *n* of knockout round *r* in round
``base(r) + n - 1``), a match takes the next two boards of its round in bracket order,
and the engine's state is replayed from the seated matches, their results and the
first-finished marks whenever it is needed. *Continue* (the app's ``pair``) seats the
tie-break matches now due or, once every match of the round is decided, the next round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from crosstable.core.errors import RuleError
from crosstable.core.model import Bye, ByeKind, Player, Round, Tournament
from crosstable.core.pairing.knockout import Knockout
from crosstable.core.system_settings import KnockoutSettings
from crosstable.core.teams.bughouse import BughouseRules, pair_rating
from crosstable.core.teams.bughouse_pairing import seat_pairs
from crosstable.core.teams.matches import Match, team_of
from crosstable.core.teams.roster import Team
from crosstable.offline.knockout import knockout_settings, start_knockout


@dataclass(frozen=True, slots=True)
class Seated:
    """A knockout game seated as a Bughouse match: its slot and number in the match, its
    store round and its first board (the second is the next)."""

    slot: int
    game: int
    round: int
    board: int


@dataclass(frozen=True, slots=True)
class Played:
    """The engine's state replayed: the knockout, the games due and not yet seated (slot,
    game, White pair, Black pair, store round) and the seated matches no longer needed."""

    knockout: Knockout
    due: tuple[tuple[int, int, int, int, int], ...]
    surplus: tuple[Seated, ...]
    base: int  # the store round of the current knockout round's first games


def bracket_of(pairs: tuple[Team, ...], details: Mapping[str, Any]) -> Knockout:
    """The knockout of the pairs under ``details`` at its start."""
    players = tuple(Player(p.start, p.name, pair_rating(p)) for p in pairs)
    return start_knockout(players, details)


def settings_of(details: Mapping[str, Any]) -> KnockoutSettings:
    return knockout_settings(details)


def start_games(
    pairs: tuple[Team, ...], details: Mapping[str, Any], games: Tournament
) -> tuple[Tournament, tuple[Seated, ...]]:
    """Round 1's matches seated and the pairs with a bye given it (both players)."""
    ko = bracket_of(pairs, details)
    due = [(slot, g.number, g.white, g.black, g.number) for slot, g in ko.pending_games()]
    games, seated = seat(games, pairs, (), due)
    byes = tuple(
        Bye(1, player, ByeKind.PAIRING)
        for start in sorted(ko.bracket.byes)
        for player in pairs[start - 1].starts
    )
    first = replace(games.rounds[0], byes=byes)
    return replace(games, rounds=(first, *games.rounds[1:])), seated


def seat(
    games: Tournament,
    pairs: tuple[Team, ...],
    seated: tuple[Seated, ...],
    due: list[tuple[int, int, int, int, int]],
) -> tuple[Tournament, tuple[Seated, ...]]:
    """The ``due`` games (slot, game, White pair, Black pair, store round) seated after
    the last board of their store round, in bracket order."""
    rounds = {r.number: r for r in games.rounds}
    added = list(seated)
    for slot, number, white, black, rnd in sorted(due, key=lambda d: (d[4], d[0], d[1])):
        there = rounds.get(rnd, Round(rnd, ()))
        first = max((g.board for g in there.games), default=0) + 1
        placed = seat_pairs(rnd, pairs, [(white, black)], first_board=first)
        rounds[rnd] = replace(there, games=(*there.games, *placed.games))
        added.append(Seated(slot, number, rnd, first))
    if sorted(rounds) != list(range(1, len(rounds) + 1)):
        raise RuleError("the knockout's sittings are not numbered 1 to {count}", count=len(rounds))
    ordered = tuple(rounds[n] for n in sorted(rounds))
    return replace(games, rounds=ordered), tuple(added)


def play(
    pairs: tuple[Team, ...],
    details: Mapping[str, Any],
    games: Tournament,
    seated: tuple[Seated, ...],
    rules: BughouseRules,
) -> Played:
    """The knockout replayed from the seated matches (as the server replays its rows)."""
    ko = bracket_of(pairs, details)
    owner = team_of(pairs)
    at = {(g.round, g.board): g for r in games.rounds for g in r.games}
    by_key = {(s.slot, s.game): s for s in seated}
    used: set[tuple[int, int]] = set()
    base = {1: 1}
    rnd = 1
    while True:
        progressed = True
        while progressed:
            progressed = False
            for slot, game in ko.pending_games():
                s = by_key.get((slot, game.number))
                if s is None or (slot, game.number) in used:
                    continue
                boards = (at[(s.round, s.board)], at[(s.round, s.board + 1)])
                match = Match(s.round, 1, game.white, game.black, boards, owner)
                result = rules.match_result(match)
                if result is None:
                    continue
                ko = ko.record(slot, game.number, result)
                used.add((slot, game.number))
                progressed = True
        if rnd == ko.bracket.rounds:
            break
        following = {slot.number for slot in ko.bracket.round_slots(rnd + 1)}
        if not any(slot in following for slot, _n in by_key):
            break
        if ko.undecided():
            raise RuleError(
                "round {round} board {board} is not the pairing the core makes",
                round=min(s.round for s in seated if s.slot in following),
                board=min(s.board for s in seated if s.slot in following),
            )
        longest = max(len(ko.status(m.slot).games) for m in ko.matches if m.round == rnd)
        base[rnd + 1] = base[rnd] + longest
        ko = ko.pair_next_round()
        rnd += 1
    pending = {(slot, g.number) for slot, g in ko.pending_games()}
    due = tuple(
        (slot, g.number, g.white, g.black, base.get(ko.match(slot).round, base[rnd]) + g.number - 1)
        for slot, g in ko.pending_games()
        if (slot, g.number) not in by_key
    )
    surplus = tuple(s for key, s in by_key.items() if key not in used and key not in pending)
    return Played(ko, due, surplus, base[rnd])


def next_round_due(played: Played) -> tuple[Knockout, list[tuple[int, int, int, int, int]]]:
    """The next knockout round paired and its games due (every match decided)."""
    ko = played.knockout
    longest = max(len(ko.status(m.slot).games) for m in ko.matches if m.round == ko.round)
    base = played.base + longest
    paired = ko.pair_next_round()
    due = [
        (slot, g.number, g.white, g.black, base + g.number - 1)
        for slot, g in paired.pending_games()
    ]
    return paired, due


def drop(
    games: Tournament, seated: tuple[Seated, ...], surplus: tuple[Seated, ...]
) -> tuple[Tournament, tuple[Seated, ...]]:
    """The seated matches no longer needed removed (refused when one has a result)."""
    gone = {(s.round, s.board + k) for s in surplus for k in (0, 1)}
    for rnd in games.rounds:
        for g in rnd.games:
            if (rnd.number, g.board) in gone and g.result is not None:
                raise RuleError(
                    "round {round} board {board} is not the pairing the core makes",
                    round=rnd.number,
                    board=g.board,
                )
    rounds = tuple(
        replace(r, games=tuple(g for g in r.games if (r.number, g.board) not in gone))
        for r in games.rounds
    )
    kept = tuple(s for s in seated if s not in surplus)
    return replace(games, rounds=tuple(r for r in rounds if r.games or r.byes)), kept


__all__ = [
    "Played",
    "Seated",
    "bracket_of",
    "drop",
    "next_round_due",
    "play",
    "seat",
    "settings_of",
    "start_games",
]
