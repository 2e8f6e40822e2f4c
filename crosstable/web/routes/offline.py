"""``/offline/``: the tournament app that runs in the browser alone (docs/offline.md).

The directory is built by ``crosstable offline build`` (Pyodide from the npm registry,
the core as a zip, the page's shell); these routes serve its files, and
``POST /api/v1/offline/import`` stores what the app exports (a round robin, a Swiss or a
knockout with its bracket) as ``crosstable import`` does. Pyodide
compiles WebAssembly, so these responses carry a policy of their own that allows it
(``'wasm-unsafe-eval'``); everything else of the policy is the site's.
"""

from __future__ import annotations

import os
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from markupsafe import escape

from crosstable.core.errors import InputError
from crosstable.formats.json_io import FORMAT
from crosstable.offline.build import DEFAULT_OUT
from crosstable.service.offline_import import import_tournament_document
from crosstable.service.read_views import JsonObject
from crosstable.web import i18n
from crosstable.web.contexts import ClientJson
from crosstable.web.i18n import gettext
from crosstable.web.messages import translate
from crosstable.web.routes.api import ApiCaller
from crosstable.web.routes.api_views import Imported
from crosstable.web.routes.wizard import require_organiser
from crosstable.web.site import site_of

router = APIRouter()
POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
    "img-src 'self' data: blob:; connect-src 'self'; worker-src 'self'; object-src 'none'; "
    "frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)
TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".zip": "application/zip"}


def built_directory() -> Path:
    """Where the built app is (``CROSSTABLE_OFFLINE_DIR`` or the package's ``offline/dist``)."""
    return Path(os.environ.get("CROSSTABLE_OFFLINE_DIR") or DEFAULT_OUT)


@router.post("/api/v1/offline/import", status_code=201, tags=["api"])
def api_import(document: ClientJson, request: Request, caller: ApiCaller) -> JsonObject:
    """Store the offline app's export (``"format": "crosstable-tournament"``; a knockout
    with its ``"knockout"`` bracket) as a new tournament (administrators and masters);
    a file the core does not play through the same is refused (422) and nothing stored."""
    require_organiser(caller)
    user = caller.user
    assert user is not None
    if document.get("format") != FORMAT:
        raise InputError('"format" must be "{format}"', format=FORMAT, source="upload")
    site = site_of(request)
    change = import_tournament_document(site.service, document, "upload", caller.actor)
    site.accounts.claim(change.tournament_id, user, actor=caller.actor)
    return Imported(change.tournament_id, translate(change.summary)).as_json()


@router.get("/offline", include_in_schema=False)
def offline_root() -> Response:
    return RedirectResponse("/offline/", status_code=308)


@router.get("/offline/{name:path}", include_in_schema=False)
def offline_file(name: str) -> Response:
    """A file of the built app (``index.html`` for the directory itself)."""
    base = built_directory().resolve()
    path = (base / (name or "index.html")).resolve()
    if not base.is_dir():
        return PlainTextResponse(
            "the offline app is not built: run crosstable offline build", status_code=404
        )
    if base not in path.parents or not path.is_file():
        return PlainTextResponse("not found", status_code=404)
    headers = {"content-security-policy": POLICY, "cache-control": "no-cache"}
    if path.name == "sw.js":
        headers["service-worker-allowed"] = "/offline/"
    if path.name == "index.html" and path.parent == base:  # the first words, in the reader's
        return HTMLResponse(first_page(path.read_text(encoding="utf-8")), headers=headers)
    return FileResponse(path, media_type=TYPES.get(path.suffix), headers=headers)


def first_page(html: str) -> str:
    """The app's page with the words it shows before its script runs in the reader's
    language (the script then speaks the language chosen in the app)."""
    locale = i18n.current.get()
    return (
        html.replace('<html lang="en">', f'<html lang="{locale}">', 1)
        .replace(">Loading…<", f">{escape(gettext('Loading…'))}<", 1)
        .replace(
            "<title>crosstable offline</title>",
            f"<title>{escape(gettext('crosstable: the app without a server'))}</title>",
            1,
        )
    )
