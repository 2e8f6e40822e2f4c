"""Shared request helpers: the site, the caller, roles, checked forms, redirects."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request
from fastapi.responses import RedirectResponse

from crosstable.core.errors import RuleError
from crosstable.web.app import Site, site_of
from crosstable.web.security import Caller, check_csrf

#: who may do what in a tournament (R-OR-1)
MANAGERS = ("admin", "organiser")
RESULT_ENTRY = ("admin", "organiser", "helper")


def role_of(site: Site, caller: Caller, tid: int) -> str | None:
    return site.accounts.role(caller.user, tid)


def require_user(caller: Caller) -> None:
    if caller.user is None:
        raise HTTPException(status_code=401, detail="sign in first")


def require_role(site: Site, caller: Caller, tid: int, allowed: tuple[str, ...]) -> str:
    """The caller's role in the tournament, if it is one of ``allowed`` (else 401/403)."""
    site.tables.revision(tid)  # 404 for an unknown tournament, before anything else
    require_user(caller)
    role = role_of(site, caller, tid)
    if role not in allowed:
        raise HTTPException(
            status_code=403,
            detail="only the organiser of this tournament may do that"
            if allowed == MANAGERS
            else "only the organiser or a helper of this tournament may enter results",
        )
    return str(role)


def require_approved(site: Site, tid: int) -> None:
    access = site.accounts.access(tid)
    if access.approval != "approved":
        raise RuleError(
            "the regulations are waiting for an administrator's approval"
            if access.approval == "pending"
            else "the regulations were not approved by an administrator"
        )


async def checked_form(request: Request) -> dict[str, Any]:
    """The submitted form, after the CSRF check (R-OR: CSRF protection on every form)."""
    form = await request.form()
    values: dict[str, Any] = {}
    for key, raw in form.multi_items():
        value: Any = raw
        if hasattr(raw, "read"):  # an uploaded file: its bytes (handlers run in threads)
            value = await raw.read()
        if key in values:
            current = values[key]
            values[key] = (current if isinstance(current, list) else [current]) + [value]
        else:
            values[key] = value
    check_csrf(request, str(values.get("csrf_token") or "") or None)
    return values


def back(request: Request, fallback: str, flash: str | None = None) -> RedirectResponse:
    if flash:
        request.session["flash"] = {"kind": "ok", "text": flash}
    target = fallback
    return RedirectResponse(target, status_code=303)


def caller_of(request: Request) -> tuple[Site, Caller]:
    site = site_of(request)
    return site, site.caller(request)


def text(values: dict[str, Any], name: str, default: str = "") -> str:
    value = values.get(name, default)
    if isinstance(value, list):
        value = value[-1]
    return str(value if value is not None else default).strip()


def integer(values: dict[str, Any], name: str) -> int | None:
    raw = text(values, name)
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise RuleError(f"{name.replace('_', ' ')}: {raw!r} is not a whole number") from None


#: a form parameter that has passed the CSRF check
CheckedForm = Annotated[dict[str, Any], Depends(checked_form)]
