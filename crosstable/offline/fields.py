"""The offline app's checked fields, shared by every kind of tournament: a name, a whole
number, a result written into a round's board."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from crosstable.core.errors import InputError, RuleError
from crosstable.core.model import GameResult, Tournament

MAX_NAME = 100


def clean_name(value: Any) -> str:
    """A name with its spaces tidied; refused when blank or too long."""
    if not isinstance(value, str) or not value.strip():
        raise InputError("a name is required")
    text = " ".join(value.split())
    if len(text) > MAX_NAME:
        raise InputError("a name has at most {count} characters", count=MAX_NAME)
    return text


def whole_number(entry: dict[str, Any], key: str, *, optional: bool = False) -> int | None:
    """``entry[key]`` as a whole number from 0 to 4000 (None when optional and empty)."""
    value = entry.get(key)
    if value in (None, "") and optional:
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 4000:
        raise InputError("{field} must be a whole number from 0 to 4000", field=key)
    return value


def result_text(action: dict[str, Any]) -> str:
    """The action's result as text the core reads ("" clears it)."""
    text = action.get("result")
    if text not in (None, "") and not isinstance(text, str):
        raise InputError("a result is text such as 1-0, ½-½, 0-1, +/-")
    result = text or ""
    if result:
        GameResult.parse(result)  # refuses what it cannot read, with the text named
    return result


def record_result(
    tournament: Tournament, number: int, board: int, result: GameResult | None
) -> Tournament:
    """``tournament`` with the game on ``board`` of round ``number`` given ``result``."""
    rounds = list(tournament.rounds)
    for i, rnd in enumerate(rounds):
        if rnd.number != number:
            continue
        for j, game in enumerate(rnd.games):
            if game.board == board:
                games = list(rnd.games)
                games[j] = replace(game, result=result)
                rounds[i] = replace(rnd, games=tuple(games))
                return replace(tournament, rounds=tuple(rounds))
    raise RuleError("there is no board {board} in round {round}", board=board, round=number)
