"""Pairing round by round: a Swiss round proposed, approved (or changed) and published; byes
requested for later rounds; a knockout's bracket and its "continue" button.

The Swiss round flow for organisers:

1. ``GET /t/{id}/pairing`` — the Dutch system's pairing of the next round (boards with
   colours, the pairing-allocated bye, the players not paired and why). Nothing is
   published yet.
2. "Publish" publishes exactly the boards shown. "Edit" shows the same boards as
   choices; ``POST /t/{id}/pairing/review`` checks the organiser's pairing (the
   absolute rules refuse it with a clear message, the organiser's choices are kept)
   and lists every way it differs from the Dutch system's, in a warning box, before
   "Publish the manual pairing"; the published event records it as a manual
   pairing with those warnings (history).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from crosstable.core.errors import CrosstableError, RuleError
from crosstable.service.warning_levels import ConfirmationNeeded
from crosstable.web import pairing_views
from crosstable.web.confirmations import CONFIRM, confirmation_page, confirming
from crosstable.web.contexts import FormValues, TemplateContext
from crosstable.web.i18n import gettext as _
from crosstable.web.messages import error_text, translate
from crosstable.web.routes import actions
from crosstable.web.routes.common import (
    MANAGERS,
    CheckedForm,
    caller_of,
    integer,
    page_context,
    require_role,
    text,
)
from crosstable.web.routes.pairing_phase import reopenable
from crosstable.web.security import Caller
from crosstable.web.site import Site

router = APIRouter(include_in_schema=False)


# -- Swiss: propose, review, publish ------------------------------------------------------


def _swiss_context(site: Site, caller: Caller, tid: int) -> TemplateContext:
    context = page_context(site, caller, tid)
    view = context["t"]
    if not pairing_views.is_swiss(view):
        raise RuleError(_("only a Swiss tournament is paired round by round here"))
    lines = {line.start: line for line in context["table"].lines}
    return {
        **context,
        "phase": site.service.pairing_phase(tid),  # the manual-pairing phase
        "reopenable": reopenable(view),
        "players_by_start": {
            p.start: (p.name, p.rating, lines[p.start].points if p.start in lines else None)
            for p in view.players
            if p.start is not None
        },
    }


def _proposal(site: Site, tid: int) -> tuple[Any, str]:
    try:
        return site.service.propose_round(tid), ""
    except CrosstableError as error:
        return None, error_text(error)


@router.get("/t/{tid}/pairing", response_class=HTMLResponse)
def pairing(tid: int, request: Request, edit: int = 0) -> Response:
    """The proposed pairing of the next Swiss round, for the organiser's approval."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    context = _swiss_context(site, caller, tid)
    proposal, problem = _proposal(site, tid)
    boards = list(proposal.boards) if proposal is not None else []
    return site.page(
        request,
        "pairing.html",
        caller=caller,
        proposal=proposal,
        problem=problem,
        mode="edit" if edit and proposal is not None else "show",
        boards=boards,
        bye=proposal.bye if proposal is not None else None,
        allow_rematch=False,
        warnings=[],
        **context,
    )


def _manual(form: FormValues, count: int) -> tuple[list[tuple[int, int]], int | None]:
    """The organiser's boards from the edit form: ``white_i`` / ``black_i`` per board."""
    boards: list[tuple[int, int]] = []
    for index in range(1, count + 1):
        white, black = integer(form, f"white_{index}"), integer(form, f"black_{index}")
        if white is None or black is None:
            raise RuleError(_("board %(n)s: choose both players", n=index))
        boards.append((white, black))
    return boards, integer(form, "bye")


@router.post("/t/{tid}/pairing/review", response_class=HTMLResponse)
def review(tid: int, request: Request, form: CheckedForm) -> Response:
    """Check the organiser's pairing; show how it differs from the Dutch system's."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    context = _swiss_context(site, caller, tid)
    proposal, problem = _proposal(site, tid)
    if proposal is None:
        return site.page(
            request, "pairing.html", caller=caller, proposal=None, problem=problem, **context
        )
    count = integer(form, "count", low=0, high=1000) or len(proposal.boards)
    allow = text(form, "allow_rematch") == "on"
    boards: list[tuple[int, int]] = []
    bye: int | None = None
    error = ""
    warnings: list[str] = []
    try:
        boards, bye = _manual(form, count)
        found = site.service.review_pairing(tid, boards, bye, allow_rematch=allow)
        warnings = [translate(w) for w in found]  # (Messages: the reader's language)
    except CrosstableError as failure:
        error = error_text(failure)
        if not boards:  # keep what could be read of the organiser's choices
            boards = [
                (integer(form, f"white_{i}") or 0, integer(form, f"black_{i}") or 0)
                for i in range(1, count + 1)
            ]
            bye = integer(form, "bye")
    return site.page(
        request,
        "pairing.html",
        caller=caller,
        proposal=proposal,
        problem="",
        mode="edit" if error else "review",
        boards=boards,
        bye=bye,
        allow_rematch=allow,
        error=error,
        warnings=warnings,
        **context,
    )


def _board_list(form: FormValues) -> list[tuple[int, int]]:
    raw = form.get("board", [])
    items = raw if isinstance(raw, list) else [raw]
    boards = []
    for item in items:
        white, _sep, black = str(item).partition("-")
        try:
            boards.append((int(white), int(black)))
        except ValueError:
            raise RuleError(
                "board {board}: give White's and Black's numbers: 3-8", board=repr(item)
            ) from None
    return boards


@router.post("/t/{tid}/pairing/publish")
def publish(tid: int, request: Request, form: CheckedForm) -> Response:
    """Publish the pairing the organiser saw (the engine's, or their own after the review)."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    context = _swiss_context(site, caller, tid)
    number = integer(form, "round")
    paired = pairing_views.paired_rounds(context["t"])
    key = text(form, "key") or None
    repeated = pairing_views.key_used(site.service, tid, key)
    if number is not None and number <= paired and not repeated:  # another organiser was first
        request.session["flash"] = {
            "kind": "ok",
            "text": _("Round %(r)s is published already.", r=number),
        }
        return RedirectResponse(f"/t/{tid}/rounds/{number}", status_code=303)
    if number is not None and number > paired + 1 and not repeated:
        raise RuleError(
            "round {round} cannot be published: the next round is {next}",
            round=number,
            next=paired + 1,
        )
    boards = _board_list(form)
    try:
        change = site.service.publish_round(
            tid,
            boards,
            integer(form, "bye"),
            allow_rematch=text(form, "allow_rematch") == "on",
            actor=caller.actor,
            idempotency_key=key,
            confirm=text(form, CONFIRM) or None,
            validating=context["phase"]["state"] == "editing",  # "Validate pairings"
        )
    except ConfirmationNeeded as asked:  # games without a result: adjourned (level 2)
        return confirmation_page(site, request, form, asked, cancel=f"/t/{tid}/pairing", **context)
    rnd = int(change.data.get("round", number or 1))
    if change.data.get("manual"):
        warnings = "; ".join(translate(w) for w in change.data.get("warnings", []))
        request.session["flash"] = {
            "kind": "warn",
            "text": _(
                "Round %(r)s published as a manual pairing, recorded in the history; "
                "it differs from the Dutch system's: %(w)s",
                r=rnd,
                w=warnings,
            ),
        }
    else:
        request.session["flash"] = {"kind": "ok", "text": translate(change.summary)}
    return RedirectResponse(f"/t/{tid}/rounds/{rnd}", status_code=303)


# -- byes for later rounds --------------------------------------------------------------------


@router.get("/t/{tid}/byes", response_class=HTMLResponse)
def byes_page(tid: int, request: Request) -> Response:
    """Byes requested for rounds not paired yet (and those of paired rounds)."""
    site, caller = caller_of(request)
    context = _swiss_context(site, caller, tid)
    paired = context["paired"]
    planned = pairing_views.planned_rounds(site.service, tid) or 0
    return site.page(
        request,
        "byes.html",
        caller=caller,
        byes=pairing_views.byes(site.service, tid),
        future=list(range(paired + 1, planned + 1)),
        **context,
    )


@router.post("/t/{tid}/byes")
def bye_action(tid: int, request: Request, form: CheckedForm) -> Response:
    """Request or cancel a bye: players for themselves, organisers for anyone."""
    site, caller = caller_of(request)
    rnd = integer(form, "round")
    if rnd is None:
        raise RuleError(_("choose the round"))

    def act(token: str | None) -> Response:  # FIDE's warnings: web/confirmations.py
        change = actions.bye(
            site,
            caller,
            tid,
            integer(form, "start"),
            rnd,
            text(form, "kind", "H"),
            cancel=text(form, "action") == "cancel",
            confirm=token,
        )
        request.session["flash"] = {"kind": "ok", "text": translate(change.summary)}
        return RedirectResponse(f"/t/{tid}/byes", status_code=303)

    context = page_context(site, caller, tid) | {"tab": "byes"}
    return confirming(site, request, form, act, cancel=f"/t/{tid}/byes", **context)


# -- knockout ------------------------------------------------------------------------------------


@router.get("/t/{tid}/bracket", response_class=HTMLResponse)
def bracket(tid: int, request: Request) -> Response:
    """The knockout's bracket: rounds as columns, every match with its games and winner."""
    site, caller = caller_of(request)
    context = page_context(site, caller, tid)
    view = context["t"]
    if not pairing_views.is_knockout(view):
        raise HTTPException(status_code=404, detail="only a knockout has a bracket")
    return site.page(
        request,
        "bracket.html",
        caller=caller,
        bracket=pairing_views.bracket_of(site.service, view),
        **context,
    )


@router.post("/t/{tid}/knockout/next")
def knockout_next(tid: int, request: Request, form: CheckedForm) -> Response:
    """Continue the knockout: tie-break games of tied matches, or the next round."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.pair_next_round(tid, actor=caller.actor)
    request.session["flash"] = {"kind": "ok", "text": translate(change.summary)}
    view, _table = site.service.crosstable(tid)
    last = max((g.round for g in view.games), default=1)
    return RedirectResponse(f"/t/{tid}/rounds/{last}", status_code=303)
