"""A Bughouse event in the offline app: pairs of two players on two boards, run by the
core's Bughouse code as the server runs it.

The log's actions: ``add`` a pair (its name and its two players), ``remove`` one,
``start`` (``system``: ``round-robin`` — the pairs' Berger tables, numbered in the
order they were added — or ``swiss`` — the FIDE Dutch engine on the table of pairs,
numbered by their average rating as the server's Swiss of pairs; ``rule``: ``sum`` or
``first``; a Swiss's ``rounds`` and its initial ``colour``, drawn once at the start),
``result`` of one board, ``first`` (the game of a match that finished first, under the
rule ``first``) and ``pair`` (a Swiss's next round).

>>> state = {"kind": "bughouse", "name": "Evening", "log": []}
>>> for n in range(1, 4):
...     players = [{"name": f"P{n}a", "rating": 1800}, {"name": f"P{n}b", "rating": 1700}]
...     state["log"].append(clean({"do": "add", "name": f"Pair {n}", "players": players}))
>>> state["log"].append(clean({"do": "start", "rule": "sum"}))
>>> built = replay_pairs(state)
>>> [(g.board, g.white, g.black) for g in built.games.rounds[0].games]
[(1, 3, 5), (2, 6, 4)]
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from crosstable.core.errors import InputError, RuleError
from crosstable.core.model import (
    Colour,
    GameResult,
    Player,
    Round,
    Settings,
    System,
    Tournament,
)
from crosstable.core.pairing.dutch import default_rounds
from crosstable.core.teams.bughouse import BughouseRules, bughouse_details, bughouse_settings
from crosstable.core.teams.bughouse_pairing import (
    bughouse_round_robin,
    pair_swiss_round,
    seat_pairs,
)
from crosstable.core.teams.matches import Match, rounds_of_matches
from crosstable.core.teams.roster import Team
from crosstable.core.teams.swiss import initial_order
from crosstable.offline.bughouse_knockout import (
    Seated,
    bracket_of,
    drop,
    next_round_due,
    play,
    seat,
    settings_of,
    start_games,
)
from crosstable.offline.fields import clean_name, record_result, result_text, whole_number

KIND = "bughouse"
ACTIONS = ("add", "remove", "start", "result", "first", "pair")
SYSTEMS = ("round-robin", "swiss", "knockout")
COLOURS = ("white", "black")
MAX_PAIRS = 32
MAX_ROUNDS = 20


@dataclass(frozen=True)
class Pairs:
    """What a Bughouse log amounts to: the pairs (numbered once started), the games of
    their players (a tournament of players, pair ``k``'s players ``2k-1`` and ``2k``)
    and the rules with the first-finished marks."""

    pairs: tuple[Team, ...] = ()
    started: bool = False
    system: str = "round-robin"
    planned: int = 0
    colour: Colour = Colour.WHITE
    rules: BughouseRules = field(default_factory=BughouseRules)
    games: Tournament = field(default_factory=Tournament)
    #: a knockout of pairs: its settings written out in full, its matches seated
    knockout: dict[str, str] | None = None
    seated: tuple[Seated, ...] = ()


def clean(action: dict[str, Any], *, draw: bool = False) -> dict[str, Any]:
    """The action with only its own fields, each checked (``draw``: a Swiss's start
    without its initial colour gets one drawn, to be kept in the log)."""
    do = action.get("do")
    if do not in ACTIONS:
        raise InputError("unknown action: use one of {actions}", actions=", ".join(ACTIONS))
    if do == "add":
        players = action.get("players")
        if not isinstance(players, list) or len(players) != 2:
            raise InputError("a Bughouse pair has two players")
        if not all(isinstance(p, dict) for p in players):
            raise InputError("a Bughouse pair has two players")
        return {
            "do": do,
            "name": clean_name(action.get("name")),
            "players": [
                {
                    "name": clean_name(p.get("name")),
                    "rating": whole_number(p, "rating", optional=True),
                }
                for p in players
            ],
        }
    if do == "remove":
        return {"do": do, "pair": whole_number(action, "pair")}
    if do == "start":
        return _clean_start(action, draw)
    if do == "pair":
        return {"do": do}
    entry: dict[str, Any] = {
        "do": do,
        "round": whole_number(action, "round"),
        "board": whole_number(action, "board"),
    }
    if do == "result":
        entry["result"] = result_text(action)
    return entry


def _clean_start(action: dict[str, Any], draw: bool) -> dict[str, Any]:
    system = action.get("system") or "round-robin"
    if system not in SYSTEMS:
        raise InputError(
            "unknown tournament kind {kind}: use {kinds}",
            kind=str(system),
            kinds=", ".join(SYSTEMS),
        )
    rule = str(action.get("rule") or "sum").strip().lower()
    BughouseRules(rule)  # refuses an unknown rule, naming it
    entry: dict[str, Any] = {"do": "start", "system": system, "rule": rule}
    if action.get("keep") is True:
        entry["keep"] = True
    if system == "swiss":
        if action.get("rounds") not in (None, ""):
            entry["rounds"] = whole_number(action, "rounds")
        colour = action.get("colour")
        if colour in (None, "") and draw:
            colour = random.SystemRandom().choice(COLOURS)
        if colour not in (None, "", *COLOURS):
            raise InputError("the initial colour is white or black")
        entry["colour"] = colour or "white"
    if system == "knockout":
        given = action.get("knockout") or {}
        if not isinstance(given, dict):
            raise InputError("the knockout's settings are texts such as match_format: 2")
        details = {k: v for k, v in given.items() if v not in ("", None)}
        if "lots_seed" not in details and draw:  # drawn once, kept in the log
            details["lots_seed"] = str(random.SystemRandom().randrange(1, 10**9))
        entry["knockout"] = settings_of(details).to_details(complete=True)
    return entry


def replay_pairs(state: dict[str, Any]) -> Pairs:
    """Rebuild the Bughouse event from the state's log through the core."""
    built = Pairs()
    for index, entry in enumerate(state["log"]):
        if not isinstance(entry, dict) or entry.get("do") not in ACTIONS:
            raise InputError("log entry {index} is not an action", index=index + 1)
        built = step(state["name"], built, clean(entry))
    return built


def step(name: str, built: Pairs, entry: dict[str, Any]) -> Pairs:
    """``built`` after one cleaned action (refused as the core refuses it)."""
    do = entry["do"]
    if do in ("add", "remove") and built.started:
        raise RuleError("the tournament has started: its players are fixed")
    if do == "add":
        if len(built.pairs) >= MAX_PAIRS:
            raise RuleError("at most {count} pairs", count=MAX_PAIRS)
        if any(p.name.casefold() == entry["name"].casefold() for p in built.pairs):
            raise RuleError("there is already a pair named {name}", name=entry["name"])
        return replace(built, pairs=(*built.pairs, _pair(len(built.pairs) + 1, entry)))
    if do == "remove":
        number = entry["pair"]
        if not 1 <= number <= len(built.pairs):
            raise RuleError("there is no pair {pair}", pair=number)
        kept = [p for p in built.pairs if p.start != number]
        return replace(built, pairs=tuple(_renumber(p, i + 1) for i, p in enumerate(kept)))
    if do == "start":
        if built.started:
            raise RuleError("the tournament has already started")
        return _start(name, built, entry)
    if not built.started:
        raise RuleError("the tournament has not started yet")
    if do == "pair":
        return _pair_next(built)
    if do == "first":
        if built.rules.rule != "first":
            raise RuleError(
                "the match rule is {rule}: no game decides a match alone", rule=built.rules.rule
            )
        match = match_at(built, entry["round"], entry["board"])
        marks = built.rules.first.mark(match, entry["board"])
        after = replace(built, rules=replace(built.rules, first=marks))
        if after.knockout is not None:
            play(after.pairs, after.knockout, after.games, after.seated, after.rules)
        return after
    result = GameResult.parse(entry["result"]) if entry["result"] else None
    games = record_result(built.games, entry["round"], entry["board"], result)
    after = replace(built, games=games)
    if after.knockout is not None:
        play(after.pairs, after.knockout, games, after.seated, after.rules)  # as the bracket stands
    return after


def _pair(number: int, entry: dict[str, Any]) -> Team:
    members = tuple(
        Player(2 * number - 2 + k, p["name"], p["rating"])
        for k, p in enumerate(entry["players"], 1)
    )
    return Team(number, entry["name"], members, 2)


def _renumber(pair: Team, number: int) -> Team:
    members = tuple(replace(p, start=2 * number - 2 + k) for k, p in enumerate(pair.members, 1))
    return Team(number, pair.name, members, 2)


def _start(name: str, built: Pairs, entry: dict[str, Any]) -> Pairs:
    count = len(built.pairs)
    if count < 2:
        raise RuleError("a Bughouse event needs at least 2 pairs, not {count}", count=count)
    order = list(built.pairs)
    swiss = entry["system"] == "swiss"
    if entry["system"] != "round-robin" and not entry.get("keep", False):
        order = initial_order(order, 2)  # the server's Swiss of pairs numbers them so
    pairs = tuple(_renumber(p, i + 1) for i, p in enumerate(order))
    players = tuple(p for pair in pairs for p in pair.members)
    # the server's regulations of such an event: its match scoring, the bye's worth
    rules = bughouse_settings(bughouse_details(entry["rule"], swiss=swiss))[1]
    if entry["system"] == "knockout":
        details = entry["knockout"]
        empty = Tournament(Settings(system=System.KNOCKOUT), players, (), name=name)
        games, seated = start_games(pairs, details, empty)
        rounds = bracket_of(pairs, details).bracket.rounds
        return Pairs(pairs, True, "knockout", rounds, Colour.WHITE, rules, games, details, seated)
    if swiss:
        planned = _planned(entry.get("rounds"), count)
        settings = Settings(system=System.SWISS_DUTCH, rounds=planned)
        games = Tournament(settings, players, (), name=name)
        colour = Colour.BLACK if entry.get("colour") == "black" else Colour.WHITE
        return Pairs(pairs, True, "swiss", planned, colour, rules, games)
    table = []
    for scheduled in bughouse_round_robin(pairs).rounds:
        placed = seat_pairs(scheduled.number, pairs, scheduled.boards)
        table.append(Round(scheduled.number, placed.games, ()))
    games = Tournament(Settings(), players, tuple(table), name=name)
    return Pairs(pairs, True, "round-robin", len(table), Colour.WHITE, rules, games)


def _planned(rounds: Any, pairs: int) -> int:
    if rounds in (None, ""):
        return default_rounds(pairs)
    most = min(MAX_ROUNDS, pairs + pairs % 2 - 1)
    if not 1 <= rounds <= most:
        raise RuleError(
            "{rounds} rounds are too many for {teams} teams: a Swiss without rematches has "
            "at most {most}",
            rounds=rounds,
            teams=pairs,
            most=most,
        )
    return int(rounds)


def _pair_next(built: Pairs) -> Pairs:
    if built.knockout is not None:
        return _continue(built)
    if built.system != "swiss":
        raise RuleError("a round robin's rounds are all paired at the start")
    number = len(built.games.rounds) + 1
    if number > built.planned:
        raise RuleError("all {rounds} rounds are paired", rounds=built.planned)
    paired = pair_swiss_round(
        built.games,
        built.pairs,
        built.rules,
        initial_colour=built.colour,
        total_rounds=built.planned,
    )
    games = replace(
        built.games, rounds=(*built.games.rounds, Round(number, paired.games, paired.byes))
    )
    return replace(built, games=games)


def _continue(built: Pairs) -> Pairs:
    """A knockout of pairs continued: the matches no longer needed removed, the
    tie-break matches now due seated, or the next round once every match is decided."""
    assert built.knockout is not None
    played = play(built.pairs, built.knockout, built.games, built.seated, built.rules)
    games, seated = drop(built.games, built.seated, played.surplus)
    due = list(played.due)
    if not due:
        ko = played.knockout
        if ko.finished:
            raise RuleError(
                "the knockout is over: {winner} won", winner=_pair_name(built, ko.champion)
            )
        if ko.undecided():
            raise RuleError(
                "round {round} is not over: {count} games have no result",
                round=len(games.rounds),
                count=sum(1 for r in games.rounds for g in r.games if g.result is None),
            )
        due = next_round_due(played)[1]
    games, seated = seat(games, built.pairs, seated, due)
    return replace(built, games=games, seated=seated)


def _pair_name(built: Pairs, start: int | None) -> str:
    return next((p.name for p in built.pairs if p.start == start), "?")


def match_at(built: Pairs, number: int, board: int) -> Match:
    """The match of round ``number`` that has ``board``."""
    rounds = rounds_of_matches(built.games, built.pairs)
    if 1 <= number <= len(rounds):
        for match in rounds[number - 1]:
            if any(g.board == board for g in match.games):
                return match
    raise RuleError("there is no board {board} in round {round}", board=board, round=number)


__all__ = [
    "ACTIONS",
    "KIND",
    "MAX_PAIRS",
    "SYSTEMS",
    "Pairs",
    "clean",
    "match_at",
    "replay_pairs",
    "step",
]
