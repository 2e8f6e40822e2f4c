"""No English on Russian pages (issue 29 item 12), checked the way a reader meets them.

A world with realistic data — the demo's two round robins (one finished, one running),
a finished Swiss with byes, a finished knockout with tie-break games, the demo series
(three editions played through their stages, a fourth open) — is served by the real
app, and every GET route of the app is walked in Russian as an anonymous visitor, a
player and an administrator (who organises everything). Of every HTML page the visible
text is read (tests/russian_text.py: text nodes, and the title, aria-label,
placeholder and alt a reader sees or hears); of every PDF the text drawn. So are the
flash messages after the main forms, every line of every history (the tournaments'
and the series'), the tie-break explanations and the series' mail and Telegram texts,
rendered (not sent). A word in Latin letters that is not a player's or an account's
name, a code (GM, RUS, BH) or in the short allow-list of russian_text.py fails the
check, naming the page and the words. A requirement id (R-RR-13) or a seed's number
fails it in English as in Russian.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.routing import _IncludedRouter  # (the app's routes, walked)
from fastapi.testclient import TestClient
from russian_text import english_words, requirement_ids, visible_text
from test_web_print import build_knockout, build_swiss, read_pdf
from web_support import signed_in

from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.service.series.mail_text import letter
from crosstable.service.series.outbox import outbox
from crosstable.service.series.telegram_sender import message_text
from crosstable.store import open_store
from crosstable.web import i18n
from crosstable.web.app import create_app
from crosstable.web.demo import PASSWORD, USERNAME, build_demo
from crosstable.web.demo_series import DemoClock, build_series_demo
from crosstable.web.messages import translate
from crosstable.web.regulation_text import bracket_note

NOW = dt.datetime(2026, 12, 3, 9, tzinfo=dt.UTC)

#: routes that answer no text for readers: data files and exports (their own formats'
#: English keywords), the event stream, the framework's own API documentation, the
#: language switch and Telegram's sign-in redirects
SKIPPED = re.compile(
    r"/events$|/export/|\.pgn$|\.ics$|\.atom$|\.svg$|^/api/openapi\.json$|^/api/docs$"
    r"|^/lang/|^/telegram/login|^/favicon|/unsubscribe/|/venue/body$|^/api/"
)
#: the JSON routes whose texts are for readers (lines of history, explanations, errors)
JSON_READ = re.compile(r"/history$|/explain$")
#: the keys of a JSON answer whose texts are for readers
READER_KEYS = ("summary", "detail", "message", "msg", "text", "note", "formula", "what")


@dataclass
class World:
    client: TestClient
    service: Service
    tournaments: list[int]
    series: int
    names: frozenset[str]
    admin_id: int
    accounts: Accounts
    found: dict[str, set[str]] = field(default_factory=dict)
    read: list[str] = field(default_factory=list)


def _words_of_names(names: list[str]) -> frozenset[str]:
    return frozenset(w for name in names for w in re.findall(r"[A-Za-z]+", name))


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    db = tmp_path_factory.mktemp("russian") / "russian.db"
    clock = DemoClock(NOW)
    service = Service(open_store(f"sqlite:///{db}"), clock=clock, random=random.Random(29))
    demo = build_demo(service)
    with pytest.MonkeyPatch.context() as patch:  # a Russian site names its groups in Russian
        patch.setenv("CROSSTABLE_LANGUAGE", "ru")
        series = build_series_demo(service, clock, now=NOW)["series"]
    clock.moment = NOW
    swiss, knockout = build_swiss(service), build_knockout(service)
    accounts = Accounts(service.store, clock=service.clock)
    anna = accounts.create_user("anna", "password-anna", display_name="Анна")
    admin = accounts.find_user(USERNAME)
    assert admin is not None
    # the history lines of access, staff and account links (informational events)
    live = demo["tournaments"][1]
    accounts.set_access(live, self_registration=True, actor=USERNAME)
    accounts.set_access(live, closes_at="2026-12-31T18:00", actor=USERNAME)
    accounts.set_access(live, eligibility={"min_rated_games": 5}, actor=USERNAME)
    accounts.set_access(live, self_registration=False, actor=USERNAME)
    accounts.set_staff(live, anna.id, "helper", actor=USERNAME)
    accounts.set_staff(live, anna.id, None, actor=USERNAME)
    accounts.link_entry(swiss, 4, anna.id, actor=USERNAME)
    accounts.unlink_entry(swiss, 4, actor=USERNAME)
    tournaments = [*demo["tournaments"], swiss, knockout]
    # the data people typed stays as typed: players', tournaments' and accounts' names,
    # the regulations' venue, arbiter and organiser
    names = [p.name for tid in tournaments for p in service.overview(tid).players]
    for tid in tournaments:
        overview = service.overview(tid)
        names.append(overview.name)
        details = overview.settings.get("regulations") or {}
        names += [str(details.get(k, "")) for k in ("venue", "arbiter", "organiser", "deputy")]
    names.append(admin.display_name)
    with TestClient(create_app(service=service), raise_server_exceptions=False) as client:
        yield World(
            client, service, tournaments, series, _words_of_names(names), admin.id, accounts
        )


def _get_paths(routes: list[Any], prefix: str = "") -> Iterator[str]:
    for route in routes:
        if isinstance(route, _IncludedRouter):
            inner = getattr(route.include_context, "prefix", "") or ""
            yield from _get_paths(route.original_router.routes, prefix + inner)
        elif "GET" in (getattr(route, "methods", None) or set()):
            yield prefix + route.path


def _addresses(world: World, template: str) -> list[str]:
    """Every address of a route's template filled with this world's values."""
    values: dict[str, list[str]] = {
        "tid": [str(t) for t in world.tournaments],
        "rnd": ["1"],
        "board": ["1"],
        "start": ["1"],
        "series_id": [str(world.series)],
        "number": ["1", "4"],
        "user_id": [str(world.admin_id)],
        "what": ["crosstable", "pairings", "slips", "certificates"],
        "name": ["crosstable.pdf", "pairings.pdf", "slips.pdf", "certificates.pdf"],
    }
    if "{award_id}" in template:
        values["award_id"] = [str(a["id"]) for a in world.service.series_awards(world.series)][:1]
    out = [template]
    for name in re.findall(r"\{(\w+)\}", template):
        if name not in values:
            return []
        out = [a.replace("{" + name + "}", v) for a in out for v in values[name]]
    return out


def _read(world: World, answer: Any, where: str, language: str) -> list[str]:
    """The texts of one answer a reader meets."""
    kind = answer.headers.get("content-type", "")
    if kind.startswith("application/pdf"):
        return read_pdf(answer.content).strings
    if kind.startswith("text/html"):
        return visible_text(answer.text)
    readable = JSON_READ.search(where) or answer.status_code >= 400
    if kind.startswith("application/json") and readable:
        texts: list[str] = []

        def walk(value: Any, key: str = "") -> None:
            if isinstance(value, dict):
                for k, v in value.items():
                    walk(v, k)
            elif isinstance(value, list):
                for v in value:
                    walk(v, key)
            elif isinstance(value, str) and key in READER_KEYS:
                texts.append(value)

        walk(answer.json())
        return texts
    return []


def _check(
    world: World,
    where: str,
    texts: list[str],
    russian: bool = True,
    extra: frozenset[str] = frozenset(),
) -> None:
    for text in texts:
        ids = requirement_ids(text)
        if ids:
            world.found.setdefault(where, set()).update(ids)
        if russian:
            words = english_words(text, world.names | extra)
            if words:
                world.found.setdefault(where, set()).add(" ".join(words[:8]) + f"  ⟵ {text[:80]!r}")


def _report(found: dict[str, set[str]]) -> str:
    """Each English text once, with the first few addresses that show it."""
    by_text: dict[str, list[str]] = {}
    for where, texts in sorted(found.items()):
        for text in texts:
            by_text.setdefault(text, []).append(where)
    return "\n".join(
        f"{text}\n    on {len(wheres)} pages: {', '.join(wheres[:3])}"
        for text, wheres in sorted(by_text.items())
    )


#: words a page may show for a reason of its own: the rating-list page explains that a
#: list's type is read from the file's name, which says "rapid" or "blitz"
PAGE_ALLOWED = {"/admin/rating-lists": frozenset({"rapid", "blitz"})}


def _walk(world: World, who: str) -> None:
    templates = sorted(set(_get_paths(world.client.app.routes)))  # type: ignore[attr-defined]
    for template in templates:
        if SKIPPED.search(template) and not template.startswith("/api/v1/tournaments/"):
            continue
        if template.startswith("/api/") and not JSON_READ.search(template):
            continue
        for address in _addresses(world, template):
            answer = world.client.get(address, headers={"Accept-Language": "ru"})
            assert answer.status_code < 500, (address, answer.status_code, answer.text[:300])
            texts = _read(world, answer, address, "ru")
            if texts:
                world.read.append(address)
            _check(world, f"{who} {address}", texts, extra=PAGE_ALLOWED.get(address, frozenset()))


def test_every_page_in_russian_has_no_english(world: World) -> None:
    world.found.clear()
    world.client.cookies.set("lang", "ru")
    _walk(world, "anonymous")
    signed_in(world.client, "anna")
    world.client.cookies.set("lang", "ru")
    _walk(world, "player")
    world.client.cookies.clear()
    signed_in(world.client, USERNAME, PASSWORD)
    world.client.cookies.set("lang", "ru")
    _walk(world, "administrator")
    world.client.cookies.clear()
    # every kind of page was read: the check cannot pass by reading nothing
    kinds = {re.sub(r"\d+", "N", address) for address in world.read}
    assert len(world.read) > 400 and len(kinds) > 50, (len(world.read), sorted(kinds))
    assert any(a.endswith(".pdf") for a in world.read), "the PDFs' text is read"
    Path("/tmp/ru_found.txt").write_text(_report(world.found))
    assert not world.found, _report(world.found)


def test_no_requirement_id_reaches_an_english_page(world: World) -> None:
    world.found.clear()
    world.client.cookies.clear()
    signed_in(world.client, USERNAME, PASSWORD)
    world.client.cookies.set("lang", "en")
    for tid in world.tournaments:
        for page in ("", "/standings", "/regulations", "/manage"):
            address = f"/t/{tid}{page}"
            answer = world.client.get(address)
            _check(world, address, visible_text(answer.text), russian=False)
    world.client.cookies.clear()
    assert not world.found, _report(world.found)


def test_every_history_line_in_russian(world: World) -> None:
    """Each line of every tournament's history and of the series' history, as the web
    shows it to a Russian reader."""
    world.found.clear()
    for tid in world.tournaments:
        for line in world.service.history(tid):
            _check(world, f"history of {tid}", [translate(line.summary, "ru")])
    for line in world.service.series_history(world.series):
        _check(world, "series history", [translate(line["summary"], "ru")])
    assert not world.found, _report(world.found)


def test_series_mail_and_telegram_texts_in_russian(world: World) -> None:
    world.found.clear()
    with world.service.store.reading() as session:
        rows = outbox(session)
        assert rows
        for row in rows:
            written = letter(row.kind, row.payload, language="ru")
            _check(world, f"mail {row.kind}", [written.subject, *written.lines])
            _check(world, f"telegram {row.kind}", [message_text(row, language="ru")])
    assert not world.found, _report(world.found)


def _flash(world: World, answer: Any) -> list[str]:
    """The flash the page after a form shows (it follows the redirect)."""
    assert answer.status_code == 303, answer.text[:300]
    page = world.client.get(answer.headers["location"]).text
    found = re.search(r'<div class="flash [a-z]+"[^>]*>(.*?)</div>', page, re.S)
    assert found, page[:500]
    return visible_text(found.group(1))


def test_flashes_after_the_main_forms_in_russian(world: World) -> None:
    """Creating a group stage in the wizard (its groups named in the organiser's language),
    adding a player, drawing lots, a player's registration: each flash in Russian."""
    world.found.clear()
    world.client.cookies.clear()
    token = signed_in(world.client, USERNAME, PASSWORD)
    world.client.cookies.set("lang", "ru")
    form = {
        "csrf_token": token,
        "name": "Весенний кубок",
        "format": "groups",
        "list": "\n".join(f"Игрок {i}, {2000 - 10 * i}" for i in range(1, 9)),
        "groups": "2",
        "group_cycles": "1",
        "qualifiers": "2",
        "match_format": "1",
        "tie_rule": "lots",
    }
    created = world.client.post("/new", data=form, follow_redirects=False)
    _check(world, "flash: the wizard's Create", _flash(world, created))
    first = int(created.headers["location"].split("/")[2])
    name = world.service.overview(first).name
    assert name == "Весенний кубок — группа A", name
    added = world.client.post(
        f"/t/{first}/manage/players",
        data={"csrf_token": token, "name": "Ян Новый", "rating": "1700"},
        follow_redirects=False,
    )
    _check(world, "flash: a player added", _flash(world, added))
    lots = world.client.post(
        f"/t/{first}/manage/lots",
        data={"csrf_token": token, "method": "rating"},
        follow_redirects=False,
    )
    _check(world, "flash: lots drawn", _flash(world, lots))
    world.accounts.set_access(first, self_registration=True, actor=USERNAME)
    world.client.cookies.clear()
    token = signed_in(world.client, "anna")
    world.client.cookies.set("lang", "ru")
    registered = world.client.post(
        f"/t/{first}/register", data={"csrf_token": token}, follow_redirects=False
    )
    _check(world, "flash: a player registers", _flash(world, registered))
    world.client.cookies.clear()
    assert not world.found, _report(world.found)


def test_a_knockout_note_says_its_rules_in_words() -> None:
    """The note under a bracket: the match format and the tie rule in words (it showed
    the stored codes, ``lower-rated``, ``rapid:2,blitz:2,armageddon``)."""
    token = i18n.current.set("ru")
    try:
        for rule in ("lower-rated", "lots", "rapid:2,blitz:2,armageddon", "armageddon"):
            note = bracket_note({"format": "2", "tie_rule": rule, "order": "seeded"})
            assert not english_words(note), note
    finally:
        i18n.current.reset(token)
