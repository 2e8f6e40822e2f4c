"""Game servers: their tokens (the administrator's page and API) and
the batch of results they post.

A game server's token is made by an administrator for the game server's account. It
is a helper of the tournaments granted to it (or of every tournament) and posts
results at its own limit of results a minute (6 000 unless the administrator sets
another), counted for every process on a PostgreSQL database
(:class:`crosstable.web.security.ResultLimits`).

``POST /api/v1/results`` takes up to :data:`BATCH_MOST` results in one request. Each
is its own recorded change, with its own idempotency key, exactly as if it had been
posted alone to ``…/boards/{board}/result``, in the order given; the answer says for
each whether it was accepted (the change) or refused (the status a lone request would
have had, and why, in the reader's language). One refused result does not refuse the
others: an item that is not an object (a number, a list, null) is refused alone, named
by its index, and an idempotency key met again in the batch for another tournament is
refused (409, the key named), as the service refuses a key sent again with another body.
The batch counts as many results as it has items against the token's limit; a batch
that would pass the limit is refused whole (429, Retry-After).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field, ValidationError

from crosstable.core.errors import CrosstableError, RuleError
from crosstable.core.model import Reason
from crosstable.core.text import Message
from crosstable.service.accounts.tokens import GameServerInfo, new_game_server, tournament_list
from crosstable.service.errors import ConflictError, NotFoundError
from crosstable.service.read_views import JsonObject
from crosstable.web.i18n import gettext as _
from crosstable.web.messages import error_text, translate
from crosstable.web.routes.api import ApiCaller, Num, change_out
from crosstable.web.routes.api_models import RecordIn
from crosstable.web.routes.common import (
    RESULT_ENTRY,
    CheckedForm,
    caller_of,
    integer,
    require_result_entry,
    require_role,
    require_user,
    text,
)
from crosstable.web.security import Caller
from crosstable.web.site import Site, site_of

#: the most results in one batch
BATCH_MOST = 500

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api/v1", tags=["api"])


class ResultItem(RecordIn):
    """One result of a batch: where, and what (as ``…/boards/{board}/result`` takes it)."""

    tournament: int = Field(ge=1, le=2_000_000_000)
    round: int = Field(ge=1, le=2_000_000_000)
    board: int = Field(ge=1, le=2_000_000_000)


class BatchIn(BaseModel):
    #: any JSON value per item: one that is not an object is refused alone, by its index
    results: list[Any] = Field(
        max_length=BATCH_MOST,
        description=f"at most {BATCH_MOST} results, each "
        "{tournament, round, board, result, reason?, idempotency_key?, expected_version?}",
    )


class GameServerIn(BaseModel):
    username: str = Field(min_length=2, max_length=40, description="the game server's account")
    label: str = Field("", max_length=100)
    tournaments: list[int] = Field(default_factory=list, max_length=100_000)
    every_tournament: bool = False
    per_minute: int | None = Field(None, ge=1, le=600_000)


class GrantsIn(BaseModel):
    tournaments: list[int] = Field(max_length=100_000)
    allowed: bool = True


def _status(error: Exception) -> int:
    if isinstance(error, HTTPException):
        return int(error.status_code)
    if isinstance(error, NotFoundError):
        return 404
    if isinstance(error, ConflictError):
        return 409
    return 422


def _why(error: Exception) -> str:
    if isinstance(error, CrosstableError):
        return error_text(error)
    detail = getattr(error, "detail", "")
    return translate(detail) if isinstance(detail, str) else str(detail)


def _invalid(error: ValidationError) -> str:
    first = error.errors()[0]
    field = ".".join(str(part) for part in first.get("loc", ())) or "result"
    if first.get("type") == "missing":
        return translate(Message("{field}: the value is missing", field=field))
    return translate(Message("{field}: the value is not valid", field=field))


def _kind(raw: Any) -> Message:
    """What a batch's item that is not an object is, for its refusal."""
    if raw is None:
        return Message("nothing (null)")
    if isinstance(raw, bool):
        return Message("true or false")
    if isinstance(raw, int | float):
        return Message("a number")
    if isinstance(raw, str):
        return Message("a text")
    return Message("a list")


def _not_an_object(index: int, raw: Any) -> JsonObject:
    why = Message(
        "result {index}: a result is an object with tournament, round, board and result,"
        " not {kind}",
        index=index,
        kind=_kind(raw),
    )
    return {"status": "refused", "code": 422, "detail": translate(why)}


def _one(
    site: Site,
    caller: Caller,
    raw: JsonObject,
    roles: dict[int, Exception | str],
    keys: dict[str, int],
) -> JsonObject:
    """Record one item of a batch; the item's answer (accepted or refused, and why).
    ``keys`` holds the tournament of each idempotency key met in the batch so far."""
    try:
        item = ResultItem.model_validate(raw)
    except ValidationError as error:
        return {"status": "refused", "code": 422, "detail": _invalid(error)}
    key = item.idempotency_key
    if key is not None and keys.setdefault(key, item.tournament) != item.tournament:
        # a key is kept per tournament: the service would take it for a new request
        reused = Message(
            "idempotency key {key} was already used for another request (tournament {first})",
            key=repr(key),
            first=keys[key],
        )
        return {"status": "refused", "code": 409, "detail": translate(reused)}
    if item.tournament not in roles:
        try:
            roles[item.tournament] = require_role(site, caller, item.tournament, RESULT_ENTRY)
        except (HTTPException, CrosstableError) as error:
            roles[item.tournament] = error
    role = roles[item.tournament]
    refused = role if isinstance(role, Exception) else None
    if role == "helper":  # a helper who plays in this game may not enter its result
        try:
            require_result_entry(site, caller, item.tournament, item.round, item.board)
        except HTTPException as error:
            refused = error
    if refused is None:
        try:
            change = site.service.record_result(
                item.tournament,
                item.round,
                item.board,
                item.result,
                actor=caller.actor,
                idempotency_key=item.idempotency_key,
                expected_version=item.expected_version,
                reason=None if item.reason is None else Reason(item.reason),
            )
        except CrosstableError as error:
            refused = error
        else:
            return {"status": "accepted", "change": change_out(change).model_dump()}
    answer: JsonObject = {"status": "refused", "code": _status(refused)}
    answer["detail"] = _why(refused)
    current = getattr(refused, "current", None)
    if current is not None:
        answer["current"] = current
    return answer


@api_router.post("/results")
def record_many(body: BatchIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Many results in one request (a game server's), each its own recorded change with its
    own idempotency key; the answer says for each one whether it was accepted or refused
    and why (one refused result does not refuse the others)."""
    site = site_of(request)
    require_user(caller)
    if body.results:
        site.report_limit.check_caller(caller, "results", len(body.results))
    roles: dict[int, Exception | str] = {}
    keys: dict[str, int] = {}
    answers = []
    for index, raw in enumerate(body.results):
        if isinstance(raw, dict):
            answer = _one(site, caller, raw, roles, keys)
        else:
            answer = _not_an_object(index, raw)
        answers.append({"index": index, **answer})
    accepted = sum(1 for a in answers if a["status"] == "accepted")
    return {"accepted": accepted, "refused": len(answers) - accepted, "results": answers}


# -- the administrator's: game servers' tokens ----------------------------------------


def _require_admin(caller: Caller) -> None:
    require_user(caller)
    if caller.user is None or not caller.user.is_admin:
        raise HTTPException(status_code=403, detail="only administrators may open this page")


def _shown(info: GameServerInfo) -> JsonObject:
    return {
        "id": info.token.id,
        "username": info.user.username,
        "label": info.label,
        "created_at": info.created_at,
        "every_tournament": info.token.every_tournament,
        "per_minute": info.token.results_a_minute,
        "tournaments": list(info.tournaments),
    }


@api_router.get("/game-servers")
def api_game_servers(request: Request, caller: ApiCaller) -> JsonObject:
    """The game servers' tokens (an administrator's; never the tokens themselves)."""
    _require_admin(caller)
    return {"game_servers": [_shown(i) for i in site_of(request).accounts.game_servers()]}


@api_router.post("/game-servers")
def api_new_game_server(body: GameServerIn, request: Request, caller: ApiCaller) -> JsonObject:
    """A game server's token (an administrator's): shown once in the answer."""
    _require_admin(caller)
    site = site_of(request)
    token_id, token = new_game_server(
        site.accounts,
        body.username,
        body.label,
        tournaments=body.tournaments,
        every_tournament=body.every_tournament,
        per_minute=body.per_minute,
    )
    shown = next(_shown(i) for i in site.accounts.game_servers() if i.token.id == token_id)
    return shown | {"token": token}


@api_router.post("/game-servers/{token_id}/grants")
def api_grants(token_id: Num, body: GrantsIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Grant (or, with ``allowed: false``, take back) tournaments to a game server."""
    _require_admin(caller)
    site = site_of(request)
    site.accounts.grant(token_id, body.tournaments, allowed=body.allowed)
    return next(_shown(i) for i in site.accounts.game_servers() if i.token.id == token_id)


@api_router.delete("/game-servers/{token_id}")
def api_revoke(token_id: Num, request: Request, caller: ApiCaller) -> JsonObject:
    _require_admin(caller)
    site_of(request).accounts.revoke_game_server(token_id)
    return {"revoked": token_id}


@router.get("/admin/game-servers", response_class=HTMLResponse)
def page(request: Request) -> Response:
    site, caller = caller_of(request)
    _require_admin(caller)
    return site.page(
        request,
        "game_servers.html",
        caller=caller,
        servers=site.accounts.game_servers(),
        new_token=request.session.pop("new_token", None),
    )


@router.post("/admin/game-servers")
def create(request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    _require_admin(caller)
    username = text(form, "username")
    if not username:
        raise RuleError("username: the game server's account is missing")
    _token_id, token = new_game_server(
        site.accounts,
        username,
        text(form, "label"),
        tournaments=tournament_list(text(form, "tournaments")),
        every_tournament=text(form, "every_tournament") == "on",
        per_minute=integer(form, "per_minute", low=1, high=600_000),
    )
    request.session["new_token"] = token
    return RedirectResponse("/admin/game-servers", status_code=303)


@router.post("/admin/game-servers/{token_id}/grants")
def grants(token_id: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    _require_admin(caller)
    allowed = text(form, "decision", "grant") != "withdraw"
    site.accounts.grant(token_id, tournament_list(text(form, "tournaments")), allowed=allowed)
    request.session["flash"] = {"kind": "ok", "text": _("game server updated")}
    return RedirectResponse("/admin/game-servers", status_code=303)


@router.post("/admin/game-servers/{token_id}/revoke")
def revoke(token_id: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    _require_admin(caller)
    site.accounts.revoke_game_server(token_id)
    request.session["flash"] = {"kind": "ok", "text": _("game server's token revoked")}
    return RedirectResponse("/admin/game-servers", status_code=303)
