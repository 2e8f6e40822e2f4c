"""The ``"bughouse"`` member of a tournament JSON: what a tournament of players has no
field for when its players play as Bughouse pairs.

The games, players and rounds are the tournament JSON's own (a round robin or a Dutch
Swiss of the pairs' players, each match on two boards); beside them:

```json
"bughouse": {
  "rule": "first",
  "initial_colour": "white",
  "pairs": [{"pair": 1, "name": "Knights", "players": [1, 2]}, …],
  "first": [{"round": 1, "board": 2}, …]
}
```

``rule`` decides a match (``sum`` or ``first``); ``initial_colour`` is a Swiss's
colour of the first pair in round 1; pair *k* plays with the players *2k−1* and *2k*
(its first and second board); ``first`` lists the games that finished first in their
match (under the rule ``first``). A knockout of pairs adds ``"knockout": {"settings":
{…}, "matches": [{"slot", "game", "round", "board"}, …]}``: the server's knockout
settings and, for each knockout game, the store round and first board of its Bughouse
match (the second board is the next).

>>> from crosstable.core.model import Player, Tournament
>>> t = Tournament(players=tuple(Player(n, f"P{n}") for n in range(1, 5)))
>>> member = bughouse_json("sum", "white", [(1, "A", (1, 2)), (2, "B", (3, 4))], [])
>>> part = read_bughouse(member, t, "x.json")
>>> [(p.start, p.name, p.starts) for p in part.pairs]
[(1, 'A', (1, 2)), (2, 'B', (3, 4))]
>>> try:
...     read_bughouse({**member, "initial_colour": "red"}, t, "x.json")
... except InputError as error:
...     print(error)
x.json: $.bughouse.initial_colour: the initial colour is white or black
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from crosstable.core.errors import CrosstableError, InputError
from crosstable.core.model import Tournament
from crosstable.core.teams.bughouse import BughouseRules
from crosstable.core.teams.roster import Team
from crosstable.core.text import Message

MEMBER_KEYS = ("rule", "initial_colour", "pairs", "first", "knockout")
MATCH_KEYS = ("slot", "game", "round", "board")
COLOURS = ("white", "black")


@dataclass(frozen=True, slots=True)
class BughousePart:
    """The member read: the rule, a Swiss's initial colour, the pairs (their players the
    tournament's) and the first-finished marks (round, board)."""

    rule: str
    colour: str
    pairs: tuple[Team, ...]
    first: tuple[tuple[int, int], ...]
    #: a knockout of pairs: its settings (texts) and each match's (slot, game, round, board)
    knockout: dict[str, str] | None = None
    matches: tuple[tuple[int, int, int, int], ...] = ()


def bughouse_json(
    rule: str,
    colour: str,
    pairs: Sequence[tuple[int, str, tuple[int, int]]],
    first: Sequence[tuple[int, int]],
    knockout: tuple[dict[str, str], Sequence[tuple[int, int, int, int]]] | None = None,
) -> dict[str, Any]:
    """The member for ``pairs`` given as (pair, name, (first board's player, second's));
    ``knockout``: a knockout of pairs' settings and matches (slot, game, round, board)."""
    extra: dict[str, Any] = {}
    if knockout is not None:
        extra["knockout"] = {
            "settings": dict(knockout[0]),
            "matches": [dict(zip(MATCH_KEYS, m, strict=True)) for m in sorted(knockout[1])],
        }
    return (
        extra
        | {
            "rule": rule,
            "initial_colour": colour,
            "pairs": [
                {"pair": number, "name": name, "players": list(players)}
                for number, name, players in pairs
            ],
            "first": [{"round": r, "board": b} for r, b in sorted(first)],
        }
        | extra
    )


def read_bughouse(member: Any, tournament: Tournament, source: str) -> BughousePart:
    """The member checked against ``tournament`` (each refusal names its place)."""
    if not isinstance(member, dict):
        raise _bad("$.bughouse", Message("the Bughouse member is a JSON object"), source)
    unknown = sorted(set(member) - set(MEMBER_KEYS))
    if unknown:
        raise _bad(
            "$.bughouse",
            Message(
                "unknown key {key}: use {keys}",
                key=repr(unknown[0][:40]),
                keys=", ".join(MEMBER_KEYS),
            ),
            source,
        )
    rule = member.get("rule")
    try:
        BughouseRules(rule if isinstance(rule, str) else repr(rule))
    except CrosstableError as error:
        raise _bad("$.bughouse.rule", error.text, source) from None
    colour = member.get("initial_colour", "white")
    if colour not in COLOURS:
        raise _bad(
            "$.bughouse.initial_colour", Message("the initial colour is white or black"), source
        )
    pairs = _pairs(member.get("pairs"), tournament, source)
    first = _marks(member.get("first", []), source)
    if "knockout" not in member:
        return BughousePart(str(rule), str(colour), pairs, first)
    settings, matches = _knockout(member["knockout"], source)
    return BughousePart(str(rule), str(colour), pairs, first, settings, matches)


def _knockout(
    given: Any, source: str
) -> tuple[dict[str, str], tuple[tuple[int, int, int, int], ...]]:
    where = "$.bughouse.knockout"
    if not isinstance(given, dict) or set(given) != {"settings", "matches"}:
        raise _bad(where, Message("expected an object of settings and matches"), source)
    settings = given["settings"]
    if not isinstance(settings, dict) or not all(isinstance(v, str) for v in settings.values()):
        raise _bad(
            where + ".settings",
            Message("expected an object of texts (match_format, tie_rule…)"),
            source,
        )
    if not isinstance(given["matches"], list):
        raise _bad(where + ".matches", Message("expected a list"), source)
    matches = []
    for index, item in enumerate(given["matches"]):
        values = [item.get(k) if isinstance(item, dict) else None for k in MATCH_KEYS]
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in values):
            raise _bad(
                f"{where}.matches[{index}]",
                Message("slot, game, round and board are whole numbers from 1"),
                source,
            )
        matches.append((int(values[0]), int(values[1]), int(values[2]), int(values[3])))  # type: ignore[arg-type]
    return dict(settings), tuple(matches)


def _pairs(given: Any, tournament: Tournament, source: str) -> tuple[Team, ...]:
    if not isinstance(given, list) or not given:
        raise _bad("$.bughouse.pairs", Message("the pairs are a list of objects"), source)
    players = {p.start: p for p in tournament.players}
    if len(players) != 2 * len(given):
        raise _bad(
            "$.bughouse.pairs",
            Message(
                "{pairs} pairs need {players} players, the tournament has {count}",
                pairs=len(given),
                players=2 * len(given),
                count=len(players),
            ),
            source,
        )
    pairs: list[Team] = []
    names: set[str] = set()
    for index, item in enumerate(given):
        where = f"$.bughouse.pairs[{index}]"
        number = index + 1
        if not isinstance(item, dict) or item.get("pair") != number:
            raise _bad(where, Message("pair {pair} is expected here", pair=number), source)
        name = item.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > 200:
            raise _bad(where + ".name", Message("a name is required"), source)
        if name.casefold() in names:
            raise _bad(
                where + ".name", Message("there is already a pair named {name}", name=name), source
            )
        names.add(name.casefold())
        expected = [2 * number - 1, 2 * number]
        if item.get("players") != expected:
            raise _bad(
                where + ".players",
                Message(
                    "pair {pair} plays with the players {first} and {second}",
                    pair=number,
                    first=expected[0],
                    second=expected[1],
                ),
                source,
            )
        pairs.append(Team(number, name, tuple(players[s] for s in expected), 2))
    return tuple(pairs)


def _marks(given: Any, source: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(given, list):
        raise _bad("$.bughouse.first", Message("the marks are a list of objects"), source)
    marks = []
    for index, item in enumerate(given):
        values = [item.get(k) if isinstance(item, dict) else None for k in ("round", "board")]
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in values):
            raise _bad(
                f"$.bughouse.first[{index}]",
                Message("a mark has a round and a board, whole numbers from 1"),
                source,
            )
        marks.append((int(values[0]), int(values[1])))  # type: ignore[arg-type]
    return tuple(marks)


def _bad(where: str, why: Message | str, source: str) -> InputError:
    return InputError("{where}: {why}", where=where, why=why, source=source)


__all__ = ["BughousePart", "bughouse_json", "read_bughouse"]
