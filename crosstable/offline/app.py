"""The offline app's state and actions: plain JSON in, plain JSON out.

The page keeps one JSON state in the browser. The state is the tournament's
kind, its name and the log of what the organiser did (players added, the start,
the results, the rounds paired); everything shown is rebuilt from that log by the
core, so undo is dropping the last entry and a backup is a copy of the state.

>>> state = new_state("round-robin", "Club")
>>> for name in ("Anna", "Boris", "Vera"):
...     state = act(state, {"do": "add", "name": name, "rating": 1500})
>>> state = act(state, {"do": "start"})
>>> state = act(state, {"do": "result", "round": 1, "board": 1, "result": "1-0"})
>>> [row["points"] for row in view(state)["standings"]]
[1.0, 0.0, 0.0]
>>> len(undo(state)["log"]) == len(state["log"]) - 1
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from crosstable.core.errors import InputError, RuleError
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
from crosstable.core.pairing.knockout import Knockout
from crosstable.core.schedule import berger_schedule
from crosstable.core.scoring import points_json
from crosstable.core.standings.table import compute_standings
from crosstable.offline.bughouse import clean as clean_bughouse
from crosstable.offline.bughouse import replay_pairs
from crosstable.offline.bughouse_view import pairs_view
from crosstable.offline.fields import clean_name, record_result, result_text, whole_number
from crosstable.offline.knockout import knockout_settings, start_knockout
from crosstable.offline.swiss import pair_next, planned_rounds, start_swiss

FORMAT = "crosstable.offline"
VERSION = 1
KINDS = ("round-robin", "swiss", "knockout", "bughouse")
MAX_PLAYERS = 64
MAX_LOG = 5000
ACTIONS = ("add", "remove", "start", "result", "pair")


@dataclass(frozen=True)
class Built:
    """What the log amounts to: the players, and the tournament or the knockout once started."""

    players: tuple[Player, ...]
    started: bool = False
    tournament: Tournament | None = None
    knockout: Knockout | None = None


def new_state(kind: str, name: str) -> dict[str, Any]:
    """An empty tournament of ``kind`` (round-robin, swiss or knockout)."""
    if kind not in KINDS:
        raise RuleError(
            "unknown tournament kind {kind}: use {kinds}", kind=kind, kinds=", ".join(KINDS)
        )
    return {"format": FORMAT, "version": VERSION, "kind": kind, "name": clean_name(name), "log": []}


def act(state: dict[str, Any], action: Any) -> dict[str, Any]:
    """The state after ``action``; a refused action raises and changes nothing."""
    check_state(state)
    bughouse = state["kind"] == "bughouse"
    if not isinstance(action, dict) or (not bughouse and action.get("do") not in ACTIONS):
        raise InputError("unknown action: use one of {actions}", actions=", ".join(ACTIONS))
    if len(state["log"]) >= MAX_LOG:
        raise RuleError("the tournament has {count} actions, the most one can hold", count=MAX_LOG)
    if bughouse:  # pairs on two boards: their own log (crosstable.offline.bughouse)
        after = {**state, "log": [*state["log"], clean_bughouse(action, draw=True)]}
        replay_pairs(after)
        return after
    entry = _clean(action)
    if entry["do"] == "start" and "knockout" in entry and not entry["knockout"]["lots_seed"]:
        # the lot of the bracket and the colours, drawn once and kept in the log
        seed = str(random.SystemRandom().randrange(1, 10**9))
        entry["knockout"] = {**entry["knockout"], "lots_seed": seed}
    after = {**state, "log": [*state["log"], entry]}
    replay(after)  # refuses what the core refuses
    return after


def undo(state: dict[str, Any]) -> dict[str, Any]:
    """The state before its last action."""
    check_state(state)
    if not state["log"]:
        raise RuleError("there is nothing to undo")
    return {**state, "log": state["log"][:-1]}


def check_state(state: Any) -> None:
    """Refuse a state this app did not write (a damaged backup, another program's file)."""
    if not isinstance(state, dict) or state.get("format") != FORMAT:
        raise InputError("not a state of the offline app (format {format})", format=FORMAT)
    if state.get("version") != VERSION:
        raise InputError(
            "version {version} of the offline app's state is not known",
            version=str(state.get("version")),
        )
    if state.get("kind") not in KINDS:
        raise InputError(
            "unknown tournament kind {kind}: use {kinds}",
            kind=str(state.get("kind")),
            kinds=", ".join(KINDS),
        )
    if not isinstance(state.get("name"), str) or not isinstance(state.get("log"), list):
        raise InputError("the state has no name or no log")
    if len(state["log"]) > MAX_LOG:
        raise RuleError("the tournament has {count} actions, the most one can hold", count=MAX_LOG)


def replay(state: dict[str, Any]) -> Built:
    """Rebuild the tournament from the state's log through the core (a Bughouse event's:
    :func:`crosstable.offline.bughouse.replay_pairs`)."""
    check_state(state)
    if state["kind"] == "bughouse":
        raise RuleError("a Bughouse event is rebuilt as pairs")
    built = Built(players=())
    for index, entry in enumerate(state["log"]):
        if not isinstance(entry, dict) or entry.get("do") not in ACTIONS:
            raise InputError("log entry {index} is not an action", index=index + 1)
        built = _step(state["kind"], state["name"], built, _clean(entry))
    return built


def _step(kind: str, name: str, built: Built, entry: dict[str, Any]) -> Built:
    do = entry["do"]
    if do in ("add", "remove") and built.started:
        raise RuleError("the tournament has started: its players are fixed")
    if do == "add":
        if len(built.players) >= MAX_PLAYERS:
            raise RuleError("at most {count} players", count=MAX_PLAYERS)
        player = Player(len(built.players) + 1, entry["name"], entry["rating"])
        return replace(built, players=(*built.players, player))
    if do == "remove":
        number = entry["player"]
        if not 1 <= number <= len(built.players):
            raise RuleError("there is no player {player}", player=number)
        kept = [p for p in built.players if p.start != number]
        return replace(built, players=tuple(replace(p, start=i + 1) for i, p in enumerate(kept)))
    if do == "start":
        if built.started:
            raise RuleError("the tournament has already started")
        return _start(kind, name, built, entry)
    if not built.started:
        raise RuleError("the tournament has not started yet")
    if do == "pair":
        if built.knockout is not None:
            return replace(built, knockout=built.knockout.pair_next_round())
        assert built.tournament is not None
        if built.tournament.settings.system is not System.SWISS_DUTCH:
            raise RuleError("a round robin's rounds are all paired at the start")
        return replace(built, tournament=pair_next(built.tournament))
    result = GameResult.parse(entry["result"]) if entry["result"] else None
    if (built.knockout is not None) != ("slot" in entry):
        raise RuleError(
            "a knockout's result names a slot and a game, a round robin's a round and a board"
        )
    if built.knockout is not None:
        return replace(built, knockout=built.knockout.record(entry["slot"], entry["game"], result))
    assert built.tournament is not None
    return replace(
        built, tournament=record_result(built.tournament, entry["round"], entry["board"], result)
    )


def _start(kind: str, name: str, built: Built, entry: dict[str, Any]) -> Built:
    count = len(built.players)
    if count < 2:
        raise RuleError("a tournament needs at least 2 players, not {count}", count=count)
    # starting numbers by rating, then name (FIDE C.04.2); an imported field keeps its own
    order = list(built.players)
    if not entry.get("keep", False):
        order.sort(key=lambda p: (-(p.rating or 0), p.name.casefold(), p.start))
    players = tuple(replace(p, start=i + 1) for i, p in enumerate(order))
    if kind == "knockout":
        return Built(players, True, knockout=start_knockout(players, entry.get("knockout", {})))
    if kind == "swiss":
        planned = planned_rounds(entry.get("rounds"), count)
        return Built(players, True, tournament=start_swiss(players, name, planned))
    table: list[Round] = []
    for scheduled in berger_schedule(count).rounds:
        games = tuple(
            Game(scheduled.number, board, white, black)
            for board, (white, black) in enumerate(scheduled.boards, start=1)
        )
        byes = (
            () if scheduled.bye is None else (Bye(scheduled.number, scheduled.bye, ByeKind.FREE),)
        )
        table.append(Round(scheduled.number, games, byes))
    tournament = Tournament(Settings(), players, tuple(table), name=name)
    return Built(players, True, tournament=tournament)


def _clean(action: dict[str, Any]) -> dict[str, Any]:
    """The action with only its own fields, each checked."""
    do = action["do"]
    if do == "add":
        return {
            "do": do,
            "name": clean_name(action.get("name")),
            "rating": whole_number(action, "rating", optional=True),
        }
    if do == "remove":
        return {"do": do, "player": whole_number(action, "player")}
    if do == "start":
        entry: dict[str, Any] = {"do": do}
        if action.get("keep") is True:
            entry["keep"] = True
        if action.get("rounds") not in (None, ""):
            entry["rounds"] = whole_number(action, "rounds")
        if action.get("knockout") is not None:
            # the server's knockout settings (match format, tie rule…), written normalised
            if not isinstance(action["knockout"], dict):
                raise InputError("the knockout's settings are texts such as match_format: 2")
            details = {k: v for k, v in action["knockout"].items() if v not in ("", None)}
            unseeded = "lots_seed" not in details
            written = knockout_settings(details).to_details(complete=True)
            entry["knockout"] = written | ({"lots_seed": ""} if unseeded else {})
        return entry
    if do in ("start", "pair"):
        return {"do": do}
    result = result_text(action)
    if "slot" in action:
        return {
            "do": do,
            "slot": whole_number(action, "slot"),
            "game": whole_number(action, "game"),
            "result": result,
        }
    return {
        "do": do,
        "round": whole_number(action, "round"),
        "board": whole_number(action, "board"),
        "result": result,
    }


def view(state: dict[str, Any]) -> dict[str, Any]:
    """Everything the page draws, as JSON."""
    check_state(state)
    if state["kind"] == "bughouse":
        return pairs_view(state)
    built = replay(state)
    names = {p.start: p.name for p in built.players}
    out: dict[str, Any] = {
        "kind": state["kind"],
        "name": state["name"],
        "started": built.started,
        "players": [{"start": p.start, "name": p.name, "rating": p.rating} for p in built.players],
        "actions": len(state["log"]),
        "rounds": [],
        "standings": [],
        "matches": [],
        "finished": False,
    }
    if built.tournament is not None:
        out["rounds"] = [_round_json(rnd, names) for rnd in built.tournament.rounds]
        standings = compute_standings(built.tournament)
        out["tiebreaks"] = list(standings.tiebreaks)
        out["standings"] = [
            {
                "rank": r.rank,
                "start": r.start,
                "name": r.name,
                "points": points_json(r.points, "float"),
            }
            for r in standings.rows
        ]
        planned = built.tournament.settings.rounds or len(built.tournament.rounds)
        played = all(g.result is not None for rnd in built.tournament.rounds for g in rnd.games)
        out["finished"] = len(built.tournament.rounds) == planned and played
        out["planned"] = planned
        swiss = built.tournament.settings.system is System.SWISS_DUTCH
        out["can_pair"] = swiss and played and len(built.tournament.rounds) < planned
    if built.knockout is not None:
        out.update(_knockout_json(built.knockout, names))
    return out


def _round_json(rnd: Round, names: dict[int, str]) -> dict[str, Any]:
    return {
        "round": rnd.number,
        "games": [
            {
                "board": g.board,
                "white": names[g.white],
                "black": names[g.black],
                "result": g.result.label() if g.result else "",
            }
            for g in rnd.games
        ],
        "bye": [names[b.player] for b in rnd.byes],
    }


def _knockout_json(ko: Knockout, names: dict[int, str]) -> dict[str, Any]:
    matches = []
    for match in ko.matches:
        games = [
            {
                "game": g.number,
                "white": names[g.white],
                "black": names[g.black],
                "result": g.result.label() if g.result else "",
            }
            for g in match.status(ko.rules).games
        ]
        winner = ko.winner_of(match.slot)
        matches.append(
            {
                "slot": match.slot,
                "round": match.round,
                "games": games,
                "winner": names.get(winner or 0, ""),
            }
        )
    placings = ko.placings()
    champion = ko.champion
    return {
        "matches": matches,
        "finished": ko.finished,
        "champion": names.get(champion or 0, ""),
        "can_pair": not ko.finished and not ko.undecided(ko.round),
        "placings": [
            {"name": names[start], "place": place} for start, place in sorted(placings.items())
        ],
    }
