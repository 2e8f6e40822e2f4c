"""A Bughouse event's JSON exchange between the offline app and the server.

Export: the games of the pairs' players as a tournament JSON (a round robin or a Dutch
Swiss; a pair's bye written as a full-point bye of both its players, since a TRF's
round holds one pairing-allocated bye) with the ``"bughouse"`` member
(:mod:`crosstable.formats.bughouse_json`) and the app's state under ``"offline"``.
Import: that file without its state, or the server's export of a Bughouse event; the
core plays it through again (the pairs, the start, each round paired, each result and
first-finished mark) and refuses it, naming the round and board, when a game is not
the one the core makes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from crosstable.core.errors import CrosstableError, InputError
from crosstable.core.model import Bye, ByeKind, Player, Round, System, Tournament
from crosstable.core.system_settings import KNOCKOUT_KEYS
from crosstable.core.teams.bughouse import FirstFinished
from crosstable.core.teams.roster import Team
from crosstable.core.text import Message
from crosstable.formats.bughouse_json import BughousePart, bughouse_json, read_bughouse
from crosstable.formats.json_io import tournament_to_json
from crosstable.offline.bughouse import Pairs, replay_pairs


def export_pairs(state: dict[str, Any]) -> dict[str, Any]:
    """The file the organiser downloads of a started Bughouse event."""
    built = replay_pairs(state)
    if not built.started:
        raise InputError("only a started tournament can be exported for the server")
    document = tournament_to_json(exported_games(built))
    colour = "black" if built.colour.value == "b" else "white"
    pairs = [(p.start, p.name, (p.starts[0], p.starts[1])) for p in built.pairs]
    knockout = None
    if built.knockout is not None:
        knockout = (built.knockout, [(m.slot, m.game, m.round, m.board) for m in built.seated])
    marks = sorted(built.rules.first.marks)
    document["bughouse"] = bughouse_json(built.rules.rule, colour, pairs, marks, knockout)
    document["offline"] = state
    return document


def exported_games(built: Pairs) -> Tournament:
    """The games as the tournament JSON writes them: the pair's byes full-point byes."""
    rounds = tuple(
        replace(rnd, byes=tuple(Bye(b.round, b.player, ByeKind.FULL) for b in rnd.byes))
        for rnd in built.games.rounds
    )
    return replace(built.games, rounds=rounds)


def from_bughouse(tournament: Tournament, member: Any, source: str) -> dict[str, Any]:
    """The app's state of a tournament JSON with its ``"bughouse"`` member, checked in full."""
    part = read_bughouse(member, tournament, source)
    return state_of(tournament, part, source)


def state_of(tournament: Tournament, part: BughousePart, source: str) -> dict[str, Any]:
    """The log that plays ``tournament``'s games through the core as ``part``'s pairs."""
    system = tournament.settings.system
    if system is System.KNOCKOUT:
        return _knockout_state(tournament, part, source)
    if system not in (System.ROUND_ROBIN, System.SWISS_DUTCH):
        raise InputError(
            "a Bughouse event in the app is a round robin, a Dutch Swiss or a knockout of pairs",
            source=source,
        )
    swiss = system is System.SWISS_DUTCH
    log = _adds(part)
    start: dict[str, Any] = {"do": "start", "system": "swiss" if swiss else "round-robin"}
    start |= {"rule": part.rule, "keep": True}
    if swiss:
        start |= {"rounds": tournament.settings.rounds or len(tournament.rounds)}
        start |= {"colour": part.colour}
    log.append(start)
    marks = sorted(part.first)
    for rnd in tournament.rounds:
        if swiss:
            log.append({"do": "pair"})
        for game in sorted(rnd.games, key=lambda g: g.board):
            if game.result is not None:
                entry = {"do": "result", "round": rnd.number, "board": game.board}
                log.append(entry | {"result": game.result.label()})
        for number, board in marks:
            if number == rnd.number:
                log.append({"do": "first", "round": number, "board": board})
    late = [m for m in marks if m[0] > len(tournament.rounds)]
    if late:
        raise InputError(
            "round {round} board {board} is not the pairing the core makes",
            round=late[0][0],
            board=late[0][1],
            source=source,
        )
    name = tournament.name or "tournament"
    state = {"format": "crosstable.offline", "version": 1, "kind": "bughouse", "name": name}
    state["log"] = log
    try:
        built = replay_pairs(state)
    except CrosstableError as error:
        raise InputError(error.text, source=source) from None
    _check_games(tournament, built, source)
    return state


def _knockout_state(tournament: Tournament, part: BughousePart, source: str) -> dict[str, Any]:
    """A knockout of pairs' log: the pairs, the start, then each result and mark the file
    has as soon as its board is seated, and *continue* whenever none is left to enter."""
    if part.knockout is None:
        raise InputError(
            "$.bughouse.knockout is missing: a knockout needs its bracket", source=source
        )
    log = _adds(part)
    log.append(
        {
            "do": "start",
            "system": "knockout",
            "rule": part.rule,
            "keep": True,
            "knockout": part.knockout,
        }
    )
    filed = {(g.round, g.board): g for r in tournament.rounds for g in r.games}
    marks = set(part.first)
    state = {"format": "crosstable.offline", "version": 1, "kind": "bughouse"}
    state |= {"name": tournament.name or "tournament", "log": log}
    try:
        for _ in range(len(filed) + len(marks) + 64):
            built = replay_pairs(state)
            mine = {(g.round, g.board): g for r in built.games.rounds for g in r.games}
            entries: list[dict[str, Any]] = []
            for key, game in sorted(mine.items()):
                given = filed.get(key)
                if game.result is None and given is not None and given.result is not None:
                    entries.append(
                        {
                            "do": "result",
                            "round": key[0],
                            "board": key[1],
                            "result": given.result.label(),
                        }
                    )
            for key in sorted(marks & set(mine)):
                if key not in built.rules.first.marks:
                    entries.append({"do": "first", "round": key[0], "board": key[1]})
            if entries:
                log.extend(entries)
                continue
            if set(filed) <= set(mine):
                break
            log.append({"do": "pair"})
        built = replay_pairs(state)
    except CrosstableError as error:
        raise InputError(error.text, source=source) from None
    _check_games(tournament, built, source)
    seated = sorted((m.slot, m.game, m.round, m.board) for m in built.seated)
    if seated != sorted(part.matches):
        raise InputError(
            "$.bughouse.knockout.matches: the core seats the matches at {matches}",
            matches=", ".join(f"{s}/{g}: {r}.{b}" for s, g, r, b in seated[:8]),
            source=source,
        )
    return state


def _adds(part: BughousePart) -> list[dict[str, Any]]:
    return [
        {
            "do": "add",
            "name": pair.name,
            "players": [{"name": p.name, "rating": p.rating} for p in pair.members],
        }
        for pair in part.pairs
    ]


def _check_games(tournament: Tournament, built: Pairs, source: str) -> None:
    mine = {(g.round, g.board): (g.white, g.black) for r in built.games.rounds for g in r.games}
    given = {(r.number, g.board): (g.white, g.black) for r in tournament.rounds for g in r.games}
    for key in sorted(set(mine) | set(given)):
        if mine.get(key) != given.get(key):
            raise InputError(
                "round {round} board {board} is not the pairing the core makes",
                round=key[0],
                board=key[1],
                source=source,
            )
    for mine_round, filed in zip(built.games.rounds, tournament.rounds, strict=False):
        byes = sorted(b.player for b in mine_round.byes)
        if byes != sorted(b.player for b in filed.byes):
            raise InputError(
                "round {round}: the bye is not the one the core gives ({players})",
                round=filed.number,
                players=", ".join(str(p) for p in byes) or Message("nobody"),
                source=source,
            )


def from_server_bughouse(
    document: dict[str, Any], tournament: Tournament, details: dict[str, Any], source: str
) -> dict[str, Any]:
    """The app's state of the server's export of a Bughouse event (its teams of two)."""
    teams, members = document.get("teams"), document.get("team_members")
    if not isinstance(teams, list) or not isinstance(members, list):
        raise InputError("the export has no teams or team members", source=source)
    start_of = {
        p.get("number"): p.get("start") for p in document.get("players", []) if isinstance(p, dict)
    }
    players = {p.start: p for p in tournament.players}
    pairs: list[Team] = []
    for index, team in enumerate(teams):
        if not isinstance(team, dict) or not isinstance(team.get("start"), int):
            raise InputError("teams[{index}] is not a started team", index=index, source=source)
        own = sorted(
            (m for m in members if isinstance(m, dict) and m.get("team") == team.get("number")),
            key=lambda m: m.get("position") or 0,
        )
        starts = [start_of.get(m.get("entry")) for m in own]
        if len(starts) != 2 or any(s not in players for s in starts):
            raise InputError(
                "teams[{index}]: a pair in the app has two players, this one {count}",
                index=index,
                count=len(starts),
                source=source,
            )
        chosen: tuple[Player, ...] = tuple(players[s] for s in starts if s is not None)
        pairs.append(Team(int(team["start"]), str(team.get("name") or "?"), chosen, 2))
    pairs.sort(key=lambda p: p.start)
    if [p.start for p in pairs] != list(range(1, len(pairs) + 1)):
        raise InputError("the pairs are not numbered 1 to {count}", count=len(pairs), source=source)
    try:
        first = FirstFinished.parse(str(details.get("bughouse_first") or ""))
    except CrosstableError as error:
        raise InputError(error.text, source=source) from None
    member = bughouse_json(
        str(details.get("bughouse") or ""),
        "black" if details.get("initial_colour") == "black" else "white",
        [(p.start, p.name, (p.starts[0], p.starts[1])) for p in pairs],
        sorted(first.marks),
        _server_knockout(document, details)
        if tournament.settings.system is System.KNOCKOUT
        else None,
    )
    filed = replace(
        tournament, rounds=tuple(_byes_of(document, rnd, start_of) for rnd in tournament.rounds)
    )
    return from_bughouse(filed, member, source)


def _server_knockout(
    document: dict[str, Any], details: dict[str, Any]
) -> tuple[dict[str, str], list[tuple[int, int, int, int]]]:
    """A stored knockout of pairs' settings and matches (slot, game, round, first board)."""
    settings = {k: str(v) for k, v in details.items() if k in KNOCKOUT_KEYS and v is not None}
    first: dict[tuple[int, int], tuple[int, int]] = {}
    for game in document.get("games", []):
        if not isinstance(game, dict):
            continue
        values = [game.get(k) for k in ("match", "match_game", "round", "board")]
        numbers = [v for v in values if isinstance(v, int)]
        if len(numbers) == 4:
            slot, number, rnd, board = numbers
            first[(slot, number)] = min(first.get((slot, number), (rnd, board)), (rnd, board))
    return settings, [(s, g, r, b) for (s, g), (r, b) in first.items()]


def _byes_of(document: dict[str, Any], rnd: Round, start_of: dict[Any, Any]) -> Round:
    """The round with the export's byes (a Swiss pair's pairing-allocated byes)."""
    rows = document.get("byes")
    byes = tuple(
        Bye(rnd.number, start_of[b["player"]], ByeKind.PAIRING)
        for b in (rows if isinstance(rows, list) else [])
        if isinstance(b, dict) and b.get("round") == rnd.number and b.get("player") in start_of
    )
    return replace(rnd, byes=byes)


__all__ = ["export_pairs", "exported_games", "from_bughouse", "from_server_bughouse", "state_of"]
