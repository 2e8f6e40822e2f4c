"""A knockout in the tournament JSON: the ``"knockout"`` member beside ``"tournament"``.

The tournament part holds the knockout as the server stores it (store rounds are
sittings, a first-round bye is a pairing-allocated bye in round 1); this member adds
what a tournament has no field for: the knockout's settings (the server's regulations
details: ``match_format``, ``tie_rule``, ``bracket``, ``lots_seed``, ``round_formats``,
``third_place``), the bracket slot and the number within its match of every game, and
the winner (``null`` until there is one)::

    "knockout": {"settings": {"match_format": "2", "tie_rule": "armageddon", …},
                 "games": [{"round": 1, "board": 1, "slot": 2, "game": 1}, …],
                 "winner": 3}

>>> from crosstable.core.model import Game, Player, Round, Tournament
>>> players = (Player(1, "A"), Player(2, "B"))
>>> t = Tournament(players=players, rounds=(Round(1, (Game(1, 1, 1, 2),)),))
>>> games = [{"round": 1, "board": 1, "slot": 1, "game": 1}]
>>> data = {"settings": {"match_format": "1"}, "games": games, "winner": None}
>>> read_knockout(data, t).games[0].slot
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crosstable.core.errors import InputError
from crosstable.core.model import GameResult, Tournament
from crosstable.core.text import Message

#: the most games a knockout file may map (a 1 024-player bracket with long matches)
MAX_GAMES = 20_000
_KEYS = {"settings", "games", "winner"}
_GAME_KEYS = ("round", "board", "slot", "game")


@dataclass(frozen=True, slots=True)
class SlotGame:
    """A game of the tournament part and its place in the bracket."""

    round: int
    board: int
    slot: int
    game: int
    white: int
    black: int
    result: GameResult | None


@dataclass(frozen=True, slots=True)
class KnockoutPart:
    """The ``"knockout"`` member read: the settings, every game's slot, the winner."""

    settings: dict[str, str]
    games: tuple[SlotGame, ...]
    winner: int | None


def knockout_json(
    settings: dict[str, str], games: list[tuple[int, int, int, int]], winner: int | None
) -> dict[str, Any]:
    """The member from the settings, ``(round, board, slot, game)`` of each game and the winner."""
    return {
        "settings": dict(settings),
        "games": [dict(zip(_GAME_KEYS, game, strict=True)) for game in games],
        "winner": winner,
    }


def read_knockout(data: object, tournament: Tournament, source: str = "<json>") -> KnockoutPart:
    """The member checked against the tournament part: every game there has exactly one
    slot and number, no two games share them; errors name the JSON path."""

    def fail(path: str, why: str, **params: object) -> InputError:
        return InputError(
            "{where}: {why}", source=source, where=f"$.knockout{path}", why=Message(why, **params)
        )

    if not isinstance(data, dict):
        raise fail("", "expected an object")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise fail("", "unknown field {name}", name=repr(unknown[0][:40]))
    settings = data.get("settings", {})
    if not isinstance(settings, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and len(v) <= 200 for k, v in settings.items()
    ):
        raise fail(".settings", "expected an object of texts (match_format, tie_rule…)")
    winner = data.get("winner")
    if winner is not None and (isinstance(winner, bool) or not isinstance(winner, int)):
        raise fail(".winner", "expected a starting number or null")
    rows = data.get("games")
    if not isinstance(rows, list):
        raise fail(".games", "expected a list")
    if len(rows) > MAX_GAMES:
        raise fail(".games", "more than {count} games", count=MAX_GAMES)
    played = {(g.round, g.board): g for r in tournament.rounds for g in r.games}
    seen: dict[tuple[int, int], int] = {}
    placed: set[tuple[int, int]] = set()
    games: list[SlotGame] = []
    for index, row in enumerate(rows):
        where = f".games[{index}]"
        if not isinstance(row, dict) or set(row) != set(_GAME_KEYS):
            raise fail(where, "expected an object of round, board, slot and game")
        values = [row[key] for key in _GAME_KEYS]
        if any(
            isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 10**6 for v in values
        ):
            raise fail(where, "round, board, slot and game are whole numbers from 1")
        rnd, board, slot, number = values
        game = played.get((rnd, board))
        if game is None:
            raise fail(
                where,
                "the tournament has no game at round {round} board {board}",
                round=rnd,
                board=board,
            )
        if (rnd, board) in placed:
            raise fail(where, "round {round} board {board} is listed twice", round=rnd, board=board)
        if (slot, number) in seen:
            raise fail(where, "slot {slot} game {game} is listed twice", slot=slot, game=number)
        placed.add((rnd, board))
        seen[(slot, number)] = index
        games.append(SlotGame(rnd, board, slot, number, game.white, game.black, game.result))
    missing = sorted(set(played) - placed)
    if missing:
        rnd, board = missing[0]
        raise fail(".games", "round {round} board {board} has no slot", round=rnd, board=board)
    return KnockoutPart(dict(settings), tuple(games), winner)
