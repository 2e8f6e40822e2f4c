"""PGN on the web (docs/pgn.md): the game page with its board, the
uploads (a game, a round) and the tournament's PGN, as pages and as the JSON API.

The game page works without JavaScript: the move list links each position
(``?ply=N``), the board is an SVG drawn by python-chess (``board.svg?ply=N``), the
final position is shown first. ``static/game.js`` adds the arrow keys (and Home/End),
swapping the board picture instead of loading the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import chess
import chess.svg
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import Field

from crosstable.core.errors import CrosstableError, RuleError
from crosstable.formats.pgn import MAX_PGN_BYTES, positions
from crosstable.service.read_views import JsonObject, Shown
from crosstable.web.contexts import FormValues
from crosstable.web.messages import error_text, translate
from crosstable.web.routes.api import ApiCaller, ChangeOut, change_out
from crosstable.web.routes.common import (
    RESULT_ENTRY,
    Body,
    CheckedForm,
    caller_of,
    heavy_upload,
    page_context,
    require_role,
    role_of,
    text,
)
from crosstable.web.site import site_of

#: every upload (POST) is a heavy one: the caller, their role and the rate limit per
#: account and per client are checked before the body is read
router = APIRouter(include_in_schema=False, route_class=heavy_upload("pgn", RESULT_ENTRY))
api_router = APIRouter(
    prefix="/api/v1", tags=["api"], route_class=heavy_upload("pgn", RESULT_ENTRY)
)

Num = Annotated[int, Path(ge=1, le=2_000_000_000)]
PGN_TYPE = "application/x-chess-pgn"
#: the board picture's size in pixels (it scales with the page)
BOARD_SIZE = 360


class PgnIn(Body):
    """A PGN text: one game (a game's upload) or several (a round's, a tournament's)."""

    pgn: str = Field(max_length=MAX_PGN_BYTES, description="the PGN text")
    idempotency_key: str | None = Field(None, max_length=200)


def _uploaded(form: FormValues) -> str:
    """The PGN of a form: the chosen file, else the pasted text."""
    upload = form.get("file")
    if isinstance(upload, list):
        upload = upload[-1]
    if isinstance(upload, bytes) and upload.strip():
        if len(upload) > MAX_PGN_BYTES:
            raise RuleError("the PGN is larger than {most} bytes", most=MAX_PGN_BYTES)
        try:
            return upload.decode("utf-8-sig")
        except UnicodeDecodeError:
            return upload.decode("latin-1")  # (older PGN files are often Latin-1)
    pasted = text(form, "pgn")
    if not pasted:
        raise RuleError("choose a PGN file or paste the PGN")
    return pasted


# -- pages -------------------------------------------------------------------------------


@router.get("/t/{tid}/rounds/{rnd}/boards/{board}", response_class=HTMLResponse)
def game_page(
    tid: int,
    rnd: int,
    board: int,
    request: Request,
    ply: Annotated[int | None, Query(ge=0, le=10_000)] = None,
) -> Response:
    """A game: its players and result, its moves on a board."""
    site, caller = caller_of(request)
    context = page_context(site, caller, tid)
    game = site.service.game_moves(tid, rnd, board)
    sans: list[str] = []
    if game.pgn:
        sans, _boards, _moves = positions(game.pgn)
    last = len(sans)
    shown = last if ply is None else min(ply, last)
    moves = [
        {"ply": index + 1, "number": index // 2 + 1, "white": index % 2 == 0, "san": san}
        for index, san in enumerate(sans)
    ]
    return site.page(
        request,
        "game.html",
        caller=caller,
        game=game,
        moves=moves,
        ply=shown,
        last=last,
        can_upload=role_of(site, caller, tid) in RESULT_ENTRY,
        **context,
    )


@router.get("/t/{tid}/rounds/{rnd}/boards/{board}/board.svg")
def board_picture(
    tid: int,
    rnd: int,
    board: int,
    request: Request,
    ply: Annotated[int | None, Query(ge=0, le=10_000)] = None,
) -> Response:
    """The position after ``ply`` half-moves (None: the last) as an SVG picture."""
    site = site_of(request)
    game = site.service.game_moves(tid, rnd, board)
    if game.pgn:
        _sans, boards, moves = positions(game.pgn)
    else:
        boards, moves = [chess.Board()], [None]
    shown = len(boards) - 1 if ply is None else min(ply, len(boards) - 1)
    position = boards[shown]
    check = position.king(position.turn) if position.is_check() else None
    picture = chess.svg.board(position, lastmove=moves[shown], check=check, size=BOARD_SIZE)
    return Response(
        picture,
        media_type="image/svg+xml",
        headers={"Cache-Control": "no-cache"},
    )


@router.post("/t/{tid}/rounds/{rnd}/boards/{board}/pgn")
def game_upload(tid: int, rnd: int, board: int, request: Request, form: CheckedForm) -> Response:
    """The game page's form: this game's PGN (a file or pasted)."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, RESULT_ENTRY)
    try:
        if text(form, "action") == "clear":
            change = site.service.clear_moves(tid, rnd, board, actor=caller.actor)
        else:
            change = site.service.record_moves(
                tid, rnd, board, _uploaded(form), actor=caller.actor, source="PGN"
            )
        request.session["flash"] = {"kind": "ok", "text": translate(change.summary)}
    except CrosstableError as problem:
        request.session["flash"] = {"kind": "error", "text": error_text(problem)}
    return RedirectResponse(f"/t/{tid}/rounds/{rnd}/boards/{board}", status_code=303)


@router.post("/t/{tid}/rounds/{rnd}/pgn")
def round_upload(tid: int, rnd: int, request: Request, form: CheckedForm) -> Response:
    """The round page's form: one PGN file with the round's games."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, RESULT_ENTRY)
    try:
        change = site.service.import_pgn(
            tid, _uploaded(form), round_number=rnd, actor=caller.actor, source="PGN"
        )
        request.session["flash"] = {"kind": "ok", "text": translate(change.summary)}
    except CrosstableError as problem:
        request.session["flash"] = {"kind": "error", "text": error_text(problem)}
    return RedirectResponse(f"/t/{tid}/rounds/{rnd}", status_code=303)


@router.get("/t/{tid}/games.pgn")
def tournament_pgn(tid: int, request: Request) -> Response:
    """The tournament's games as one PGN file (a download)."""
    site = site_of(request)
    return _pgn_download(site.service.export_pgn(tid), f"tournament-{tid}.pgn")


def _pgn_download(body: str, filename: str) -> Response:
    return Response(
        body,
        media_type=PGN_TYPE,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


# -- the JSON API ------------------------------------------------------------------------


@api_router.get("/tournaments/{tid}/pgn", response_class=Response)
def api_tournament_pgn(tid: Num, request: Request) -> Response:
    """The tournament's games as one PGN (``application/x-chess-pgn``)."""
    return _pgn_download(site_of(request).service.export_pgn(tid), f"tournament-{tid}.pgn")


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class GameShown(Shown):
    """``GET …/boards/{board}/pgn``: a game's players, result (None: none yet) and kept
    PGN (None when it has no moves)."""

    round: int
    board: int
    white: int | None
    black: int | None
    result: str | None
    pgn: str | None


@api_router.get("/tournaments/{tid}/rounds/{rnd}/boards/{board}/pgn")
def api_game(tid: Num, rnd: Num, board: Num, request: Request) -> JsonObject:
    """A game: its players, result and kept PGN (``null`` when it has no moves)."""
    game = site_of(request).service.game_moves(tid, rnd, board)
    return GameShown(
        round=game.round,
        board=game.board,
        white=game.white,
        black=game.black,
        result=game.result or None,
        pgn=game.pgn,
    ).as_json()


@api_router.post("/tournaments/{tid}/rounds/{rnd}/boards/{board}/pgn")
def api_game_upload(
    tid: Num, rnd: Num, board: Num, body: PgnIn, request: Request, caller: ApiCaller
) -> ChangeOut:
    """A game's moves (a PGN of one game), e.g. posted by the game server that played
    it; its result is recorded with them if the game had none, else must agree."""
    site = site_of(request)
    require_role(site, caller, tid, RESULT_ENTRY)
    site.report_limit.check(f"user:{caller.actor}", "results")
    change = site.service.record_moves(
        tid,
        rnd,
        board,
        body.pgn,
        actor=caller.actor,
        idempotency_key=body.idempotency_key,
        source="pgn",
    )
    return change_out(change)


@api_router.post("/tournaments/{tid}/rounds/{rnd}/pgn")
def api_round_upload(
    tid: Num, rnd: Num, body: PgnIn, request: Request, caller: ApiCaller
) -> ChangeOut:
    """A round's games in one PGN, matched to its boards (``Round "r.b"`` or the names)."""
    site = site_of(request)
    require_role(site, caller, tid, RESULT_ENTRY)
    change = site.service.import_pgn(
        tid, body.pgn, round_number=rnd, actor=caller.actor, source="pgn"
    )
    return change_out(change)


@api_router.post("/tournaments/{tid}/pgn")
def api_tournament_upload(tid: Num, body: PgnIn, request: Request, caller: ApiCaller) -> ChangeOut:
    """Games of any rounds in one PGN (each with its ``Round`` header)."""
    site = site_of(request)
    require_role(site, caller, tid, RESULT_ENTRY)
    change = site.service.import_pgn(tid, body.pgn, actor=caller.actor, source="pgn")
    return change_out(change)


__all__ = ["api_router", "router"]
