"""Sign-up, sign-in (rate-limited), sign-out, the account page (API tokens), the language
switch, and the administrator's page (approvals, masters, flags)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from crosstable.core.errors import RuleError
from crosstable.web import i18n
from crosstable.web.i18n import gettext as _
from crosstable.web.routes.common import CheckedForm, caller_of, integer, require_user, text

router = APIRouter(include_in_schema=False)


def _safe_next(target: str) -> str:
    """Only local paths (no open redirects)."""
    parsed = urlparse(target or "/")
    if parsed.scheme or parsed.netloc or not (parsed.path or "/").startswith("/"):
        return "/"
    return target or "/"


@router.get("/signin", response_class=HTMLResponse)
def signin_page(request: Request, next: str = "/") -> Response:
    site, caller = caller_of(request)
    return site.page(request, "signin.html", caller=caller, next=_safe_next(next))


@router.post("/signin")
def signin(request: Request, form: CheckedForm) -> Response:
    site, _caller = caller_of(request)
    username = text(form, "username").lower()
    address = request.client.host if request.client else "?"
    site.sign_in_limit.check(f"signin:{address}:{username}", "sign-in attempts")
    user = site.accounts.authenticate(username, text(form, "password"))
    if user is None:
        request.session["flash"] = {"kind": "error", "text": _("wrong user name or password")}
        return RedirectResponse("/signin", status_code=303)
    request.session.clear()  # a fresh session (and CSRF token) at every sign-in
    request.session["user"] = user.id
    return RedirectResponse(_safe_next(text(form, "next", "/")), status_code=303)


@router.get("/signup", response_class=HTMLResponse)
def signup_page(request: Request) -> Response:
    site, caller = caller_of(request)
    return site.page(request, "signup.html", caller=caller)


@router.post("/signup")
def signup(request: Request, form: CheckedForm) -> Response:
    site, _caller = caller_of(request)
    address = request.client.host if request.client else "?"
    site.sign_in_limit.check(f"signup:{address}", "sign-ups")
    rating = integer(form, "rating")
    first = not site.accounts.users()
    user = site.accounts.create_user(
        text(form, "username"),
        text(form, "password"),
        display_name=text(form, "display_name"),
        rating=rating,
        is_admin=first,  # the first account of a new site administers it
    )
    request.session.clear()
    request.session["user"] = user.id
    welcome = _("welcome, %(name)s", name=user.display_name)
    request.session["flash"] = {"kind": "ok", "text": welcome}
    return RedirectResponse("/", status_code=303)


@router.post("/signout")
def signout(request: Request, form: CheckedForm) -> Response:
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
    )


@router.post("/account/tokens")
def new_token(request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_user(caller)
    assert caller.user is not None
    request.session["new_token"] = site.accounts.create_token(caller.user.id, text(form, "label"))
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
    response = RedirectResponse(_safe_next(next), status_code=303)
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
    return site.page(
        request, "admin.html", caller=caller, users=site.accounts.users(), pending=pending
    )


@router.post("/admin/users/{user_id}")
def admin_user(user_id: int, request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    if caller.user is None or not caller.user.is_admin:
        raise HTTPException(status_code=403, detail="only administrators may change accounts")
    values: dict[str, Any] = {
        "is_master": text(form, "is_master") == "on",
        "is_admin": text(form, "is_admin") == "on",
        "flagged": text(form, "flagged") == "on",
        "rated_games": integer(form, "rated_games") or 0,
        "online_tournaments": integer(form, "online_tournaments") or 0,
    }
    if user_id == caller.user.id and not values["is_admin"]:
        raise RuleError("you cannot take away your own administrator rights")
    site.accounts.set_user(user_id, **values)
    request.session["flash"] = {"kind": "ok", "text": _("account updated")}
    return RedirectResponse("/admin", status_code=303)
