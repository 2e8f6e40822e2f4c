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
import datetime as dt
import itertools
import os
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from alembic import command
from alembic.config import Config
from fastapi import HTTPException
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect
from sqlalchemy import text as sql
from test_service_support import db_url, make_service, migrated_url, started, store  # noqa: F401

import crosstable.service.rating_list_import as import_module
import crosstable.service.rating_lists as rating_lists_module
import crosstable.store.engine as engine_module
import crosstable.web.routes.rating_list_upload as upload_route
from crosstable.core.errors import InputError, RuleError
from crosstable.formats.rating_list import ListedPlayer
from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.service.errors import ConflictError
from crosstable.service.rating_list_import import GenerationWriter
from crosstable.service.rating_lists import RatingLists
from crosstable.store import Store, open_store
from crosstable.store.engine import upgrade
from crosstable.web.app import create_app
from crosstable.web.limits import BodyTooLarge
from crosstable.web.routes.rating_list_upload import ListUpload
from tests.asgi_client import TestClient
from tests.rating_list_files import PLAYERS, fide_txt, national_csv, zipped
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
                for i in range(upload_route.MAX_PARTS + 2)
            )
            + b"--"
            + BOUNDARY
            + b"--\r\n",
            f"more than {upload_route.MAX_PARTS} parts",
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


# -- item 6: an import does not block other writes --------------------------------------


def many(count: int, start: int = 1_000_000) -> tuple[ListedPlayer, ...]:
    return tuple(
        ListedPlayer(start + k, f"Player{k:06d}, Anna", "RUS", "w", "", 1990, 1500 + k % 900)
        for k in range(count)
    )


class SlowReader:
    """The file reader, with a pause every ``every`` players (a large file's parsing,
    made slow on purpose) and a hook called at each pause."""

    def __init__(self, every: int, pause: float, hook: Any = None, fail_at: int = 0) -> None:
        self.every, self.pause, self.hook, self.fail_at = every, pause, hook, fail_at
        self.real = rating_lists_module.read_rating_list
        self.read = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Iterator[ListedPlayer]:
        for player in self.real(*args, **kwargs):
            self.read += 1
            if self.fail_at and self.read == self.fail_at:
                raise InputError("line {line}: the file is damaged", line=self.read)
            if self.read % self.every == 0:
                if self.hook is not None:
                    self.hook(self.read)
                time.sleep(self.pause)
            yield player


def rows_stored(store: Store) -> int:
    """Rows of every generation, as another connection sees them (committed only)."""
    with store.engine.connect() as connection:
        count = connection.execute(sql("SELECT count(*) FROM rating_list_players")).scalar()
        connection.commit()
    return int(count or 0)


@pytest.fixture
def quick_store(migrated_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    """A store whose SQLite writers wait at most 1 s for another writer (instead of 30):
    a write that cannot get in within a second fails with "database is locked"."""
    monkeypatch.setattr(engine_module, "BUSY_TIMEOUT_SECONDS", 1)
    opened = open_store(migrated_url)
    try:
        yield opened
    finally:
        opened.close()


def test_results_posted_during_an_import_are_all_accepted(
    quick_store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A list of 12 000 players parsed slowly (about 3 s) while results are posted
    through the JSON API: every result is accepted (no 500, no "database is locked"
    with writers waiting at most a second), and the parsing is interleaved with
    committed batches."""
    service = make_service(quick_store)
    Accounts(service.store).create_user("admin", "password-admin", is_admin=True)
    tid = started(service, 20)
    big = zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt(many(12_000)))
    committed_while_parsing: list[int] = []
    reader = SlowReader(
        every=300,
        pause=0.075,
        hook=lambda _n: committed_while_parsing.append(rows_stored(quick_store)),
    )
    monkeypatch.setattr(rating_lists_module, "read_rating_list", reader)
    failures: list[BaseException] = []

    def run() -> None:
        try:
            RatingLists(service).import_file(big)
        except BaseException as error:
            failures.append(error)

    games = [(r, b) for r in range(1, 20) for b in range(1, 11)]
    answers: list[int] = []
    with TestClient(create_app(service=service), raise_server_exceptions=False) as client:
        token = signed_in(client, "admin")
        importing = threading.Thread(target=run)
        importing.start()
        while importing.is_alive() and len(answers) < 55:  # the user's limit: 60 a minute
            time.sleep(0.02)
            rnd, board = games.pop(0)
            answer = client.post(
                f"/api/v1/tournaments/{tid}/rounds/{rnd}/boards/{board}/result",
                json={"result": "1-0"},
                headers={"X-CSRF-Token": token},
            )
            answers.append(answer.status_code)
        importing.join()
    assert failures == []
    assert answers == [200] * len(answers)  # every result accepted while the list was imported
    assert len(answers) >= 10, "the import ended before results could be posted"
    assert RatingLists(service).player(1_000_000 + 11_999).standard == 1500 + 11_999 % 900
    # the batches were committed while the file was still being read
    assert max(committed_while_parsing) > 0


def test_a_list_becomes_visible_only_when_complete(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = make_service(store)
    lists = RatingLists(service)
    lists.import_file(zipped(tmp_path, "old.zip", "players_list_foa.txt", fide_txt()))
    seen: list[tuple[int, list[str]]] = []

    def look(_read: int) -> None:
        found = [p.name for p in lists.find("player0000")]
        seen.append((len(lists.find("carlsen")), found + [i.name for i in lists.imported()]))

    reader = SlowReader(every=2_500, pause=0, hook=look)
    monkeypatch.setattr(rating_lists_module, "read_rating_list", reader)
    newer = zipped(tmp_path, "new.zip", "players_list_foa.txt", fide_txt(many(11_000)))
    report = lists.import_file(newer)
    # while it was read (batches already written), readers saw the old lists only
    assert len(seen) == 4 and all(s == (1, ["old.zip"]) for s in seen)
    assert rows_stored(store) == report.total == 11_000 + len(PLAYERS)  # old generation gone
    assert {i.name for i in lists.imported()} == {"old.zip", "new.zip"}
    assert lists.player(PLAYERS[0].fide_id).list_name == "old.zip"  # kept: not in the new list


def test_a_failed_import_leaves_nothing_of_itself(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = make_service(store)
    lists = RatingLists(service)
    lists.import_file(zipped(tmp_path, "old.zip", "players_list_foa.txt", fide_txt()))
    written: list[int] = []
    reader = SlowReader(every=6_000, pause=0, hook=lambda _n: written.append(rows_stored(store)))
    reader.fail_at = 12_000
    monkeypatch.setattr(rating_lists_module, "read_rating_list", reader)
    newer = zipped(tmp_path, "new.zip", "players_list_foa.txt", fide_txt(many(13_000)))
    with pytest.raises(InputError, match="the file is damaged"):
        lists.import_file(newer)
    assert written and written[0] > len(PLAYERS)  # batches had been committed
    assert rows_stored(store) == len(PLAYERS)  # and are gone
    assert [i.name for i in lists.imported()] == ["old.zip"]
    with store.engine.connect() as connection:
        states = connection.execute(sql("SELECT state FROM rating_list_imports")).scalars().all()
        connection.commit()
    assert states == ["current"]


def test_two_imports_at_once_the_later_is_refused_and_removed(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = make_service(store)
    lists = RatingLists(service)
    second = zipped(tmp_path, "second.zip", "players_list_foa.txt", fide_txt())
    real = rating_lists_module.read_rating_list

    def during_first(read: int) -> None:
        if read == 6_000:  # the first import is half-way: another one runs to the end
            monkeypatch.setattr(rating_lists_module, "read_rating_list", real)
            assert lists.import_file(second).total == len(PLAYERS)

    monkeypatch.setattr(
        rating_lists_module, "read_rating_list", SlowReader(every=6_000, pause=0, hook=during_first)
    )
    first = zipped(tmp_path, "first.zip", "players_list_foa.txt", fide_txt(many(7_000)))
    with pytest.raises(ConflictError, match="another rating list was imported meanwhile"):
        lists.import_file(first)
    assert [i.name for i in lists.imported()] == ["second.zip"]
    assert rows_stored(store) == len(PLAYERS)


def test_what_a_dead_import_left_is_swept_by_the_next(store: Store, tmp_path: Path) -> None:
    service = make_service(store)
    long_ago = dt.datetime(2026, 4, 30, 12, 0, tzinfo=dt.UTC)
    dead = GenerationWriter(store, lambda: long_ago)
    dead.begin("dead.zip")
    dead.write(
        (p, f"x{p}", f"x{p}", "", "", "", None, None, None, None, "d", "") for p in range(1, 7_001)
    )
    assert rows_stored(store) == 7_000  # a process died here
    lists = RatingLists(service)
    lists.import_file(zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt()))
    assert rows_stored(store) == len(PLAYERS)
    assert lists.find("x1") == []


def test_migration_0023_keeps_the_stored_players_both_ways(store: Store, tmp_path: Path) -> None:
    """A database at 0022 (one row per FIDE id) upgrades in place: its players become
    generation 0, current until the next import; 0023 also goes back down, keeping the
    current generation."""
    service = make_service(store)
    lists = RatingLists(service)
    lists.import_file(zipped(tmp_path, "a.zip", "players_list_foa.txt", fide_txt()))
    config = Config()
    config.set_main_option("script_location", "crosstable.store:migrations")
    with store._writer.connect() as connection, connection.begin():
        config.attributes["connection"] = connection
        command.downgrade(config, "0022")
    with store.engine.connect() as connection:
        columns = {c["name"] for c in inspect(connection).get_columns("rating_list_players")}
        assert "generation" not in columns
        assert rows_stored(store) == len(PLAYERS)
    upgrade(store)
    assert [p.name for p in lists.find("car")] == ["Carlsen, Magnus", "Caruana, Fabiano"]
    assert [i.name for i in lists.imported()] == ["a.zip"]
    assert lists.import_file(zipped(tmp_path, "b.zip", "x.txt", fide_txt(many(3)))).total == 8
    assert rows_stored(store) == 8


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    imports=st.lists(
        st.tuples(
            st.lists(st.tuples(st.integers(1, 12), st.integers(1000, 2800)), max_size=9),
            st.integers(0, 12),  # 0: the import succeeds; n: the file fails at its n-th player
        ),
        min_size=1,
        max_size=5,
    )
)
def test_imports_in_small_batches_behave_as_one_upsert_each(
    imports: list[tuple[list[tuple[int, int]], int]],
) -> None:
    """Property: with batches of 2 rows (so batching, carrying over and dropping all run
    many times), any sequence of imports, some failing half-way, leaves exactly what
    upserting each successful list at once would: the last line of a FIDE id wins,
    players not in a newer list stay, a failed list changes nothing, and only the
    current generation's rows remain."""
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(import_module, "BATCH", 2)
        patch.setattr(import_module, "GAP", 0)
        opened = open_store(f"sqlite:///{folder}/p.db")
        try:
            lists = RatingLists(make_service(opened))
            expected: dict[int, tuple[int, str]] = {}
            for number, (rows, fail_at) in enumerate(imports):
                name = f"list{number}.csv"
                path = Path(folder) / name
                lines = ["fide_id;name;rating", *(f"{i};Player {i};{r}" for i, r in rows)]
                path.write_text("\n".join(lines) + "\n")
                failing = 0 < fail_at <= len(rows)
                reader = SlowReader(every=10**9, pause=0, fail_at=fail_at if failing else 0)
                patch.setattr(rating_lists_module, "read_rating_list", reader)
                if failing:
                    with pytest.raises(InputError):
                        lists.import_file(path)
                else:
                    lists.import_file(path)
                    expected.update((i, (r, name)) for i, r in rows)
                stored = {
                    i: (entry.standard, entry.list_name)
                    for i in range(1, 13)
                    for entry in lists.find(str(i))
                }
                assert stored == expected
                assert rows_stored(opened) == len(expected)
        finally:
            opened.close()
