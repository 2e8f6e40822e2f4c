"""The organiser's page: players (typed, pasted, CSV, accounts), lots, start, withdrawals,
finish, undo, helpers, registration window and eligibility rules; administrators approve."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from crosstable.core.errors import RuleError
from crosstable.core.funding import SOURCES as FUNDING_SOURCES
from crosstable.core.model import LotsMethod
from crosstable.core.text import Message
from crosstable.service import PlayerInfo
from crosstable.service.history import ReopeningError
from crosstable.service.players import duplicate_names
from crosstable.web import pairing_views
from crosstable.web.confirmations import confirming
from crosstable.web.i18n import gettext as _
from crosstable.web.i18n import ngettext
from crosstable.web.messages import error_text, translate
from crosstable.web.routes import actions
from crosstable.web.routes.common import (
    MANAGERS,
    CheckedForm,
    caller_of,
    integer,
    page_context,
    require_approved,
    require_role,
    text,
)
from crosstable.web.routes.rating_list import custom_list_player, rating_list_player
from crosstable.web.tiebreak_picker import picker_of

router = APIRouter(include_in_schema=False)


def _done(request: Request, tid: int, message: str, where: str = "manage") -> Response:
    request.session["flash"] = {"kind": "ok", "text": translate(message)}
    return RedirectResponse(f"/t/{tid}/{where}", status_code=303)


@router.get("/t/{tid}/manage", response_class=HTMLResponse)
def manage(tid: int, request: Request) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    context = page_context(site, caller, tid)
    staff = site.accounts.staff(tid)
    people = {u.id: u for u in site.accounts.users()} if staff else {}
    staff_list = [(people[uid], role) for uid, role in staff.items() if uid in people]
    linked = {}
    for p in context["t"].players:
        for uid, user in people.items():
            if site.accounts.entry_of(tid, uid) == p.number:
                linked[p.number] = user.username
    return site.page(
        request,
        "manage.html",
        caller=caller,
        staff=staff_list,
        linked=linked,
        teams=pairing_views.teams(site.service, tid),
        planned=pairing_views.planned_rounds(site.service, tid),
        details=site.service.player_details(tid),
        round_ratings=site.service.round_ratings(tid),
        picker=picker_of(site.service, tid),  # the tie-breaks offered
        **context,
    )


@router.post("/t/{tid}/manage/players")
def add_players(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    players: list[PlayerInfo] = []
    name = text(form, "name")
    fide_id = text(form, "fide_id")
    list_player = text(form, "list_player")
    if list_player:  # from a custom list (RUS:4101): its details, what was typed over them
        players.append(custom_list_player(site.service, tid, form, list_player))
    elif fide_id:  # from the rating list: its details, what was typed over them
        players.append(rating_list_player(site.service, tid, form, fide_id))
    elif name:
        players.append(
            PlayerInfo(
                name,
                integer(form, "rating"),
                text(form, "title"),
                text(form, "federation"),
                team=text(form, "team"),
                club=text(form, "club"),
            )
        )
    pasted = text(form, "list")
    if pasted:
        players.extend(actions.parse_player_list(pasted))
    upload = form.get("csv")
    decoded = None
    if isinstance(upload, bytes) and upload.strip():
        read, decoded = actions.read_player_csv(upload)
        players.extend(read)
    if not players:
        raise RuleError("type a name, paste a list or choose a CSV file")
    checked = [p.checked() for p in players]
    username = text(form, "account")
    user = None
    if username and len(checked) == 1:
        user = site.accounts.find_user(username)
        if user is None:
            raise RuleError("there is no account {name}", name=repr(username))
        # fair play and the organisers' rule before the entry exists
        site.accounts.check_entry(tid, user.id)
    registered_names = [p.name for p in site.service.overview(tid).players]

    def act(token: str | None) -> Response:  # (a Swiss's late entry: FIDE's warning first)
        for player in checked:
            site.service.add_player(tid, player, actor=caller.actor, confirm=token)
        if user is not None:
            number = next(p.number for p in reversed(site.service.overview(tid).players))
            site.accounts.link_entry(tid, number, user.id, actor=caller.actor)
        count = len(checked)
        registered = ngettext("%(num)d player registered", "%(num)d players registered", count)
        notes = [actions.encoding_note(decoded)]
        notes += duplicate_names(registered_names, [p.name for p in checked])  # a warning only
        return _done(request, tid, Message.joined(" ", [registered, *(n for n in notes if n)]))

    context = page_context(site, caller, tid) | {"tab": "manage"}
    return confirming(site, request, form, act, cancel=f"/t/{tid}/manage", **context)


@router.post("/t/{tid}/manage/players/{number}/remove")
def remove_player(tid: int, number: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)

    def act(token: str | None) -> Response:  # (a level-2 warning: the rounds set, one fewer)
        change = site.service.remove_player(tid, number, actor=caller.actor, confirm=token)
        site.accounts.unlink_entry(tid, number, actor=caller.actor)
        return _done(request, tid, change.summary)

    context = page_context(site, caller, tid) | {"tab": "manage"}
    return confirming(site, request, form, act, cancel=f"/t/{tid}/manage", **context)


#: the player details the edit form may send (the rating apart: a number or empty)
PLAYER_FIELDS = ("name", "title", "federation", "fide_id", "birth_date", "sex", "club")


@router.post("/t/{tid}/manage/players/{number}/edit")
def edit_player(tid: int, number: int, request: Request, form: CheckedForm) -> Response:
    """Correct a player's details: only the fields the form sends."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    # the details sent, as edit_player takes them
    values: dict[str, str | int | bool | None] = {
        key: text(form, key) for key in PLAYER_FIELDS if key in form
    }
    for key in ("rating", "national_rating", "manual_rating"):
        if key in form:
            values[key] = integer(form, key)
    if "half_byes_shown" in form:  # (an unticked box sends nothing)
        values["half_byes"] = "half_byes" in form
    change = site.service.edit_player(tid, number, actor=caller.actor, **values)
    return _done(request, tid, change.summary)


@router.post("/t/{tid}/manage/players/{number}/round-rating")
def round_rating(tid: int, number: int, request: Request, form: CheckedForm) -> Response:
    """An event longer than 30 days: a player's rating from a round on (empty: removed)."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    first = integer(form, "from_round")
    if first is None:
        raise RuleError("from round: give the first round the rating covers")
    rating = integer(form, "rating")
    change = site.service.set_round_rating(tid, number, first, rating, actor=caller.actor)
    return _done(request, tid, change.summary)


@router.post("/t/{tid}/manage/lots")
def draw_lots(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    chosen = text(form, "method", "random") or "random"
    try:
        method = LotsMethod(chosen)
    except ValueError:  # a 4xx naming the field, not a 500
        raise RuleError(
            "method {method}: random, rating or manual", method=repr(chosen[:40])
        ) from None
    order: tuple[int, ...] = ()
    if method is LotsMethod.MANUAL:
        raw = text(form, "order").replace(",", " ").split()
        if len(raw) > 1000 or not all(x.isascii() and x.isdigit() and len(x) <= 6 for x in raw):
            raise RuleError("the order lists registration numbers, e.g. 3 1 2 4")
        order = tuple(int(x) for x in raw)
    seed = integer(form, "seed", low=0, high=2**62)
    change = site.service.draw_lots(tid, method, seed=seed, order=order, actor=caller.actor)
    return _done(request, tid, change.summary)


@router.post("/t/{tid}/manage/start")
def start(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    change = actions.start(site, caller, tid)
    system = site.service.overview(tid).settings.system
    # a Swiss pairs round 1 after the start (the organiser approves it first)
    return _done(request, tid, change.summary, "pairing" if system == "dutch" else "rounds/1")


@router.post("/t/{tid}/manage/withdraw")
def withdraw(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    start_number = integer(form, "start")
    if start_number is None:
        raise RuleError("choose the player who withdraws")
    change = site.service.withdraw(
        tid, start_number, from_round=integer(form, "from_round"), actor=caller.actor
    )
    return _done(request, tid, change.summary)


@router.post("/t/{tid}/manage/finish")
def finish(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.finish(tid, actor=caller.actor)
    request.session["flash"] = {"kind": "ok", "text": translate(change.summary)}
    return RedirectResponse(f"/t/{tid}", status_code=303)


@router.post("/t/{tid}/manage/undo")
def undo(tid: int, request: Request, form: CheckedForm) -> Response:
    """Undo, or revert to ``seq``. Reopening a finished tournament needs ``reason`` and
    ``confirm``: refused without, the history page then asks for them."""
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    seq = integer(form, "seq")
    reason = text(form, "reason")[:500] or None
    confirm = text(form, "confirm") in ("on", "yes", "1")
    try:
        if seq is None:
            change = site.service.undo(tid, actor=caller.actor, reason=reason, confirm=confirm)
        else:
            change = site.service.revert_to(
                tid, seq, actor=caller.actor, reason=reason, confirm=confirm
            )
    except ReopeningError as refused:
        request.session["flash"] = {"kind": "error", "text": error_text(refused)}
        again = "last" if seq is None else str(seq)
        return RedirectResponse(f"/t/{tid}/history?reopen={again}#reopen", status_code=303)
    return _done(request, tid, change.summary, "history")


@router.post("/t/{tid}/manage/staff")
def staff(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    username = text(form, "username")
    user = site.accounts.find_user(username)
    if user is None:
        raise RuleError("there is no account {name}", name=repr(username))
    role = text(form, "role", "helper") or None
    if role == "none":
        role = None
    site.accounts.set_staff(tid, user.id, role, actor=caller.actor)
    return _done(request, tid, _("staff updated"))


@router.post("/t/{tid}/manage/access")
def access(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    self_registration = text(form, "self_registration") == "on"
    eligibility = {
        key: value
        for key, value in (
            ("min_rated_games", integer(form, "min_rated_games") or 0),
            ("min_online_tournaments", integer(form, "min_online_tournaments") or 0),
        )
        if value
    }
    if self_registration:
        require_approved(site, tid)
    site.accounts.set_access(
        tid,
        actor=caller.actor,
        self_registration=self_registration,
        opens_at=text(form, "opens_at") or None,
        closes_at=text(form, "closes_at") or None,
        eligibility=eligibility,
    )
    return _done(request, tid, _("registration settings saved"))


#: the regulations' details the manage form edits, with the value meant when one is not set
_FORM_DETAILS = {
    "ties": "shared",
    "forfeits_in_tiebreaks": "yes",
    "setup_minutes": "",
    "venue_kind": "online",
    "long_event": "no",
    "tiebreak_ratings": "first",
    "funding": "",
    "sponsor": "",
    "sponsor_credit": "",
    "rating_method": "FIDE",
}


@router.post("/t/{tid}/manage/regulations")
def regulations(tid: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_role(site, caller, tid, MANAGERS)
    # the settings the form changes, as edit_regulations takes them
    values: dict[str, str | tuple[str, ...] | dict[str, str]] = {}
    if "time_control" in form:
        values["time_control"] = text(form, "time_control")
    if "tiebreaks" in form:
        spec = actions.WizardSpec(name="x", tiebreaks=text(form, "tiebreaks"))
        values["tiebreaks"] = spec.tiebreak_codes()
    # only the settings the form changes, merged into the details by the service (the
    # venue, a seed and the rest stay): ties by lots, forfeits, a
    # battle-chess tournament's set-up time (its field only on such a tournament),
    # the kind of event (online or over the board; fixed once started)
    published = site.service.overview(tid).settings.regulations
    if "funding_shown" in form:  # the funding's boxes, one a source: the detail's text
        ticked = [source for source in FUNDING_SOURCES if text(form, f"funding_{source}")]
        form = {**form, "detail_funding": ",".join(ticked)}
    changes = {
        key: text(form, f"detail_{key}")
        for key, default in _FORM_DETAILS.items()
        if f"detail_{key}" in form
        and text(form, f"detail_{key}") != str(published.get(key) or default)
    }
    if changes:
        values["detail_changes"] = changes
    if not values:
        raise RuleError("nothing to change")
    reason = text(form, "override") or None

    def act(token: str | None) -> Response:
        # a Buchholz for a round robin (level 3) and the tie-breaks after the start (level
        # 4) ask for a confirmation: web/confirmations.py shows it and sends the form again
        change = site.service.edit_regulations(
            tid, actor=caller.actor, override_reason=reason, confirm=token, **values
        )
        return _done(request, tid, change.summary)

    context = page_context(site, caller, tid) | {"tab": "manage"}
    return confirming(site, request, form, act, cancel=f"/t/{tid}/manage", **context)


@router.post("/t/{tid}/approve")
def approve(tid: int, request: Request, form: CheckedForm) -> Response:
    """An administrator approves (or rejects) a master's regulations."""
    site, caller = caller_of(request)
    if caller.user is None or not caller.user.is_admin:
        raise HTTPException(status_code=403, detail="only an administrator may approve")
    decision = "rejected" if text(form, "decision") == "reject" else "approved"
    site.accounts.set_access(tid, approval=decision, actor=caller.actor)
    request.session["flash"] = {"kind": "ok", "text": translate(decision)}
    return RedirectResponse("/admin", status_code=303)
