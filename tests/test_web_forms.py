"""Hostile values in every form and API field are a 4xx, never a 500 (issue 13.12).

The routes come from the app's route table, so a new route is covered without
editing this test: every POST page route gets each hostile value in every field
its handler reads (found in the handler's source; all the templates' field names
when it reads through a helper), and every JSON body model each hostile value in
every text field (numbers far out of range). On SQLite and PostgreSQL (NUL and
over-long texts used to be 500s there). Then a few reproducers by name.
"""

from __future__ import annotations

import datetime as dt
import inspect
import os
import random
import re
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote_from_bytes

import pytest

pytest.importorskip("fastapi")

from pydantic import BaseModel
from test_service_support import db_url, migrated_url  # noqa: F401

from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

TEMPLATES = Path(__file__).resolve().parents[1] / "crosstable" / "web" / "templates"
HOSTILE = [
    "'; DROP TABLE x;--",
    "\x00",
    "a\x00b",
    "1 OR 1=1",
    "x" * 5000,
    "%00",
    "😀♞",
    "9" * 30,
    "-1",
    "١٢",
    "\udc80",  # not UTF-8 at all once sent
]
#: the ways a handler reads a form field
_READS = re.compile(
    r'(?:text|integer|_int|_text|_flag|_date|flag|number)\(\s*form,\s*"(\w+)"'
    r'|form\.get\("(\w+)"|"(\w+)" in form|form\["(\w+)"\]'
)
#: routes that end the session (the rest of the run needs it)
_SKIP = re.compile(r"signout")


def routes(app: Any) -> Iterator[tuple[str, set[str], Any]]:
    """(path, methods, route) of every route, into included routers."""

    def walk(items: Any, prefix: str) -> Iterator[tuple[str, set[str], Any]]:
        for route in items:
            if hasattr(route, "original_router"):
                yield from walk(route.original_router.routes, prefix + route.include_context.prefix)
            elif getattr(route, "methods", None):
                yield prefix + route.path, set(route.methods), route

    yield from walk(app.routes, "")


def fields_of(endpoint: Any, every: set[str]) -> set[str]:
    source = inspect.getsource(endpoint)
    found = {next(g for g in match if g) for match in _READS.findall(source)}
    return found or every


#: a form control of the templates: its tag and its attributes
_CONTROL = re.compile(r"<(input|select|textarea|button)\b([^>]*)>")


def field_kinds(templates: str) -> dict[str, str]:
    """Each field name of the templates and the kind of control it is (``input:text``,
    ``input:checkbox``, ``select`` …; a name on several kinds takes the first by name).

    >>> field_kinds('<input name="a"><input type="date" name="b"><select name="c">')
    {'a': 'input:text', 'b': 'input:date', 'c': 'select'}
    """
    kinds: dict[str, set[str]] = {}
    for tag, attributes in _CONTROL.findall(templates):
        name = re.search(r'\bname="([a-z_]+)"', attributes)
        if name is None:
            continue
        kind = re.search(r'\btype="([a-z-]+)"', attributes)
        shown = f"input:{kind.group(1) if kind else 'text'}" if tag == "input" else tag
        kinds.setdefault(name.group(1), set()).add(shown)
    return {name: min(found) for name, found in sorted(kinds.items())}


def one_field_of_each_kind(fields: set[str], kinds: dict[str, str], rng: random.Random) -> set[str]:
    """One field of ``fields`` for each kind of control, drawn by ``rng`` (a field the
    templates do not show is a kind of its own: "other")."""
    by_kind: dict[str, list[str]] = {}
    for name in sorted(fields):
        by_kind.setdefault(kinds.get(name, "other"), []).append(name)
    return {rng.choice(names) for _kind, names in sorted(by_kind.items())}


#: which field of each kind gets the lone NUL on a route that reads its fields through a
#: helper: a seed of its own each day (set it to repeat a failed run; a failure names it)
FORMS_SEED = int(os.environ.get("CROSSTABLE_FORMS_SEED") or dt.date.today().toordinal())


def encoded(data: dict[str, str]) -> str:
    return "&".join(
        quote_from_bytes(k.encode()) + "=" + quote_from_bytes(v.encode("utf-8", "surrogateescape"))
        for k, v in data.items()
    )


@pytest.fixture()
def web(migrated_url: str) -> Iterator[tuple[TestClient, Service, dict[str, str], str, list[int]]]:  # noqa: F811
    service = Service(open_store(migrated_url))
    accounts = Accounts(service.store)
    admin = accounts.create_user("arbiter", "password-arbiter", is_admin=True)
    token = accounts.create_token(admin.id, "test")
    tids = []
    for started in (False, True):
        names = [PlayerInfo(f"Player {i}", 1800 + i) for i in range(1, 5)]
        tid = service.create_tournament(Regulations(name="Club"), players=names).tournament_id
        accounts.claim(tid, admin)
        if started:
            service.draw_lots(tid, LotsMethod.RATING)
            service.start(tid)
        tids.append(tid)
    with TestClient(create_app(service=service), raise_server_exceptions=False) as client:
        page = client.get("/signin").text
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', page)
        assert csrf
        form = {"username": "arbiter", "password": "password-arbiter", "csrf_token": csrf.group(1)}
        client.post("/signin", data=form)
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/").text)
        assert csrf
        yield client, service, {"Authorization": f"Bearer {token}"}, csrf.group(1), tids
    service.store.close()


def test_no_form_field_gives_a_server_error(web: Any) -> None:
    """Every hostile value in all of a form's fields at once, and a NUL in each field
    alone (a field refused first hides the ones after it). A route whose fields are not
    in its handler's source (read through a helper) gets the lone NUL in one field of
    each kind of control of the templates (text, checkbox, select, date, hidden …),
    drawn afresh each day, rather than in each of the ~95 names: the sweep took 20 s."""
    client, _service, _auth, csrf, tids = web
    templates = "".join(p.read_text(encoding="utf-8") for p in TEMPLATES.glob("*.html"))
    every = set(re.findall(r'name="([a-z_]+)"', templates))
    kinds = field_kinds(templates)
    rng = random.Random(FORMS_SEED)
    failures: list[str] = []
    covered = 0
    for path, methods, route in routes(client.app):
        if "POST" not in methods or path.startswith("/api/") or _SKIP.search(path):
            continue
        fields = fields_of(route.endpoint, every) - {"csrf_token"}
        alone = fields if fields != every - {"csrf_token"} else None
        for tid in tids if "{tid}" in path else tids[:1]:
            target = re.sub(r"\{\w+\}", "1", path.replace("{tid}", str(tid)))
            one_by_one = alone or one_field_of_each_kind(fields, kinds, rng)
            for value in HOSTILE:
                for chosen in [fields, *({f} for f in sorted(one_by_one) if value == "\x00")]:
                    data = {"csrf_token": csrf} | {name: value for name in chosen}
                    answer = client.post(
                        target,
                        content=encoded(data),
                        headers={
                            "content-type": "application/x-www-form-urlencoded",
                            "referer": "/",
                        },
                        follow_redirects=False,
                    )
                    covered += 1
                    if answer.status_code >= 500:
                        failures.append(f"{target} {sorted(chosen)[:3]} = {value[:12]!r}")
    assert covered > 300
    assert failures == [], f"CROSSTABLE_FORMS_SEED={FORMS_SEED}\n" + "\n".join(failures)


def _sample(annotation: Any, value: str) -> Any:
    """A hostile value for a field of this type (texts: ``value``, numbers: huge)."""
    origin = typing.get_origin(annotation)
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if origin is typing.Annotated:
        return _sample(args[0], value)
    if origin in (list, tuple):
        return [_sample(args[0], value)] if args else [value]
    if args and origin is not typing.Literal:
        return _sample(args[0], value)
    if origin is typing.Literal:
        return value
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _body(annotation, value)
    if annotation is bool:
        return value
    if annotation is int:
        return 2**70
    return value


def _body(model: type[BaseModel], value: str) -> dict[str, Any]:
    return {name: _sample(field.annotation, value) for name, field in model.model_fields.items()}


def test_no_api_field_gives_a_server_error(web: Any) -> None:
    client, _service, auth, _csrf, tids = web
    failures: list[str] = []
    covered = 0
    for path, methods, route in routes(client.app):
        if not path.startswith("/api/") or not methods & {"POST", "PATCH", "PUT"}:
            continue
        body = getattr(route, "body_field", None)
        model = getattr(body, "type_", None) or getattr(
            getattr(body, "field_info", None), "annotation", None
        )
        for tid in tids if "{tid}" in path else tids[:1]:
            target = re.sub(r"\{\w+\}", "1", path.replace("{tid}", str(tid)))
            method = sorted(methods & {"POST", "PATCH", "PUT"})[0]
            for value in HOSTILE:
                payload: Any = (
                    _body(model, value)
                    if isinstance(model, type) and issubclass(model, BaseModel)
                    else {"value": value}
                )
                answer = client.request(
                    method,
                    target,
                    content=_json(payload),
                    headers=auth | {"content-type": "application/json"},
                )
                covered += 1
                if answer.status_code >= 500:
                    failures.append(f"{method} {target} = {value[:12]!r}: {answer.text[:80]}")
    assert covered > 100
    assert failures == [], "\n".join(failures)


def _json(payload: Any) -> bytes:
    import json

    return json.dumps(payload, ensure_ascii=True).encode()  # lone surrogates as \udc80


def test_the_reproducers(web: Any) -> None:
    client, service, auth, csrf, tids = web
    registration = tids[0]
    form = {"content-type": "application/x-www-form-urlencoded", "referer": "/"}
    # lots by an unknown method: a 4xx naming the field (was a 500)
    answer = client.post(
        f"/t/{registration}/manage/lots",
        content=encoded({"csrf_token": csrf, "method": "foo"}),
        headers=form | {"hx-request": "true"},
    )
    assert answer.status_code < 500
    assert "method &#39;foo&#39;: random, rating or manual" in answer.text
    # a NUL in a player's name: refused, nothing stored (PostgreSQL refused it with a 500)
    answer = client.post(
        f"/t/{registration}/manage/players",
        content=encoded({"csrf_token": csrf, "name": "Anna\x00"}),
        headers=form | {"hx-request": "true"},
    )
    assert "name: control characters are not allowed" in answer.text
    assert len(service.overview(registration).players) == 4
    # a title longer than the store's column, an out-of-range or Unicode-digit number
    for data, message in (
        ({"name": "Anna", "title": "GM" * 10}, "title: at most 10 characters"),
        ({"name": "Anna", "rating": "١٢"}, "rating: &#39;١٢&#39; is not a whole number"),
        ({"name": "Anna", "rating": "9" * 12}, "rating: 999999999999 is out of range"),
    ):
        answer = client.post(
            f"/t/{registration}/manage/players",
            content=encoded({"csrf_token": csrf} | data),
            headers=form | {"hx-request": "true"},
        )
        assert message in answer.text, answer.text
    # the API: NUL in a name is a 422 naming the field; a CSRF header that is not ASCII a 403
    body = {"name": "Club\x00", "players": []}
    answer = client.post("/api/v1/tournaments", json=body, headers=auth)
    assert answer.status_code == 422 and "control characters" in answer.text
    answer = client.post(
        f"/api/v1/tournaments/{registration}/lots",
        content=b'{"method": "random"}',
        headers={"content-type": "application/json", "x-csrf-token": "\xe9t\xe9".encode("latin-1")},
    )
    assert answer.status_code == 403


def test_the_wizard_preview_is_bounded_by_the_cap(web: Any) -> None:
    # count=2000000000 made the preview build a Berger table of two billion players (the
    # process was killed for memory); 150 shows the same missing check cheaply
    client, _service, _auth, csrf, _tids = web
    for count, message in (
        ("150", "at most 100 players, not 150"),
        ("2000000000", "at most 100 players, not 2000000000"),
    ):
        answer = client.post(
            "/new/preview",
            data={"csrf_token": csrf, "name": "X", "format": "round-robin", "count": count},
        )
        assert answer.status_code == 200 and message in answer.text
    answer = client.post(
        "/new/preview",
        data={"csrf_token": csrf, "name": "X", "format": "swiss", "count": "1001"},
    )
    assert "a Swiss has at most 1000 players, not 1001" in answer.text
