"""The administrators' page of the rating lists (docs/rating-lists.md):
``GET /admin/rating-lists`` shows the lists imported so far (file, date, players) and
an upload form; ``POST /admin/rating-lists`` imports the uploaded file (FIDE's TXT or
XML list, plain or zipped, or a national CSV) exactly as ``crosstable ratinglist
import`` does: all of it, or — when the file is refused — nothing, with the reason.
With a custom list's name (and, optionally, its columns: ``id=NatID,name=FIO``) the CSV
is imported as that custom list, replacing the list of that name, as ``ratinglist
import --custom NAME --columns …`` does; ``POST /admin/rating-lists/custom`` deletes a
custom list.

Who asks is checked before a byte of the body is read: an
anonymous caller gets 401, anyone but an administrator 403, a declared
``Content-Length`` over :data:`MAX_UPLOAD` 413 — and none of them has any of the body
taken from the server. Then the body is parsed as it arrives (python-multipart's
streaming parser, not Starlette's form parsing, which spools the whole body first):
the form's CSRF token (the hidden field before the file; or the ``X-CSRF-Token``
header) is checked before any of the file is written, and the file goes to a temporary
file with a hard limit counted as the bytes come (413 at the first chunk past it; the
partial copy is removed). At most :data:`MAX_PARTS` parts, one file, small fields.

The temporary copy keeps the upload's own file name (cleaned to letters, digits, dot,
dash and underscore), because the list type of a single-type FIDE list comes from its
name (``rapid_rating_list.zip``).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.concurrency import run_in_threadpool

from crosstable.core.errors import InputError, RuleError
from crosstable.core.text import Message
from crosstable.formats.custom_list import parse_columns
from crosstable.service.custom_lists import CustomLists
from crosstable.service.list_month import parse_month
from crosstable.service.rating_lists import RatingLists
from crosstable.web.limits import RATING_LIST, BodyTooLarge
from crosstable.web.messages import error_text, translate
from crosstable.web.routes.common import (
    CheckedForm,
    caller_of,
    check_heavy_upload,
    csrf,
    require_user,
    text,
)
from crosstable.web.security import Caller

router = APIRouter()

#: the list types the form offers ("" = from the file's name)
KINDS = ("", "standard", "rapid", "blitz")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
#: the largest body this route takes (the file and the form's few fields)
MAX_UPLOAD = RATING_LIST
#: parts of the form: the token, the list type, the month, a custom list's name and
#: columns, the file (and a browser's extras)
MAX_PARTS = 10
#: bytes of a field that is not the file (the token, the list type)
MAX_FIELD = 1024
#: bytes of an upload's file name
MAX_NAME = 1024


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
    custom = CustomLists(site.service).lists()
    return site.page(
        request,
        "admin_rating_lists.html",
        caller=caller,
        lists=lists,
        custom=custom,
        kinds=KINDS,
    )


@router.post("/admin/rating-lists/custom")
def delete_custom_list(request: Request, form: CheckedForm) -> Response:
    """Delete a custom list (the tournaments' players keep their details)."""
    site, caller = caller_of(request)
    _require_admin(caller)
    gone = CustomLists(site.service).delete(text(form, "name"))
    said = Message(
        "custom list {name} deleted ({players} players)", name=gone.name, players=gone.players
    )
    request.session["flash"] = {"kind": "ok", "text": translate(said)}
    return RedirectResponse("/admin/rating-lists", status_code=303)


class ListUpload:
    """A rating-list form read as it streams: :meth:`feed` each chunk of the body, then
    :meth:`finish`. The fields before the file are kept (bounded); ``check_token`` is
    called with the form's ``csrf_token`` before a byte of the file is written (it
    raises to refuse); the file goes to ``folder`` under :func:`upload_name`. More than
    ``limit`` bytes in all is a 413 (:class:`~crosstable.web.limits.BodyTooLarge`),
    a malformed form a :class:`RuleError`."""

    def __init__(
        self, folder: Path, boundary: bytes, limit: int, check_token: Callable[[str | None], None]
    ) -> None:
        self.folder = folder
        self.limit = limit
        self.check_token = check_token
        self.received = 0
        self.parts = 0
        self.fields: dict[str, bytearray] = {}
        #: the uploaded file's name as sent, and where it was written
        self.filename = ""
        self.path: Path | None = None
        self.token_checked = False
        self.ended = False
        self._header = (bytearray(), bytearray())
        self._disposition: tuple[str, str | None] | None = None
        self._field: bytearray | None = None
        self._file: IO[bytes] | None = None
        self._parser = MultipartParser(
            boundary,
            {
                "on_part_begin": self._part_begin,
                "on_header_field": self._header_field,
                "on_header_value": self._header_value,
                "on_header_end": self._header_end,
                "on_headers_finished": self._headers_finished,
                "on_part_data": self._part_data,
                "on_part_end": self._part_end,
                "on_end": self._end,
            },
            max_header_count=8,
            max_header_size=MAX_NAME + 256,
        )

    def feed(self, chunk: bytes) -> None:
        self.received += len(chunk)
        if self.received > self.limit:
            raise BodyTooLarge(self.limit)
        try:
            self._parser.write(chunk)
        except MultipartParseError:
            raise RuleError("the upload is not a well-formed form (multipart/form-data)") from None

    def finish(self) -> None:
        try:
            self._parser.finalize()
        except MultipartParseError:
            raise RuleError("the upload is not a well-formed form (multipart/form-data)") from None
        self.close()
        if not self.ended:
            raise RuleError("the upload ended before the form was complete")
        if not self.token_checked:
            self._check_token()

    def field(self, name: str) -> str | None:
        value = self.fields.get(name)
        return None if value is None else value.decode("utf-8", "replace")

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    # -- the parser's callbacks ---------------------------------------------------------

    def _check_token(self) -> None:
        self.token_checked = True
        self.check_token(self.field("csrf_token") or None)

    def _part_begin(self) -> None:
        self.parts += 1
        if self.parts > MAX_PARTS:
            raise RuleError("the form has more than {count} parts", count=MAX_PARTS)
        self._header = (bytearray(), bytearray())
        self._disposition = None

    def _header_field(self, data: bytes, start: int, end: int) -> None:
        self._header[0].extend(data[start:end])

    def _header_value(self, data: bytes, start: int, end: int) -> None:
        self._header[1].extend(data[start:end])

    def _header_end(self) -> None:
        name, value = self._header
        if bytes(name).strip().lower() == b"content-disposition":
            _kind, options = parse_options_header(bytes(value))
            part = options.get(b"name")
            filename = options.get(b"filename")
            self._disposition = (
                (part or b"").decode("utf-8", "replace"),
                None if filename is None else filename.decode("utf-8", "replace"),
            )
        self._header = (bytearray(), bytearray())

    def _headers_finished(self) -> None:
        if self._disposition is None or not self._disposition[0]:
            raise RuleError("a part of the form has no name (Content-Disposition)")
        name, filename = self._disposition
        self._field = None
        if filename is None:
            if name in self.fields:
                raise RuleError("the form sends {field} twice", field=name[:40])
            self._field = self.fields[name] = bytearray()
            return
        if name != "list" or not filename:
            return  # another file, or no file chosen: its bytes are not kept
        if self.path is not None:
            raise RuleError("send one rating list file at a time")
        if not self.token_checked:
            self._check_token()  # before a byte of the file is written
        self.filename = filename[:MAX_NAME]
        self.path = self.folder / upload_name(filename)
        self._file = self.path.open("wb")

    def _part_data(self, data: bytes, start: int, end: int) -> None:
        if self._file is not None:
            self._file.write(data[start:end])
        elif self._field is not None:
            self._field.extend(data[start:end])
            if len(self._field) > MAX_FIELD:
                raise RuleError(
                    "{field}: at most {limit} characters",
                    field=(self._disposition or ("", None))[0][:40],
                    limit=MAX_FIELD,
                )

    def _part_end(self) -> None:
        self.close()
        self._field = None

    def _end(self) -> None:
        self.ended = True


def _boundary(request: Request) -> bytes:
    kind, options = parse_options_header(request.headers.get("content-type", ""))
    boundary = options.get(b"boundary", b"")
    if kind != b"multipart/form-data" or not 1 <= len(boundary) <= 200:
        raise RuleError("send the rating list as a form upload (multipart/form-data)")
    return boundary


def _declared_length(request: Request, limit: int) -> None:
    """413 for a ``Content-Length`` over ``limit``, before any of the body is read."""
    declared = request.headers.get("content-length", "").strip()
    if declared.isascii() and declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge(limit)


@router.post("/admin/rating-lists")
async def import_rating_list(request: Request) -> Response:
    site, caller = caller_of(request)
    _require_admin(caller)  # 401 / 403 before a byte of the body is taken
    # 429 past the heavy uploads' limit, per account and per client, before the body too
    await run_in_threadpool(check_heavy_upload, site, request, caller, "rating list")
    limit = MAX_UPLOAD
    _declared_length(request, limit)
    boundary = _boundary(request)
    if request.headers.get("x-csrf-token"):
        csrf(request)  # a token in the header is checked before the body too
    with tempfile.TemporaryDirectory(prefix="crosstable-list-") as folder:
        upload = ListUpload(Path(folder), boundary, limit, lambda token: csrf(request, token))
        try:
            async for chunk in request.stream():
                if chunk:
                    upload.feed(chunk)
            upload.finish()
        finally:
            upload.close()
        kind = upload.field("kind") or ""
        if kind not in KINDS:
            raise RuleError("list type: standard, rapid or blitz (or empty: from the file's name)")
        if upload.path is None:
            raise RuleError("choose the rating list's file to import")
        month = parse_month(upload.field("month") or "") if upload.field("month") else None
        custom = (upload.field("custom") or "").strip()
        columns = parse_columns(upload.field("columns") or "")
        if columns and not custom:
            raise RuleError("columns are for a custom list: give the custom list's name")
        try:
            if custom:
                report = await run_in_threadpool(
                    CustomLists(site.service).import_file,
                    upload.path,
                    custom,
                    columns=columns,
                    month=month,
                )
            else:
                report = await run_in_threadpool(
                    RatingLists(site.service).import_file,
                    upload.path,
                    kind=kind or None,
                    month=month,
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
    if custom:
        said = Message(
            "{file}: {players} players imported, {skipped} lines skipped; "
            "{total} players in the custom list {name}",
            file=upload.filename[:120],
            players=report.players,
            skipped=report.skipped,
            total=report.total,
            name=custom,
        )
    valid = Message("the list of {month}", month=report.month)
    request.session["flash"] = {
        "kind": "ok",
        "text": " · ".join(
            [translate(said), translate(valid), *(error_text(p) for p in report.errors[:5])]
        ),
    }
    return RedirectResponse("/admin/rating-lists", status_code=303)
