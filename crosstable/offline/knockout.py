"""The offline app's knockout: its settings (those of the server's knockout, read by the
same parser) and its games placed as the server stores them.

The server keeps a knockout's games as ordinary games whose store round is a *sitting*:
game *n* of every match of knockout round *r* is in round ``base(r) + n - 1``, where
``base(1) = 1`` and the next knockout round starts right after the longest match of the
round before; a first-round bye is a bye in round 1. The app places its
games the same way, so that its export reads as a tournament and each game keeps its
bracket slot and its number within the match.

>>> from crosstable.core.model import Player
>>> players = tuple(Player(n, f"P{n}", 2000 - n) for n in range(1, 4))
>>> ko = start_knockout(players, {"match_format": "2", "lots_seed": "7"})
>>> [(g.slot, g.game, g.round, g.board) for g in placed_games(ko)]
[(2, 1, 1, 1), (2, 2, 2, 1)]
>>> [b.player for b in knockout_tournament(ko, "Cup").rounds[0].byes]
[1]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from crosstable.core.errors import CrosstableError, InputError, RuleError
from crosstable.core.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Player,
    Round,
    Settings,
    System,
    Tournament,
)
from crosstable.core.pairing.knockout import BracketOrder, Knockout
from crosstable.core.pairing.knockout_bracket import random_bracket, seeded_bracket
from crosstable.core.system_settings import KNOCKOUT_KEYS, KnockoutSettings
from crosstable.core.text import Message


@dataclass(frozen=True, slots=True)
class PlacedGame:
    """A game of the knockout: its slot and number in the match, and where it sits."""

    slot: int
    game: int
    round: int
    board: int
    white: int
    black: int
    result: GameResult | None
    kind: str


def knockout_settings(details: Mapping[str, Any]) -> KnockoutSettings:
    """The settings of ``details`` as the server reads its regulations (an unknown or
    misspelt setting refused), every lot from seed 0 when none is given."""
    if not isinstance(details, Mapping) or not all(
        isinstance(value, str) for value in details.values()
    ):
        raise InputError("the knockout's settings are texts such as match_format: 2")
    unknown = sorted(set(details) - set(KNOCKOUT_KEYS))
    if unknown:
        raise InputError(
            "unknown knockout setting {name}: use {names}",
            name=repr(unknown[0][:40]),
            names=", ".join(KNOCKOUT_KEYS),
        )
    settings = KnockoutSettings.from_details(details)
    return settings if settings.lots_seed is not None else settings.with_seed(0)


def start_knockout(players: tuple[Player, ...], details: Mapping[str, Any]) -> Knockout:
    """The knockout of ``players`` (by starting number) under ``details``, as the
    server's start makes it: seeded 1 v N by starting number, or drawn from the seed."""
    settings = knockout_settings(details)
    seed = settings.lots_seed or 0
    if settings.bracket is BracketOrder.RANDOM:
        bracket = random_bracket(players, seed)
    else:
        bracket = seeded_bracket(players, seeding=[p.start for p in players])
    return Knockout.start(bracket, settings.rules())


def placed_games(ko: Knockout) -> list[PlacedGame]:
    """Every game set up so far, in store rounds (sittings) and boards (by slot, then
    game, within a sitting)."""
    rows: list[tuple[int, int, int, Any]] = []
    base = 1
    for rnd in range(1, ko.round + 1):
        matches = [m for m in ko.matches if m.round == rnd]
        longest = 0
        for match in matches:
            games = ko.status(match.slot).games
            longest = max(longest, len(games))
            rows.extend((base + g.number - 1, match.slot, g.number, g) for g in games)
        base += longest
    placed: list[PlacedGame] = []
    boards: dict[int, int] = {}
    for sitting, slot, number, game in sorted(rows, key=lambda r: r[:3]):
        boards[sitting] = boards.get(sitting, 0) + 1
        placed.append(
            PlacedGame(
                slot,
                number,
                sitting,
                boards[sitting],
                game.white,
                game.black,
                game.result,
                game.kind.value,
            )
        )
    return placed


def knockout_tournament(ko: Knockout, name: str) -> Tournament:
    """The knockout as a tournament: the sittings as rounds, the byes in round 1."""
    by_round: dict[int, list[Game]] = {}
    for g in placed_games(ko):
        by_round.setdefault(g.round, []).append(Game(g.round, g.board, g.white, g.black, g.result))
    # (a full-point bye: a TRF's round holds one pairing-allocated bye, a bracket more)
    byes = tuple(Bye(1, start, ByeKind.FULL) for start in sorted(ko.bracket.byes))
    rounds = [
        Round(number, tuple(games), byes if number == 1 else ())
        for number, games in sorted(by_round.items())
    ]
    if not rounds and byes:  # (a knockout always has a game in round 1)
        rounds = [Round(1, (), byes)]  # pragma: no cover
    return Tournament(
        Settings(system=System.KNOCKOUT), ko.bracket.players, tuple(rounds), name=name
    )


@dataclass(frozen=True, slots=True)
class FiledGame:
    """A game as a file gives it: its slot and number in the match, the players, the result."""

    slot: int
    game: int
    white: int
    black: int
    result: GameResult | None


def knockout_log(
    players: tuple[Player, ...],
    details: Mapping[str, str],
    games: list[FiledGame],
    winner: int | None = None,
) -> list[dict[str, Any]]:
    """The app's log that plays ``games`` through the core: the players (their starting
    numbers kept), the start, each result in order and each next round. Refused, naming
    the slot and game, when the core would not make the file's games."""
    ordered = sorted(players, key=lambda p: p.start)
    log: list[dict[str, Any]] = [{"do": "add", "name": p.name, "rating": p.rating} for p in ordered]
    settings = knockout_settings(details)
    log.append({"do": "start", "keep": True, "knockout": settings.to_details(complete=True)})
    ko = start_knockout(tuple(ordered), settings.to_details(complete=True))
    filed = {(g.slot, g.game): g for g in games}
    if len(filed) != len(games):
        raise RuleError("the file has a game twice in one match")
    while True:
        progressed = False
        for slot, pending in ko.pending_games():
            wanted = filed.get((slot, pending.number))
            if wanted is None or wanted.result is None:
                continue
            try:
                ko = ko.record(slot, pending.number, wanted.result)
            except CrosstableError as error:
                raise _refused(slot, pending.number, error.text) from None
            log.append(
                {
                    "do": "result",
                    "slot": slot,
                    "game": pending.number,
                    "result": wanted.result.label(),
                }
            )
            progressed = True
        if progressed:
            continue
        reached = {m.slot for m in ko.matches}
        if ko.finished or ko.undecided(ko.round) or all(s in reached for s, _ in filed):
            break
        ko = ko.pair_next_round()
        log.append({"do": "pair"})
    _check_games(ko, filed, winner)
    return log


def _check_games(ko: Knockout, filed: dict[tuple[int, int], FiledGame], winner: int | None) -> None:
    made = {(g.slot, g.game): g for g in placed_games(ko)}
    for key, game in sorted(filed.items()):
        mine = made.get(key)
        if mine is None:
            raise _refused(*key, Message("the core sets up no such game as the results stand"))
        if (mine.white, mine.black) != (game.white, game.black):
            why = Message(
                "the core gives White to {white} and Black to {black}, the file to {given}",
                white=mine.white,
                black=mine.black,
                given=Message("{white} and {black}", white=game.white, black=game.black),
            )
            raise _refused(*key, why)
        if mine.result != game.result:
            raise _refused(*key, Message("the result cannot be entered as the match stands"))
    missing = sorted(key for key in made if key not in filed)
    if missing:
        raise _refused(
            *missing[0], Message("the core sets up this game and the file does not have it")
        )
    if winner is not None and ko.champion != winner:
        raise RuleError(
            "the file names {winner} the winner, the core {champion}",
            winner=winner,
            champion=str(ko.champion or "nobody yet"),
        )


def _refused(slot: int, game: int, why: Message | str) -> RuleError:
    return RuleError("knockout slot {slot} game {game}: {why}", slot=slot, game=game, why=why)
