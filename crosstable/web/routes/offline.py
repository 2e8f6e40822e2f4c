"""``/offline/``: the tournament app that runs in the browser alone (docs/offline.md).

The directory is built by ``crosstable offline build`` (Pyodide from the npm registry,
the core as a zip, the page's shell); these routes only serve its files. Pyodide
compiles WebAssembly, so these responses carry a policy of their own that allows it
(``'wasm-unsafe-eval'``); everything else of the policy is the site's.
"""

from __future__ import annotations

import os
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from markupsafe import escape

from crosstable.offline.build import DEFAULT_OUT
from crosstable.web import i18n
from crosstable.web.i18n import gettext

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
