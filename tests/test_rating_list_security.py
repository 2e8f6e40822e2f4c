"""The rating-list upload and import under attack (issue 25 items 5 and 6).

Item 5: ``POST /admin/rating-lists`` knows who asks before it reads the body. An
anonymous caller (401), a user who is not an administrator (403), a bad CSRF token
(403) and a declared length over the limit (413) have none of the body taken, or only
the form's first fields; a body over the limit is cut off at the limit (413) and its
partial copy removed. Checked on the ASGI app, counting the chunks the app pulls.

Item 6: an import does not hold the database's write lock while it parses: results
posted while a list is imported are all accepted, and a list becomes visible only when
complete (a failed import leaves nothing of itself).
"""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import asyncio
import itertools
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi import HTTPException
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import db_url, make_service, store  # noqa: F401

import crosstable.web.routes.rating_list_upload as upload_route
from crosstable.core.errors import RuleError
from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.service.rating_lists import RatingLists
from crosstable.store import Store
from crosstable.web.app import create_app
from crosstable.web.limits import BodyTooLarge
from crosstable.web.routes.rating_list_upload import ListUpload
from tests.rating_list_files import PLAYERS, national_csv
from tests.web_support import signed_in

CHUNK = 64 * 1024
BOUNDARY = b"----crosstable-test"
PATH = "/admin/rating-lists"


@pytest.fixture
def site(store: Store) -> Iterator[tuple[TestClient, Service, Any]]:
    service = make_service(store)
    accounts = Accounts(service.store)
    accounts.create_user("admin", "password-admin", is_admin=True)
    accounts.create_user("guest", "password-guest")
    app = create_app(service=service)
    with TestClient(app) as client:
        yield client, service, app


def form_head(token: str, filename: str = "national.csv") -> bytes:
    """The form as the page sends it, up to the file's first byte."""
    return (
        b"--" + BOUNDARY + b"\r\n"
        b'Content-Disposition: form-data; name="csrf_token"\r\n\r\n'
        + token.encode()
        + b"\r\n--"
        + BOUNDARY
        + b"\r\n"
        + b'Content-Disposition: form-data; name="list"; filename="'
        + filename.encode()
        + b'"\r\nContent-Type: application/octet-stream\r\n\r\n'
    )


def form_tail(kind: str = "") -> bytes:
    return (
        b"\r\n--" + BOUNDARY + b"\r\n"
        b'Content-Disposition: form-data; name="kind"\r\n\r\n'
        + kind.encode()
        + b"\r\n--"
        + BOUNDARY
        + b"--\r\n"
    )


class Body:
    """An ASGI ``receive``: ``head``, then ``chunks`` chunks of file, then ``tail``;
    counts the messages the app takes (a client that would send ``chunks`` × 64 KiB)."""

    def __init__(self, head: bytes, chunks: int, tail: bytes = b"") -> None:
        self.parts = [head, *(b"x" * CHUNK for _ in range(chunks)), tail]
        self.taken = 0

    async def __call__(self) -> dict[str, Any]:
        if self.taken >= len(self.parts):
            await asyncio.sleep(3600)  # a client that never sends more
        body = self.parts[self.taken]
        self.taken += 1
        return {"type": "http.request", "body": body, "more_body": self.taken < len(self.parts)}

    @property
    def file_chunks_taken(self) -> int:
        return max(0, self.taken - 1)


def post(
    app: Any, receive: Body, *, cookie: str = "", length: int | None = None, json: bool = True
) -> tuple[int, bytes]:
    headers = [
        (b"host", b"testserver"),
        (b"content-type", b"multipart/form-data; boundary=" + BOUNDARY),
    ]
    if json:
        headers.append((b"accept", b"application/json"))
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": PATH,
        "raw_path": PATH.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
        "state": {},
    }
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def run() -> None:
        await asyncio.wait_for(app(scope, receive, send), 120)

    asyncio.run(run())
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], body


def cookie_of(client: TestClient) -> str:
    return "; ".join(f"{name}={value}" for name, value in client.cookies.items())


@pytest.fixture
def spool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every temporary file of the app (Starlette's spooling, the upload's copy) here."""
    folder = tmp_path / "spool"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def spooled(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


# -- item 5: who asks, before the body -------------------------------------------------


def test_an_anonymous_upload_is_refused_before_a_byte_is_read(site: Any, spool: Path) -> None:
    _client, service, app = site
    for length in (None, 200 * 1024 * 1024):  # chunked, and a declared 200 MB
        body = Body(form_head("anything"), chunks=512)  # 32 MB if anyone read it
        status, answer = post(app, body, length=length)
        assert status == 401 and b"sign in first" in answer
        assert body.taken == 0
        page = Body(form_head("anything"), chunks=512)
        status, _answer = post(app, page, json=False)
        assert status == 303 and page.taken == 0  # the page sends the visitor to sign in
    assert spooled(spool) == 0 and RatingLists(service).imported() == []


def test_a_user_who_is_not_an_administrator_is_refused_before_a_byte(
    site: Any, spool: Path
) -> None:
    client, service, app = site
    token = signed_in(client, "guest")
    body = Body(form_head(token), chunks=512)
    status, answer = post(app, body, cookie=cookie_of(client))
    assert status == 403 and b"only administrators may import rating lists" in answer
    assert body.taken == 0
    assert spooled(spool) == 0 and RatingLists(service).imported() == []


def test_a_bad_csrf_token_is_refused_before_a_byte_of_the_file(site: Any, spool: Path) -> None:
    client, service, app = site
    signed_in(client, "admin")
    body = Body(form_head("forged-token"), chunks=512)
    status, answer = post(app, body, cookie=cookie_of(client))
    assert status == 403 and b"the form expired" in answer
    assert body.file_chunks_taken == 0  # only the form's token, not the file
    assert spooled(spool) == 0 and RatingLists(service).imported() == []


def test_an_administrators_upload_over_the_limit_is_cut_off_at_the_limit(
    site: Any, spool: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, service, app = site
    token = signed_in(client, "admin")
    monkeypatch.setattr(upload_route, "MAX_UPLOAD", 1024 * 1024, raising=False)
    # a declared length over the limit: refused before the body
    declared = Body(form_head(token), chunks=512, tail=form_tail())
    status, answer = post(app, declared, cookie=cookie_of(client), length=33 * 1024 * 1024)
    assert status == 413 and b"at most 1 MiB" in answer
    assert declared.taken == 0
    # chunked: read up to the limit, then refused; the partial copy is removed
    chunked = Body(form_head(token), chunks=512, tail=form_tail())
    seen: list[int] = []
    feed = ListUpload.feed

    def watched(self: ListUpload, chunk: bytes) -> None:
        feed(self, chunk)
        seen.append(spooled(spool))

    monkeypatch.setattr(ListUpload, "feed", watched)
    status, answer = post(app, chunked, cookie=cookie_of(client))
    assert status == 413 and b"at most 1 MiB" in answer
    assert chunked.file_chunks_taken <= 1024 * 1024 // CHUNK + 1  # not 32 MB
    assert max(seen) <= 1024 * 1024  # disk: at most the limit
    assert spooled(spool) == 0 and RatingLists(service).imported() == []


def test_the_streamed_form_imports_a_list_with_its_fields(site: Any, spool: Path) -> None:
    client, service, app = site
    token = signed_in(client, "admin")
    text = national_csv().encode()
    bad_kind = Body(form_head(token) + text, chunks=0, tail=form_tail("bullet"))
    status, answer = post(app, bad_kind, cookie=cookie_of(client))
    assert status == 422 and b"list type: standard, rapid or blitz" in answer
    assert RatingLists(service).imported() == []
    body = Body(form_head(token) + text, chunks=0, tail=form_tail("standard"))
    status, _answer = post(app, body, cookie=cookie_of(client), json=False)
    assert status == 303
    listed = RatingLists(service).player(PLAYERS[0].fide_id)
    assert (listed.standard, listed.list_name) == (PLAYERS[0].standard, "national.csv")
    assert spooled(spool) == 0  # the temporary copy is gone


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b"no boundary at all", "not a well-formed form"),
        (b"--" + BOUNDARY + b"\r\nX: y\r\n\r\nvalue\r\n--" + BOUNDARY + b"--\r\n", "has no name"),
        (b"--" + BOUNDARY + b"\r\nContent-Disposition: form-data; name=", "ended before"),
        (
            b"".join(
                b"--"
                + BOUNDARY
                + b'\r\nContent-Disposition: form-data; name="f%d"\r\n\r\n' % i
                + b"v\r\n"
                for i in range(20)
            )
            + b"--"
            + BOUNDARY
            + b"--\r\n",
            "more than 8 parts",
        ),
    ],
)
def test_a_malformed_form_is_a_clear_4xx(site: Any, body: bytes, said: str) -> None:
    client, _service, app = site
    signed_in(client, "admin")
    status, answer = post(app, Body(body, chunks=0), cookie=cookie_of(client))
    assert 400 <= status < 500 and said in answer.decode(), answer[:300]


def test_a_field_over_its_limit_and_a_second_file_are_refused(site: Any) -> None:
    client, _service, app = site
    token = signed_in(client, "admin")
    long_kind = Body(form_head(token) + b"x", chunks=0, tail=form_tail("k" * 5000))
    status, answer = post(app, long_kind, cookie=cookie_of(client))
    assert status == 422 and b"kind: at most 1024 characters" in answer
    two = Body(form_head(token) + b"x\r\n" + form_head(token)[len(b"--") :], chunks=0)
    status, answer = post(app, two, cookie=cookie_of(client))
    assert 400 <= status < 500, answer[:300]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.binary(max_size=600)
    | st.lists(
        st.sampled_from(
            [
                b"--" + BOUNDARY,
                b"\r\n",
                b"--",
                b'Content-Disposition: form-data; name="list"; filename="a.csv"',
                b'Content-Disposition: form-data; name="csrf_token"',
                b'Content-Disposition: form-data; name="kind"',
                b"Content-Disposition: form-data; name*=utf-8''%FF",
                b"X-Other: 1",
                b"token",
                b"\xff\xfe\x00",
            ]
        ),
        max_size=30,
    ).map(b"".join),
    cuts=st.lists(st.integers(0, 600), max_size=5),
)
def test_the_form_reader_answers_any_bytes_with_a_4xx_or_a_file(
    data: bytes, cuts: list[int]
) -> None:
    """Fuzz: any body, cut into any chunks, either reads (the token checked before a
    file byte is written) or is refused as a RuleError / 403 / 413 — never anything else."""
    checked: list[str | None] = []

    def check(token: str | None) -> None:
        checked.append(token)
        if token != "token":
            raise HTTPException(status_code=403, detail="the form expired")

    with tempfile.TemporaryDirectory() as folder:
        reader = ListUpload(Path(folder), BOUNDARY, 400, check)
        pieces = sorted({0, len(data), *(c for c in cuts if c <= len(data))})
        try:
            for a, b in itertools.pairwise(pieces):
                reader.feed(data[a:b])
            reader.finish()
        except BodyTooLarge:
            assert len(data) > 400
        except Exception as error:
            assert isinstance(error, RuleError | HTTPException), repr(error)
        finally:
            reader.close()
        if reader.path is not None:
            assert checked and checked[0] == "token"  # checked before the file was opened
        assert len(checked) <= 1
        written = sum(os.path.getsize(p) for p in Path(folder).iterdir())
        assert written <= len(data)
