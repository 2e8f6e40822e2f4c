"""The offline app's JSON exchange with the server.

Export: a round robin as the tournament JSON of :mod:`crosstable.formats.json_io`
(``crosstable import FILE`` reads it on the server), with the app's own state
beside it under ``"offline"`` so the same file opens in the app again. Import:
that file, a bare tournament JSON (``trf convert --to json``), or the server's
whole-tournament export (``crosstable export``) of a round robin.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from crosstable.core.errors import CrosstableError, InputError, RuleError
from crosstable.core.model import (
    Game,
    GameResult,
    Outcome,
    Player,
    Round,
    Settings,
    System,
    Tournament,
)
from crosstable.core.system_settings import KNOCKOUT_KEYS
from crosstable.core.teams.bughouse import is_bughouse
from crosstable.formats.json_io import tournament_from_json, tournament_to_json
from crosstable.formats.knockout_json import knockout_json, read_knockout
from crosstable.offline.app import FORMAT, check_state, new_state, replay
from crosstable.offline.bughouse import replay_pairs
from crosstable.offline.bughouse_exchange import export_pairs, from_bughouse, from_server_bughouse
from crosstable.offline.knockout import (
    FiledGame,
    knockout_log,
    knockout_tournament,
    placed_games,
)

#: the server's whole-tournament export (service/exchange.py writes it)
SERVER_FORMAT = "crosstable.tournament"
TOURNAMENT_FORMAT = "crosstable-tournament"
MAX_BYTES = 8 * 2**20


def export_document(state: dict[str, Any]) -> dict[str, Any]:
    """The file the organiser downloads: the tournament JSON plus the app's state."""
    check_state(state)
    if state["kind"] == "bughouse":
        return export_pairs(state)
    built = replay(state)
    if built.knockout is not None:
        ko = built.knockout
        document = tournament_to_json(knockout_tournament(ko, state["name"]))
        start = next(entry for entry in state["log"] if entry["do"] == "start")
        settings = start.get("knockout") or {}
        games = [(g.round, g.board, g.slot, g.game) for g in placed_games(ko)]
        document["knockout"] = knockout_json(dict(settings), games, ko.champion)
        document["offline"] = state
        return document
    if built.tournament is None:
        raise RuleError("only a started tournament can be exported for the server")
    document = tournament_to_json(built.tournament)
    document["offline"] = state
    return document


def import_text(text: str, source: str = "<file>") -> dict[str, Any]:
    """The app's state from a file's text (any of the three JSON documents)."""
    if len(text) > MAX_BYTES:
        raise InputError(
            "the file is larger than {size} MiB", size=MAX_BYTES // 2**20, source=source
        )
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(error.msg, source=source, line=error.lineno, column=error.colno) from None
    except (ValueError, RecursionError):
        raise InputError("the document is not JSON this app can read", source=source) from None
    return import_document(document, source)


def import_document(document: Any, source: str = "<file>") -> dict[str, Any]:
    """The app's state from a parsed JSON document."""
    if not isinstance(document, dict):
        raise InputError("the document is not a JSON object", source=source)
    kind = document.get("format")
    if kind == FORMAT:
        check_state(document)
        if document["kind"] == "bughouse":
            replay_pairs(document)
        else:
            replay(document)
        return document
    if kind == TOURNAMENT_FORMAT:
        if isinstance(document.get("offline"), dict):
            return import_document(document["offline"], source)
        if "bughouse" in document:  # the pairs beside the games of their players
            plain = {key: value for key, value in document.items() if key != "bughouse"}
            games = tournament_from_json(plain, source).tournament
            return from_bughouse(games, document["bughouse"], source)
        tournament = tournament_from_json(document, source).tournament
        if "knockout" in document or tournament.settings.system is System.KNOCKOUT:
            return from_knockout(tournament, document.get("knockout"), source, byes=True)
        return from_tournament(tournament)
    if kind == SERVER_FORMAT:
        return from_server(document, source)
    raise InputError("unknown document format {format}", format=str(kind), source=source)


def from_tournament(tournament: Tournament) -> dict[str, Any]:
    """A round robin's or a Swiss's state from a core tournament value (players, then
    each round: paired again by the core, which must give the file's boards, and its
    results)."""
    system = tournament.settings.system
    swiss = system is System.SWISS_DUTCH
    if system not in (System.ROUND_ROBIN, System.SWISS_DUTCH):
        raise RuleError("the offline app opens round robins and Dutch Swiss tournaments only")
    state = new_state("swiss" if swiss else "round-robin", tournament.name or "tournament")
    log: list[dict[str, Any]] = []
    for player in sorted(tournament.players, key=lambda p: p.start):
        log.append({"do": "add", "name": player.name, "rating": player.rating})
    start: dict[str, Any] = {"do": "start", "keep": True}
    if swiss:
        start["rounds"] = tournament.settings.rounds or len(tournament.rounds)
    log.append(start)
    for rnd in tournament.rounds:
        if swiss:
            log.append({"do": "pair"})
        for game in rnd.games:
            if game.result is not None:
                result = game.result.label()
                log.append(
                    {"do": "result", "round": rnd.number, "board": game.board, "result": result}
                )
    state["log"] = log
    built = replay(state)  # the same Berger boards, or the file is not this app's round robin
    assert built.tournament is not None
    mine = {
        (g.round, g.board): (g.white, g.black) for r in built.tournament.rounds for g in r.games
    }
    for rnd in tournament.rounds:
        for game in rnd.games:
            if mine.get((rnd.number, game.board)) != (game.white, game.black):
                raise RuleError(
                    "round {round} board {board} is not the pairing the core makes",
                    round=rnd.number,
                    board=game.board,
                )
    return state


def from_knockout(
    tournament: Tournament, member: Any, source: str, *, byes: bool = False
) -> dict[str, Any]:
    """A knockout's state from a tournament JSON and its ``"knockout"`` member: every
    game played again through the core, which must make the file's games (and, with
    ``byes``, the file's byes in round 1 the bracket's)."""
    if tournament.settings.system is not System.KNOCKOUT:
        raise InputError("the tournament's system is not knockout", source=source)
    if member is None:
        raise InputError("$.knockout is missing: a knockout needs its bracket", source=source)
    part = read_knockout(member, tournament, source)
    games = [FiledGame(g.slot, g.game, g.white, g.black, g.result) for g in part.games]
    state = new_state("knockout", tournament.name or "tournament")
    try:
        state["log"] = knockout_log(tournament.players, part.settings, games, part.winner)
    except CrosstableError as error:
        raise InputError(error.text, source=source) from None
    built = replay(state)
    assert built.knockout is not None
    given = sorted((b.round, b.player) for r in tournament.rounds for b in r.byes)
    if byes and given != [(1, start) for start in sorted(built.knockout.bracket.byes)]:
        raise InputError(
            "the byes are not the bracket's: round 1 has byes for {starts}",
            source=source,
            starts=", ".join(str(s) for s in sorted(built.knockout.bracket.byes)) or "nobody",
        )
    return state


def from_server(document: dict[str, Any], source: str) -> dict[str, Any]:
    """A round robin's or a Swiss's state from the server's whole-tournament export
    (``crosstable export``): its rows made a core tournament, then read as one."""
    head = document.get("tournament")
    players, games = document.get("players"), document.get("games")
    if not isinstance(head, dict) or not isinstance(players, list) or not isinstance(games, list):
        raise InputError("the export has no tournament, players or games", source=source)
    try:
        system = System(head.get("system") or "round-robin")
    except ValueError:
        raise RuleError(
            "the offline app opens round robins and Dutch Swiss tournaments only"
        ) from None
    start_of: dict[int, int] = {}
    entries: list[Player] = []
    for index, entry in enumerate(players):
        number, start = _whole(entry, "number"), _whole(entry, "start")
        if number is None or start is None or not isinstance(entry.get("name"), str):
            raise InputError("players[{index}] is not a player", index=index, source=source)
        rating = entry.get("rating")
        start_of[number] = start
        entries.append(Player(start, entry["name"], rating if isinstance(rating, int) else None))
    rounds: dict[int, list[Game]] = {}
    slots: list[dict[str, int | None]] = []  # a knockout's: each game's slot and number
    for index, game in enumerate(games):
        fields = [_whole(game, key) for key in ("round", "board", "white", "black")]
        code = game.get("result") if isinstance(game, dict) else None
        if None in fields or fields[2] not in start_of or fields[3] not in start_of:
            raise InputError("games[{index}] is not a game", index=index, source=source)
        number, board, white, black = (f for f in fields if f is not None)
        rounds.setdefault(number, []).append(
            Game(number, board, start_of[white], start_of[black], _result(code, index, source))
        )
        slots.append(
            {
                "round": number,
                "board": board,
                "slot": _whole(game, "match"),
                "game": _whole(game, "match_game"),
            }
        )
    planned = head.get("rounds_planned", head.get("rounds"))  # (the export's column)
    settings = Settings(system=system, rounds=planned if isinstance(planned, int) else None)
    tournament = Tournament(
        settings,
        tuple(sorted(entries, key=lambda p: p.start)),
        tuple(Round(n, tuple(sorted(g, key=lambda x: x.board))) for n, g in sorted(rounds.items())),
        name=str(head.get("name") or "tournament"),
    )
    regulations = head.get("regulations")
    if isinstance(regulations, dict) and is_bughouse(regulations):
        if system is not System.SWISS_DUTCH:  # (pairs' round robins and knockouts: by the pairs)
            tournament = replace(tournament, settings=replace(settings, rounds=None))
        return from_server_bughouse(document, tournament, regulations, source)
    if system is System.KNOCKOUT:
        given = head.get("regulations")
        details: dict[str, Any] = given if isinstance(given, dict) else {}
        settings_of = {
            k: str(v) for k, v in details.items() if k in KNOCKOUT_KEYS and v is not None
        }
        for index, where in enumerate(slots):
            if where["slot"] is None or where["game"] is None:
                raise InputError(
                    "games[{index}] has no bracket slot (match, match_game)",
                    index=index,
                    source=source,
                )
        member = {"settings": settings_of, "games": slots, "winner": None}
        return from_knockout(tournament, member, source)
    return from_tournament(tournament)


def _whole(item: Any, key: str) -> int | None:
    value = item.get(key) if isinstance(item, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _result(code: Any, index: int, source: str) -> GameResult | None:
    """The server's stored result (``"10"``, ``"=="``, ``"+-"``…) as the core's value."""
    if code is None:
        return None
    try:
        return GameResult(Outcome(str(code)[0]), Outcome(str(code)[1:]))
    except (ValueError, IndexError, CrosstableError):
        raise InputError(
            "games[{index}] has the result {code}, not one the server writes",
            index=index,
            code=str(code),
            source=source,
        ) from None
