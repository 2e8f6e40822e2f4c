"""FIDE's warning levels on the web: a warning to confirm, as a page or as JSON.

A use case that needs the arbiter's word raises
:class:`~crosstable.service.warning_levels.ConfirmationNeeded` (nothing is stored). A
form's handler runs its action through :func:`confirming`: the first answer is a page
that shows the level, the warning and, for level 4, what changes for whom, with a form
that sends the same fields again with the ``confirm`` token (level 4: twice, the second
page saying it is the last step). The JSON API answers HTTP 409 with
:func:`warning_body` under ``"warning"``; the client sends the token back as
``confirm``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fastapi import Request
from fastapi.responses import Response

from crosstable.service.read_views import JsonObject
from crosstable.service.warning_levels import ConfirmationNeeded
from crosstable.web.contexts import FormValue
from crosstable.web.messages import error_text, translate
from crosstable.web.site import Site

#: the form field that carries the confirmation token
CONFIRM = "confirm"


def warning_body(asked: ConfirmationNeeded) -> JsonObject:
    """The API's ``warning`` object, in the reader's language."""
    body = asked.as_json()
    body["message"] = error_text(asked)
    body["warnings"] = [translate(w.message) for w in asked.warnings]
    body["consequences"] = [translate(c) for w in asked.warnings for c in w.consequences]
    return body


def confirming(
    site: Site,
    request: Request,
    form: Mapping[str, FormValue | None],
    action: Callable[[str | None], Response],
    *,
    cancel: str,
    **context: Any,
) -> Response:
    """``action(token)`` with the form's confirmation token; a confirmation page (HTTP
    409) when it asks for one."""
    given = form.get(CONFIRM)
    token = str(given[-1] if isinstance(given, list) else given or "") or None
    try:
        return action(token)
    except ConfirmationNeeded as asked:
        return confirmation_page(site, request, form, asked, cancel=cancel, **context)


def confirmation_page(
    site: Site,
    request: Request,
    form: Mapping[str, FormValue | None],
    asked: ConfirmationNeeded,
    *,
    cancel: str,
    **context: Any,
) -> Response:
    """The page that asks for the confirmation and sends the same form again."""
    fields: list[tuple[str, str]] = []
    for key, value in form.items():
        if key in ("csrf_token", CONFIRM):
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                fields.append((key, item))
    return site.page(
        request,
        "confirm.html",
        status_code=409,
        asked=asked,
        warning=warning_body(asked),
        action=request.url.path,
        fields=fields,
        cancel=cancel,
        **context,
    )
