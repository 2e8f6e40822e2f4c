"""A tournament JSON (``"format": "crosstable-tournament"``) made a stored tournament:
what the offline app exports and ``trf convert --to json`` writes.

A round robin or a Swiss is imported as a TRF is (one event); a Bughouse event (its
pairs in the ``"bughouse"`` member) as :mod:`crosstable.service.offline_bughouse` makes
it. A knockout carries its bracket in the ``"knockout"`` member
(:mod:`crosstable.formats.knockout_json`); it is first played through again by the core
in full (the file refused, naming the slot and game, before anything is stored), then
made here as an organiser makes one: created with the file's settings (match format, tie
rule, the seed of its lots), its players registered in starting-number order, started,
each result entered and each tie-break game and next round added by "continue the
knockout" — so the stored knockout is an ordinary one, with its history, and
``crosstable export`` writes it back.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from crosstable.core.errors import RuleError
from crosstable.core.model import GameResult, LotsMethod, System, Tournament
from crosstable.core.text import Message
from crosstable.formats.json_io import tournament_from_json
from crosstable.formats.knockout_json import read_knockout
from crosstable.offline.exchange import from_knockout
from crosstable.service import Change, PlayerInfo, Regulations, Service
from crosstable.service.offline_bughouse import import_bughouse
from crosstable.service.read_views import JsonObject


def import_tournament_document(
    service: Service, document: JsonObject, source: str, actor: str
) -> Change:
    """The tournament of a tournament JSON, stored (the app's own state, under
    ``"offline"``, is the browser's and is not stored)."""
    plain = {key: value for key, value in document.items() if key != "offline"}
    if "bughouse" in plain:  # Bughouse pairs beside their players' games
        games = {key: value for key, value in plain.items() if key != "bughouse"}
        players = tournament_from_json(games, source).tournament
        return import_bughouse(service, players, plain["bughouse"], source, actor)
    parsed = tournament_from_json(plain, source)
    tournament = parsed.tournament
    if "knockout" in plain or tournament.settings.system is System.KNOCKOUT:
        return import_knockout(service, tournament, plain.get("knockout"), source, actor)
    return service.import_tournament(tournament, actor=actor, source=source, headers=parsed.headers)


def import_knockout(
    service: Service, tournament: Tournament, member: Any, source: str, actor: str
) -> Change:
    """A knockout with every game of the file, made through the service's own steps."""
    state = from_knockout(tournament, member, source, byes=True)  # the whole file checked
    settings = next(e for e in state["log"] if e["do"] == "start")["knockout"]
    part = read_knockout(member, tournament, source)
    filed = {(g.slot, g.game): g for g in part.games}
    name = tournament.name or "knockout"
    created = service.create_tournament(
        Regulations(name=name, system=System.KNOCKOUT, details=settings), actor=actor
    )
    tid = created.tournament_id
    numbers = []
    for p in sorted(tournament.players, key=lambda p: p.start):
        info = PlayerInfo.of(p)
        numbers.append(int(service.add_player(tid, info, actor=actor).data["number"]))
    service.draw_lots(tid, LotsMethod.MANUAL, order=tuple(numbers), actor=actor)
    service.start(tid, actor=actor)
    for _ in range(len(filed) + 64):  # each pass enters a result or adds games
        waiting = _waiting(service, tid, filed)
        for rnd, board, result in waiting:
            service.record_result(tid, rnd, board, result, actor=actor)
        if waiting:
            continue
        stored = _stored(service, tid)
        if all(key in stored for key in filed):
            break
        service.pair_next_round(tid, actor=actor)
    stored = _stored(service, tid)
    if stored != {key: (g.white, g.black, g.result) for key, g in filed.items()}:
        raise RuleError(  # pragma: no cover - the core played the file through already
            "tournament {tournament}: the stored knockout differs from the file", tournament=tid
        )
    summary = Message(
        "tournament {tournament} “{name}” imported from {source}: a knockout, "
        "{players} players, {games} games",
        tournament=tid,
        name=name,
        source=source or "JSON",
        players=len(tournament.players),
        games=len(filed),
    )
    return replace(created, summary=summary)


def _games(service: Service, tid: int) -> list[tuple[int, Any]]:
    view = service.bracket(tid)
    return [(m.slot, g) for r in view.rounds for m in r.matches for g in m.games]


def _waiting(service: Service, tid: int, filed: dict[tuple[int, int], Any]) -> list[Any]:
    """(round, board, result) of the stored games without a result that the file has."""
    out = []
    for slot, game in _games(service, tid):
        wanted = filed.get((slot, game.game))
        if game.round is not None and game.result is None and wanted and wanted.result:
            out.append((game.round, game.board, wanted.result))
    return out


def _stored(service: Service, tid: int) -> dict[tuple[int, int], tuple[int, int, Any]]:
    """(slot, game) → (white, black, result) of every stored game of the bracket."""
    return {
        (slot, g.game): (g.white, g.black, GameResult.parse(g.result) if g.result else None)
        for slot, g in _games(service, tid)
        if g.round is not None
    }
