"""Sign-up, sign-in (limited per address and per account), sign-out, the account page
(API tokens, password, sign out everywhere), the language switch, and the administrator's
page (approvals, masters, flags, sign a user out everywhere) with its API twin.

Sessions are server-side rows: sign-out, a password change and
"sign out everywhere" revoke them, so an old cookie is a signed-out visitor. Every
``next`` goes through :func:`crosstable.web.security.safe_next` (item 8). Sign-in
refusals are 429 with Retry-After, counted in the database (item 11).
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.service.accounts.tokens import check_scope
from crosstable.service.read_views import JsonObject, Shown
from crosstable.web import i18n
from crosstable.web.i18n import gettext as _
from crosstable.web.routes import portal_rules
from crosstable.web.routes.api import ApiCaller, Num
from crosstable.web.routes.common import CheckedForm, caller_of, integer, require_user, text
from crosstable.web.security import Caller, client_address, safe_next
from crosstable.web.site import Site

router = APIRouter(include_in_schema=False)
#: the JSON API's account routes (documented in the OpenAPI description)
api_router = APIRouter(prefix="/api/v1", tags=["api"])


def _too_many(wait: int, signups: bool = False) -> HTTPException:
    minutes = max(1, -(-wait // 60))
    detail = (
        Message("too many sign-ups from this address; try again in {minutes} min", minutes=minutes)
        if signups
        else Message("too many sign-in attempts; try again in {minutes} min", minutes=minutes)
    )
    return HTTPException(status_code=429, detail=detail, headers={"Retry-After": str(wait)})


def _require_admin(caller: Caller) -> None:
    if caller.user is None or not caller.user.is_admin:
        raise HTTPException(status_code=403, detail="only administrators may change accounts")


@router.get("/signin", response_class=HTMLResponse)
def signin_page(request: Request, next: str = "/") -> Response:
    site, caller = caller_of(request)
    return site.page(request, "signin.html", caller=caller, next=safe_next(next))


@router.post("/signin")
def signin(request: Request, form: CheckedForm) -> Response:
    site, _caller = caller_of(request)
    username = text(form, "username").lower()[:200]
    address = client_address(request)
    wait = site.sign_in_limits.refused(address, username)
    if wait is not None:
        raise _too_many(wait)
    user = site.accounts.authenticate(username, text(form, "password"))
    if user is None:
        site.sign_in_limits.failed(address, username)
        request.session["flash"] = {"kind": "error", "text": _("wrong user name or password")}
        return RedirectResponse("/signin", status_code=303)
    site.sign_in(request, user.id)  # a fresh session (and CSRF token) at every sign-in
    return RedirectResponse(safe_next(text(form, "next", "/")), status_code=303)


@router.get("/signup", response_class=HTMLResponse)
def signup_page(request: Request) -> Response:
    site, caller = caller_of(request)
    return site.page(request, "signup.html", caller=caller)


@router.post("/signup")
def signup(request: Request, form: CheckedForm) -> Response:
    site, _caller = caller_of(request)
    wait = site.sign_in_limits.signup(client_address(request))
    if wait is not None:
        raise _too_many(wait, signups=True)
    rating = integer(form, "rating")
    first = not site.accounts.users()
    user = site.accounts.create_user(
        text(form, "username"),
        text(form, "password"),
        display_name=text(form, "display_name"),
        rating=rating,
        is_admin=first,  # the first account of a new site administers it
    )
    site.sign_in(request, user.id)
    welcome = _("welcome, %(name)s", name=user.display_name)
    request.session["flash"] = {"kind": "ok", "text": welcome}
    return RedirectResponse("/", status_code=303)


@router.post("/signout")
def signout(request: Request, form: CheckedForm) -> Response:
    site, _caller = caller_of(request)
    session_id = request.session.get("sid")
    if session_id:
        site.sessions.close(str(session_id))  # the cookie is worth nothing from now on
    request.session.clear()
    return RedirectResponse("/", status_code=303)


@router.post("/account/password")
def change_password(request: Request, form: CheckedForm) -> Response:
    """A new password: every session of the account ends, this browser gets a new one."""
    site, caller = caller_of(request)
    require_user(caller)
    assert caller.user is not None
    address = client_address(request)
    wait = site.sign_in_limits.refused(address, caller.user.username)
    if wait is not None:
        raise _too_many(wait)
    new = text(form, "new_password")
    if new != text(form, "repeat_password"):
        raise RuleError("the new password and its repetition differ")
    try:
        session_id = site.sessions.change_password(
            caller.user.id, text(form, "current_password"), new
        )
    except RuleError as error:
        if str(error) == "the current password is not right":
            site.sign_in_limits.failed(address, caller.user.username)
        raise
    site.sign_in(request, caller.user.id, session_id)
    request.session["flash"] = {
        "kind": "ok",
        "text": _("password changed; every other session of this account is signed out"),
    }
    return RedirectResponse("/account", status_code=303)


@router.post("/account/signout-everywhere")
def signout_everywhere(request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_user(caller)
    assert caller.user is not None
    site.sessions.revoke_all(caller.user.id)
    request.session.clear()
    return RedirectResponse("/", status_code=303)


@router.get("/account", response_class=HTMLResponse)
def account(request: Request) -> Response:
    site, caller = caller_of(request)
    require_user(caller)
    assert caller.user is not None
    token = request.session.pop("new_token", None)
    return site.page(
        request,
        "account.html",
        caller=caller,
        tokens=site.accounts.tokens(caller.user.id),
        new_token=token,
        record=site.accounts.record(caller.user.id),
        master=site.accounts.master(caller.user.id),
    )


@router.post("/account/tokens")
def new_token(request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_user(caller)
    assert caller.user is not None
    scope = text(form, "scope", "account") or "account"  # "results": posts results only
    request.session["new_token"] = site.accounts.create_token(
        caller.user.id, text(form, "label"), scope=check_scope(scope)
    )
    return RedirectResponse("/account", status_code=303)


@router.post("/account/tokens/{token_id}/revoke")
def revoke_token(token_id: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_user(caller)
    assert caller.user is not None
    site.accounts.revoke_token(caller.user.id, token_id)
    return RedirectResponse("/account", status_code=303)


@router.get("/lang/{code}")
def language(code: str, request: Request, next: str = "/") -> Response:
    if code not in i18n.LOCALES:
        raise HTTPException(status_code=404, detail="unknown language")
    response = RedirectResponse(safe_next(next), status_code=303)
    response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="lax")
    return response


@router.get("/admin", response_class=HTMLResponse)
def admin(request: Request) -> Response:
    site, caller = caller_of(request)
    require_user(caller)
    if caller.user is None or not caller.user.is_admin:
        raise HTTPException(status_code=403, detail="only administrators may open this page")
    names = {t.id: t for t in site.service.tournaments()}
    pending = [names[tid] for tid in site.accounts.pending() if tid in names]
    users = site.accounts.users()
    return site.page(
        request,
        "admin.html",
        caller=caller,
        users=users,
        pending=pending,
        portal={u.id: portal_rules.account_view(site, u.id) for u in users},
    )


@router.post("/admin/users/{user_id}")
def admin_user(user_id: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    _require_admin(caller)
    assert caller.user is not None
    # the flag and the adjustments have forms of their own (with the reason, recorded);
    # "master" here is the status an administrator grants (recorded too)
    is_master = text(form, "is_master") == "on"
    is_admin = text(form, "is_admin") == "on"
    if user_id == caller.user.id and not is_admin:
        raise RuleError("you cannot take away your own administrator rights")
    site.accounts.set_user(user_id, actor=caller.actor, is_master=is_master, is_admin=is_admin)
    request.session["flash"] = {"kind": "ok", "text": _("account updated")}
    return RedirectResponse("/admin", status_code=303)


@router.post("/admin/users/{user_id}/signout")
def admin_signout(user_id: int, request: Request, form: CheckedForm) -> Response:
    """An administrator signs a user out everywhere (every browser session is revoked)."""
    site, caller = caller_of(request)
    _require_admin(caller)
    ended = _sign_out_everywhere(site, user_id)
    text_ = _(
        "%(name)s is signed out everywhere (%(count)s sessions ended)",
        name=ended.name,
        count=ended.count,
    )
    request.session["flash"] = {"kind": "ok", "text": text_}
    return RedirectResponse("/admin", status_code=303)


@dataclass(frozen=True, slots=True)
class SignedOut:
    """An account signed out everywhere: its name as shown (``@username``) and the
    browser sessions ended."""

    name: str
    count: int


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class SignOutShown(Shown):
    """``POST /users/{id}/signout``: the account and the browser sessions ended."""

    user: int
    sessions_ended: int


def _sign_out_everywhere(site: Site, user_id: int) -> SignedOut:
    user = site.accounts.user(user_id)  # 404 for an unknown user
    return SignedOut("@" + user.username, site.sessions.revoke_all(user_id))


@api_router.post("/users/{user_id}/signout")
def api_signout(user_id: Num, request: Request, caller: ApiCaller) -> JsonObject:
    """Administrators: sign a user out everywhere — every browser session of the account
    ends at once (its API tokens stay; revoke those on the account page)."""
    require_user(caller)
    _require_admin(caller)
    site = caller_of(request)[0]
    ended = _sign_out_everywhere(site, user_id)
    return SignOutShown(user=user_id, sessions_ended=ended.count).as_json()


# -- fair play, eligibility counts, masters ------------------------


@router.post("/admin/users/{user_id}/flag")
def admin_flag(user_id: int, request: Request, form: CheckedForm) -> Response:
    """Flag an account for computer help: the reason and, for each running tournament
    it plays in, withdraw or stay (fields ``decision_<tournament id>``)."""
    site, caller = caller_of(request)
    _require_admin(caller)
    decisions = {
        int(key.removeprefix("decision_")): text(form, key)
        for key in form
        if key.startswith("decision_") and key.removeprefix("decision_").isdigit()
    }
    portal_rules.flag(site, caller, user_id, text(form, "reason"), decisions)
    request.session["flash"] = {"kind": "ok", "text": _("account flagged")}
    return RedirectResponse("/admin", status_code=303)


@router.post("/admin/users/{user_id}/unflag")
def admin_unflag(user_id: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    _require_admin(caller)
    site.accounts.unflag(user_id, text(form, "reason"), actor=caller.actor)
    request.session["flash"] = {"kind": "ok", "text": _("flag cleared")}
    return RedirectResponse("/admin", status_code=303)


@router.post("/admin/users/{user_id}/adjust")
def admin_adjust(user_id: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    _require_admin(caller)
    site.accounts.adjust(
        user_id,
        games=portal_rules.adjustment(form, "games"),
        tournaments=portal_rules.adjustment(form, "online_tournaments"),
        reason=text(form, "reason"),
        actor=caller.actor,
    )
    request.session["flash"] = {"kind": "ok", "text": _("eligibility counts adjusted")}
    return RedirectResponse("/admin", status_code=303)


@router.post("/admin/users/{user_id}/master")
def admin_master(user_id: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    _require_admin(caller)
    grant = text(form, "decision") == "grant"
    site.accounts.set_master(user_id, grant, reason=text(form, "reason"), actor=caller.actor)
    shown = _("master status granted") if grant else _("master status revoked")
    request.session["flash"] = {"kind": "ok", "text": shown}
    return RedirectResponse("/admin", status_code=303)


api_router.include_router(portal_rules.api_router)
