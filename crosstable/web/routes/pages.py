"""Pages everyone may see: tournaments, the crosstable (the main page), standings, players,
rounds, history and the published regulations; and the result buttons of the round view."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response

from crosstable.core.errors import CrosstableError
from crosstable.core.norms import tournament_norms
from crosstable.core.text import Message
from crosstable.service.eligibility import OTB_MINIMUM, rules_of, venue_kind
from crosstable.service.rating_figures import rating_figures
from crosstable.service.tiebreak_order import published_tiebreaks
from crosstable.service.warning_levels import ConfirmationNeeded
from crosstable.web import i18n, pairing_views, views
from crosstable.web.confirmations import CONFIRM, confirmation_page
from crosstable.web.contexts import TemplateContext
from crosstable.web.messages import error_text, translate
from crosstable.web.routes import actions, battle
from crosstable.web.routes.common import (
    CheckedForm,
    caller_of,
    page_context,
    require_result_entry,
    text,
)
from crosstable.web.routes.printing import player_byes
from crosstable.web.security import Caller
from crosstable.web.site import Site

router = APIRouter(include_in_schema=False)

RESULT_BUTTONS = ("1-0", "½-½", "0-1")
FORFEIT_BUTTONS = ("+-", "-+", "--")
# behind "More…": an arbiter's results short of a game, and games played but not rated
UNUSUAL_BUTTONS = ("½-0", "0-½", "0-0")
UNRATED_BUTTONS = {"1-0u": "WL", "½-½u": "DD", "0-1u": "LW"}


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> Response:
    site, caller = caller_of(request)
    listing = site.service.tournaments()
    return site.page(request, "index.html", caller=caller, tournaments=listing)


#: the tabs a page may name as its own (anything else: none is current)
TABS = (
    "table",
    "bracket",
    "round",
    "standings",
    "teams",
    "regulations",
    "history",
    "print",
    "manage",
)
STATIC = Path(__file__).resolve().parents[1] / "static"


@router.get("/favicon.ico")
def favicon() -> Response:
    """The site's icon where browsers look for it first."""
    return FileResponse(STATIC / "favicon.ico", media_type="image/x-icon")


@router.get("/t/{tid}/tabs", response_class=HTMLResponse)
def tab_links(tid: int, request: Request, tab: str = "") -> Response:
    """The tab bar's links as they are now: static/app.js swaps them in after a change, so
    a page opened before round 1 gains its Rounds tab when the round is published."""
    site, caller = caller_of(request)
    current = tab if tab in TABS else ""
    context = page_context(site, caller, tid) | {"request": request, "tab": current}
    # (not site.page: a fragment must not take the page's flash message)
    return site.templates.TemplateResponse(request, "_tab_links.html", context)


@router.get("/t/{tid}", response_class=HTMLResponse)
def crosstable(tid: int, request: Request) -> Response:
    """The main page: the crosstable (a Swiss: its table by rounds; a knockout: the bracket)."""
    site, caller = caller_of(request)
    context = page_context(site, caller, tid)
    template, extra = pairing_views.live_fragment(site, context["t"], context["table"])
    return site.page(
        request, "crosstable.html", caller=caller, live_template=template, **extra, **context
    )


@router.get("/t/{tid}/live", response_class=HTMLResponse)
def crosstable_fragment(tid: int, request: Request) -> Response:
    site, _caller = caller_of(request)
    _revision, html = site.render_live(tid, i18n.current.get())
    return HTMLResponse(html)


@router.get("/t/{tid}/standings", response_class=HTMLResponse)
def standings(tid: int, request: Request, ratings: bool = False) -> Response:
    site, caller = caller_of(request)
    context = page_context(site, caller, tid)
    bracket = None
    if context["is_knockout"]:
        bracket = pairing_views.bracket_of(site.service, context["t"])
    figures = None
    if ratings and not context["is_knockout"]:  # the optional rating columns
        figures = rating_figures(site.service, tid)
    return site.page(
        request, "standings.html", caller=caller, bracket=bracket, figures=figures, **context
    )


@router.get("/t/{tid}/players/{start}", response_class=HTMLResponse)
def player(tid: int, start: int, request: Request) -> Response:
    site, caller = caller_of(request)
    context = page_context(site, caller, tid)
    table = context["table"]
    if not 1 <= start <= table.size:
        raise HTTPException(
            status_code=404, detail=Message("there is no player {start} in the table", start=start)
        )
    explanations = table.standings.explain(start) if table.standings is not None else []
    games = [g for g in context["t"].games if start in (g.white, g.black)]
    numbers = [p.number for p in context["t"].players if p.start == start]
    details = site.service.player_details(tid).get(numbers[0]) if numbers else None
    rating, norms = player_rating(site, tid, start)
    return site.page(
        request,
        "player.html",
        caller=caller,
        line=table.line(start),
        club=details.club if details else "",
        rating=rating,
        norms=norms,
        explanations=explanations,
        games=games,
        colours_drawn=site.service.colours_drawn(tid),  # battle chess: None, or round → drawn
        byes=player_byes(site, context["t"], table.line(start)),
        **context,
    )


@router.get("/t/{tid}/explain/{start}", response_class=HTMLResponse)
def explain(tid: int, start: int, request: Request, code: str = "") -> Response:
    """One value explained (clicked in the crosstable): the items and the formula."""
    site, caller = caller_of(request)
    _view, table = site.service.crosstable(tid)
    if table.standings is None or not 1 <= start <= table.size:
        raise HTTPException(
            status_code=404, detail=Message("there is no player {start} in the table", start=start)
        )
    chosen = [e for e in table.standings.explain(start) if not code or e.code == code]
    return site.page(
        request,
        "_explain.html",
        caller=caller,
        explanations=chosen,
        line=table.line(start),
        table=table,
        tid=tid,
    )


@router.get("/t/{tid}/rounds", response_class=HTMLResponse)
def rounds_index(tid: int, request: Request) -> Response:
    site, caller = caller_of(request)
    context = page_context(site, caller, tid)
    if not context["t"].rounds:
        return RedirectResponse(f"/t/{tid}", status_code=303)
    return RedirectResponse(f"/t/{tid}/rounds/{context['current_round']}", status_code=303)


def _round_context(site: Site, caller: Caller, tid: int, rnd: int) -> TemplateContext:
    context = page_context(site, caller, tid)
    view = context["t"]
    if not 1 <= rnd <= context["paired"]:
        if context["is_swiss"] and rnd >= 1 and view.status != "finished":
            raise HTTPException(
                status_code=404, detail=Message("round {round} is not paired yet", round=rnd)
            )
        raise HTTPException(status_code=404, detail=Message("there is no round {round}", round=rnd))
    games = [g for g in view.games if g.round == rnd]
    free = [start for r, start in view.free_rounds if r == rnd]
    names = {p.start: p.name for p in view.players}
    extra: TemplateContext = {}
    if context["is_swiss"]:
        extra = pairing_views.swiss_round(site.service, view, rnd).context()
    elif context["is_knockout"]:
        extra = pairing_views.knockout_round(site.service, view, rnd).context()
    return {
        **context,
        "rnd": rnd,
        "games": games,
        "free": [(s, names.get(s, "")) for s in free],
        "results": RESULT_BUTTONS,
        "forfeits": FORFEIT_BUTTONS,
        "unusual": UNUSUAL_BUTTONS,
        "unrated": UNRATED_BUTTONS,
        # battle chess: the rules and which rounds' colours are drawn
        "battle": site.service.battle_rules(tid),
        "colours_drawn": site.service.colours_drawn(tid) or {},
        **extra,
    }


@router.get("/t/{tid}/rounds/{rnd}", response_class=HTMLResponse)
def round_view(tid: int, rnd: int, request: Request) -> Response:
    site, caller = caller_of(request)
    return site.page(request, "round.html", caller=caller, **_round_context(site, caller, tid, rnd))


@router.get("/t/{tid}/rounds/{rnd}/games", response_class=HTMLResponse)
def round_games(tid: int, rnd: int, request: Request) -> Response:
    """The boards of a round (refreshed live on the round view)."""
    site, caller = caller_of(request)
    return site.page(
        request, "_round_body.html", caller=caller, **_round_context(site, caller, tid, rnd)
    )


@router.post("/t/{tid}/rounds/{rnd}/boards/{board}", response_class=HTMLResponse)
def result_action(
    tid: int,
    rnd: int,
    board: int,
    request: Request,
    form: CheckedForm,
) -> Response:
    """One tap on a result button: record, report, confirm, correct or reject."""
    site, caller = caller_of(request)
    action = text(form, "action", "record")
    result = text(form, "result") or None
    key = text(form, "key") or None
    error = ""
    try:
        if action == "report":
            actions.report(site, caller, tid, rnd, board, result or "", key)
        else:
            require_result_entry(site, caller, tid, rnd, board)
            site.report_limit.check(f"user:{caller.actor}", "results")
            token = text(form, CONFIRM) or None
            if action == "record" and token:  # an adjourned game's decisive result, confirmed
                site.service.adjourned_result(
                    tid, rnd, board, result or "", confirm=token, actor=caller.actor
                )
            elif action == "record":
                site.service.record_result(
                    tid, rnd, board, result or "", actor=caller.actor, idempotency_key=key
                )
            elif action == "confirm":
                site.service.confirm_result(tid, rnd, board, result, actor=caller.actor)
            elif action == "correct":
                expected = text(form, "expected") or None
                site.service.correct_result(
                    tid, rnd, board, result, expected=expected, actor=caller.actor, confirm=token
                )
            elif action == "reject":
                site.service.reject_reports(tid, rnd, board, actor=caller.actor)
            else:
                raise HTTPException(
                    status_code=422, detail=Message("unknown action {action}", action=repr(action))
                )
    except ConfirmationNeeded as asked:  # level 3: a page to confirm or cancel
        cancel = f"/t/{tid}/rounds/{rnd}"
        page = confirmation_page(site, request, form, asked, cancel=cancel, tid=tid)
        if request.headers.get("hx-request"):  # the whole page, not the board's cell
            page.status_code = 200  # (htmx swaps no 4xx answer)
            page.headers.update({"HX-Retarget": "body", "HX-Reswap": "innerHTML"})
        return page
    except CrosstableError as problem:
        error = error_text(problem)
    if not request.headers.get("hx-request"):
        if error:
            request.session["flash"] = {"kind": "error", "text": error}
        return RedirectResponse(f"/t/{tid}/rounds/{rnd}", status_code=303)
    context = _round_context(site, caller, tid, rnd)
    game = next(g for g in context["games"] if g.board == board)
    return site.page(request, "_game.html", caller=caller, g=game, error=error, **context)


@router.get("/t/{tid}/history", response_class=HTMLResponse)
def history(tid: int, request: Request) -> Response:
    site, caller = caller_of(request)
    items = [  # each line in the reader's language (old events: English)
        replace(h, summary=translate(h.summary)) for h in reversed(site.service.history(tid))
    ]
    return site.page(
        request,
        "history.html",
        caller=caller,
        items=items,
        revertible=views.revertible(items),
        **page_context(site, caller, tid),
    )


@router.get("/t/{tid}/regulations", response_class=HTMLResponse)
def regulations(tid: int, request: Request) -> Response:
    site, caller = caller_of(request)
    context = page_context(site, caller, tid)
    problems: list[str] = []
    if caller.user is not None and context["t"].status == "registration":
        problems = [translate(p) for p in site.accounts.registration_problems(tid, caller.user)]
    # who may enter as the site applies it: the organiser's rules, or seed 002's for an
    # over-the-board event when they ask less
    details = context["t"].settings["regulations"]
    entry_rules = rules_of(context["access"].eligibility, details)
    return site.page(
        request,
        "regulations.html",
        caller=caller,
        problems=problems,
        entry_rules=entry_rules,
        otb_minimum=OTB_MINIMUM if venue_kind(details) == "otb" else None,
        tiebreak_order=published_tiebreaks(context["t"].settings),
        **context,
    )


@router.post("/t/{tid}/register")
def register(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    if text(form, "action") == "withdraw":
        actions.unregister_self(site, caller, tid)
        request.session["flash"] = {"kind": "ok", "text": translate("registration withdrawn")}
    else:
        actions.register_self(site, caller, tid)
        request.session["flash"] = {"kind": "ok", "text": translate("you are registered")}
    return RedirectResponse(f"/t/{tid}/regulations", status_code=303)


# battle chess's pages and API, mounted with these pages (after them)
router.include_router(battle.router)
router.include_router(battle.api_router)


def player_rating(site: Any, tid: int, start: int) -> tuple[Any, list[Any]]:
    """The player's FIDE rating figures (on the list of the event's type) and the title
    norms made or still possible (docs/ratings.md), for the player page."""
    figures = rating_figures(site.service, tid, only=start)
    if not figures.players:
        return None, []
    # one player's figures: a page view does not rate the whole field
    tournament = site.service.table_state(tid).tournament
    (norms,) = tournament_norms(tournament, only=start)
    shown = [c for c in norms.checks if c.status in ("made", "secured", "possible")]
    return figures.players[0], shown
