"""Importing a TRF file on the web: the page ``/import`` and ``POST /api/v1/tournaments/import``.

Both read the file as ``crosstable import`` does (TRF-16, TRF-2026, TRF-06; a file from
a sloppy program with ``lenient``), re-check every round against its system's rules
and the places against its tie-breaks (service/trf_import.py), and show what the
reader had to assume. A round that fails is a level-3 warning: the page asks to confirm
or cancel (the file travels with the confirmation form), the API answers 409 with
``{"warning": …}`` and takes the token back as ``confirm``. Only administrators and
masters (who may organise tournaments) import; the importer organises the tournament.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import Field

from crosstable.core.errors import CrosstableError, RuleError
from crosstable.formats.limits import MAX_FILE_BYTES
from crosstable.formats.trf_encoding import decode_with_note
from crosstable.formats.trf_model import TrfDocument
from crosstable.formats.trf_read import parse_trf
from crosstable.formats.trf_text import RecoverableError
from crosstable.service.read_views import JsonObject, Shown
from crosstable.service.trf_import import import_notes, import_trf
from crosstable.web.confirmations import CONFIRM, confirming
from crosstable.web.contexts import FormValues
from crosstable.web.messages import error_text, translate
from crosstable.web.routes.api import ApiCaller
from crosstable.web.routes.common import (
    Body,
    CheckedForm,
    caller_of,
    heavy_upload,
    text,
)
from crosstable.web.routes.wizard import require_organiser
from crosstable.web.security import Caller
from crosstable.web.site import Site, site_of

router = APIRouter(include_in_schema=False, route_class=heavy_upload("import"))
api_router = APIRouter(prefix="/api/v1", tags=["api"], route_class=heavy_upload("import"))

#: the form field (and JSON member) that carries the file's text
TRF_FIELD = "trf"


class TrfImportIn(Body):
    """A TRF file's text to import as a new tournament."""

    trf: str = Field(max_length=MAX_FILE_BYTES, description="the TRF file's text")
    lenient: bool = Field(False, description="read a file from a sloppy program, with warnings")
    confirm: str | None = Field(None, max_length=64, description="the token of a warning")


def read_trf_text(trf: str, *, lenient: bool, source: str) -> TrfDocument:
    """The document of ``trf``; a recoverable inconsistency says that lenient reads it."""
    try:
        return parse_trf(trf, source=source, lenient=lenient)
    except RecoverableError as error:
        raise RuleError(
            "{problem} (the lenient reading takes it with a warning)", problem=error
        ) from None


def imported(
    site: Site, caller: Caller, trf: str, *, lenient: bool, confirm: str | None, source: str
) -> tuple[int, Any, list[str]]:
    """The new tournament's id, its history line and what the reader assumed."""
    require_organiser(caller)
    user = caller.user
    assert user is not None
    doc = read_trf_text(trf, lenient=lenient, source=source)
    change = import_trf(site.service, doc, actor=caller.actor, source=source, confirm=confirm)
    site.accounts.claim(change.tournament_id, user, actor=caller.actor)
    return change.tournament_id, change.summary, [*doc.warnings, *import_notes(doc)]


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class TrfImported(Shown):
    """``POST /tournaments/import``: the tournament made, the change's summary in the
    reader's language, and what the import noted (warnings, the tie-breaks read)."""

    id: int
    summary: str
    notes: tuple[str, ...]


@api_router.post("/tournaments/import", status_code=201)
def api_import(body: TrfImportIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Import a TRF file as a new tournament (administrators and masters); 409 with
    ``{"warning": …}`` when a round breaks its system's rules, sent again with
    ``confirm``."""
    site = site_of(request)
    tid, summary, notes = imported(
        site, caller, body.trf, lenient=body.lenient, confirm=body.confirm, source="upload"
    )
    return TrfImported(tid, translate(summary), tuple(notes)).as_json()


@router.get("/import", response_class=HTMLResponse)
def import_page(request: Request) -> Response:
    site, caller = caller_of(request)
    require_organiser(caller)
    return site.page(request, "import.html", caller=caller, most=MAX_FILE_BYTES // 1024)


def _uploaded(form: FormValues) -> tuple[str, str | None]:
    """The form's TRF: the chosen file (its encoding guessed as the command line does),
    else the text (pasted, or carried by a confirmation)."""
    upload = form.get("file")
    if isinstance(upload, list):
        upload = upload[-1]
    if isinstance(upload, bytes) and upload.strip():
        if len(upload) > MAX_FILE_BYTES:
            raise RuleError("the file is larger than {most} bytes", most=MAX_FILE_BYTES)
        return decode_with_note(upload)
    pasted = text(form, TRF_FIELD)
    if not pasted.strip():
        raise RuleError("choose a TRF file or paste its text")
    return pasted, None


@router.post("/import")
def import_form(request: Request, form: CheckedForm) -> Response:
    """The page's form: a new tournament from the file, or the page again with the
    refusal, or the confirmation page of a round that breaks its system's rules."""
    site, caller = caller_of(request)
    require_organiser(caller)
    lenient = text(form, "lenient") == "yes"
    try:
        trf, note = _uploaded(form)
    except CrosstableError as error:
        return _again(site, request, caller, error)
    carried = {TRF_FIELD: trf, "lenient": "yes" if lenient else "", CONFIRM: form.get(CONFIRM)}

    def go(token: str | None) -> Response:
        tid, summary, notes = imported(
            site, caller, trf, lenient=lenient, confirm=token, source="upload"
        )
        said = [translate(summary), *([note] if note else []), *notes]
        request.session["flash"] = {"kind": "ok", "text": " · ".join(said)}
        return RedirectResponse(f"/t/{tid}/manage", status_code=303)

    try:
        return confirming(site, request, carried, go, cancel="/import")
    except CrosstableError as error:
        return _again(site, request, caller, error)


def _again(site: Site, request: Request, caller: Caller, error: CrosstableError) -> Response:
    return site.page(
        request,
        "import.html",
        status_code=422,
        caller=caller,
        most=MAX_FILE_BYTES // 1024,
        error=error_text(error),
    )


__all__ = ["TrfImportIn", "api_router", "read_trf_text", "router"]
