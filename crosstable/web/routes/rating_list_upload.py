"""The administrators' page of the rating lists (issue 16 item 1; docs/rating-lists.md):
``GET /admin/rating-lists`` shows the lists imported so far (file, date, players) and
an upload form; ``POST /admin/rating-lists`` imports the uploaded file (FIDE's TXT or
XML list, plain or zipped, or a national CSV) exactly as ``crosstable ratinglist
import`` does: all of it, or — when the file is refused — nothing, with the reason.

The file is streamed to a temporary file (Starlette spools an upload to disk), never
held whole in memory; the body limit of the route (:mod:`crosstable.web.limits`) bounds
it before a byte is read. The temporary copy keeps the upload's own file name (cleaned
to letters, digits, dot, dash and underscore), because the list type of a single-type
FIDE list comes from its name (``rapid_rating_list.zip``).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from crosstable.core.errors import InputError, RuleError
from crosstable.core.text import Message
from crosstable.service.rating_lists import RatingLists
from crosstable.web.messages import error_text, translate
from crosstable.web.routes.common import caller_of, csrf, require_user
from crosstable.web.security import Caller

router = APIRouter()

#: the list types the form offers ("" = from the file's name)
KINDS = ("", "standard", "rapid", "blitz")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _require_admin(caller: Caller) -> None:
    require_user(caller)
    if caller.user is None or not caller.user.is_admin:
        raise HTTPException(status_code=403, detail="only administrators may import rating lists")


def upload_name(filename: str | None) -> str:
    """The upload's name made safe for a temporary file, its suffix kept.

    >>> upload_name("../../etc/rapid rating list.ZIP")
    'rapid_rating_list.ZIP'
    >>> upload_name(None)
    'list'
    """
    base = Path((filename or "").replace("\\", "/")).name
    cleaned = _UNSAFE.sub("_", base).strip("._")[-120:]
    return cleaned or "list"


@router.get("/admin/rating-lists", response_class=HTMLResponse)
def rating_lists_page(request: Request) -> Response:
    site, caller = caller_of(request)
    _require_admin(caller)
    lists = RatingLists(site.service).imported()
    return site.page(request, "admin_rating_lists.html", caller=caller, lists=lists, kinds=KINDS)


@router.post("/admin/rating-lists")
async def import_rating_list(request: Request) -> Response:
    site, caller = caller_of(request)
    form = await request.form()
    token = form.get("csrf_token")
    csrf(request, token if isinstance(token, str) and token else None)
    _require_admin(caller)
    upload = form.get("list")
    kind = form.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise RuleError("list type: standard, rapid or blitz (or empty: from the file's name)")
    if not isinstance(upload, UploadFile) or not upload.filename:
        raise RuleError("choose the rating list's file to import")
    with tempfile.TemporaryDirectory(prefix="crosstable-list-") as folder:
        path = Path(folder) / upload_name(upload.filename)
        with path.open("wb") as copy:
            shutil.copyfileobj(upload.file, copy, 1024 * 1024)
        await upload.close()
        try:
            report = await run_in_threadpool(
                RatingLists(site.service).import_file, path, kind=kind or None
            )
        except InputError as error:
            raise RuleError(
                "the rating list {file} was not imported: {reason}",
                file=upload.filename[:120],
                reason=error,
            ) from None
    said = Message(
        "{file}: {players} players imported, {skipped} lines skipped; {total} players in the lists",
        file=upload.filename[:120],
        players=report.players,
        skipped=report.skipped,
        total=report.total,
    )
    request.session["flash"] = {
        "kind": "ok",
        "text": " · ".join([translate(said), *(error_text(p) for p in report.errors[:5])]),
    }
    return RedirectResponse("/admin/rating-lists", status_code=303)
