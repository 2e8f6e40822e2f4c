"""The walk of a translated site the way a reader meets it, shared by the language
checks (tests/test_russian_everywhere.py, tests/test_armenian_everywhere.py).

A world with realistic data — the demo's two round robins (one finished, one running),
a finished Swiss with byes, a finished knockout with tie-break games, the demo series —
is served by the real app, and every GET route of the app is walked in one language as
an anonymous visitor, a player and an administrator. Of every HTML page the visible
text is read (tests/russian_text.py), of every PDF the text drawn, of the JSON answers
for readers (history lines, explanations, errors) their texts; so are the history
lines, the series' mail and Telegram texts and the flashes after the main forms. A
word in Latin letters that is not typed data, a code or allowed fails the check,
naming the page and the words. A :class:`Language` says what differs from one
language to the other.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import _IncludedRouter  # (the app's routes, walked)
from russian_text import english_words, requirement_ids, visible_text
from test_team_web import walked_league
from test_web_print import build_knockout, build_swiss, read_pdf
from web_support import signed_in

from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.service.series.mail_text import letter
from crosstable.service.series.outbox import outbox
from crosstable.service.series.telegram_sender import message_text
from crosstable.store import open_store
from crosstable.web.app import create_app
from crosstable.web.demo import PASSWORD, USERNAME, build_demo
from crosstable.web.demo_series import DemoClock, build_series_demo
from crosstable.web.messages import translate
from tests.asgi_client import TestClient

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
#: words a page may show for a reason of its own: the rating-list page explains that a
#: list's type is read from the file's name, which says "rapid" or "blitz"
PAGE_ALLOWED = {"/admin/rating-lists": frozenset({"rapid", "blitz"})}


def typed_in_walked(service: Service, tournaments: list[int], admin: Any) -> list[str]:
    """The data people typed in the walked tournaments: players', tournaments' and
    accounts' names, the regulations' venue, arbiter and organiser."""
    names = [p.name for tid in tournaments for p in service.overview(tid).players]
    for tid in tournaments:
        overview = service.overview(tid)
        names.append(overview.name)
        details = overview.settings.get("regulations") or {}
        names += [str(details.get(k, "")) for k in ("venue", "arbiter", "organiser", "deputy")]
    names.append(admin.display_name)
    return names


def typed_everywhere(service: Service, tournaments: list[int], admin: Any) -> list[str]:
    """The data people typed in every tournament, the series' ones too (a tournament's
    name is data, written once when it is made), and the administrator's names."""
    typed = [admin.display_name, USERNAME]
    for summary in service.tournaments():
        overview = service.overview(summary.id)
        typed += [overview.name, *(p.name for p in overview.players)]
        details = overview.settings.get("regulations") or {}
        typed += [str(details.get(k, "")) for k in ("venue", "arbiter", "organiser", "deputy")]
    return typed


@dataclass(frozen=True)
class Language:
    """What one language's walk needs to know of it."""

    code: str  # "ru", "hy": the cookie, the Accept-Language header, the site's language
    name: str  # "russian": the name of the world's database
    player: str  # the player account's display name, written in the language
    #: the data people typed, whose Latin words a page may show
    typed: Callable[[Service, list[int], Any], list[str]]
    #: the language's letters, which every HTML page must show (None: not checked)
    letter: re.Pattern[str] | None = None
    #: whether a requirement id or a seed's number in a text is reported too
    requirement_ids: bool = False
    #: the words a page (by its address) may show for a reason of its own
    page_allowed: dict[str, frozenset[str]] = field(default_factory=lambda: PAGE_ALLOWED)


@dataclass
class World:
    language: Language
    client: TestClient
    service: Service
    tournaments: list[int]
    series: int
    names: frozenset[str]
    admin_id: int
    accounts: Accounts
    found: dict[str, set[str]] = field(default_factory=dict)
    read: list[str] = field(default_factory=list)


def build_world(tmp_path_factory: pytest.TempPathFactory, language: Language) -> Iterator[World]:
    """The world of a module's fixture: yields it while its app is served."""
    db = tmp_path_factory.mktemp(language.name) / f"{language.name}.db"
    clock = DemoClock(NOW)
    service = Service(open_store(f"sqlite:///{db}"), clock=clock, random=random.Random(29))
    demo = build_demo(service)
    with pytest.MonkeyPatch.context() as patch:  # the site names its groups in its language
        patch.setenv("CROSSTABLE_LANGUAGE", language.code)
        series = build_series_demo(service, clock, now=NOW)["series"]
    clock.moment = NOW
    swiss, knockout = build_swiss(service), build_knockout(service)
    team_league = walked_league(service)  # the team pages (docs/teams.md)
    accounts = Accounts(service.store, clock=service.clock)
    anna = accounts.create_user("anna", "password-anna", display_name=language.player)
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
    tournaments = [*demo["tournaments"], swiss, knockout, team_league]
    typed = language.typed(service, tournaments, admin)
    names = frozenset(w for text in typed for w in re.findall(r"[A-Za-z]+", text))
    with TestClient(create_app(service=service), raise_server_exceptions=False) as client:
        yield World(language, client, service, tournaments, series, names, admin.id, accounts)


def world_fixture(language: Language) -> Any:
    """The module's ``world`` fixture for ``language`` (``world = world_fixture(...)``)."""

    @pytest.fixture(scope="module")
    def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
        yield from build_world(tmp_path_factory, language)

    return world


def get_paths(routes: list[Any], prefix: str = "") -> Iterator[str]:
    for route in routes:
        if isinstance(route, _IncludedRouter):
            inner = getattr(route.include_context, "prefix", "") or ""
            yield from get_paths(route.original_router.routes, prefix + inner)
        elif "GET" in (getattr(route, "methods", None) or set()):
            yield prefix + route.path


def addresses(world: World, template: str) -> list[str]:
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
        "name": [
            *("crosstable.pdf", "pairings.pdf", "slips.pdf", "certificates.pdf"),
            *("table.pdf", "matches.pdf", "prizes.pdf"),  # a team league's papers
        ],
    }
    if "{award_id}" in template:
        values["award_id"] = [str(a["id"]) for a in world.service.series_awards(world.series)][:1]
    out = [template]
    for name in re.findall(r"\{(\w+)\}", template):
        if name not in values:
            return []
        out = [a.replace("{" + name + "}", v) for a in out for v in values[name]]
    return out


def texts_of(answer: Any, where: str) -> list[str]:
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


def check(
    world: World,
    where: str,
    texts: list[str],
    extra: frozenset[str] = frozenset(),
    english: bool = True,
) -> None:
    """Report the English words of ``texts`` (unless ``english`` is false) and, when the
    language asks for it, their requirement ids, under ``where``."""
    for text in texts:
        if world.language.requirement_ids:
            ids = requirement_ids(text)
            if ids:
                world.found.setdefault(where, set()).update(ids)
        if english:
            words = english_words(text, world.names | extra)
            if words:
                world.found.setdefault(where, set()).add(" ".join(words[:8]) + f"  ⟵ {text[:80]!r}")


def report(found: dict[str, set[str]]) -> str:
    """Each English text once, with the first few addresses that show it."""
    by_text: dict[str, list[str]] = {}
    for where, texts in sorted(found.items()):
        for text in texts:
            by_text.setdefault(text, []).append(where)
    return "\n".join(
        f"{text}\n    on {len(wheres)} pages: {', '.join(wheres[:3])}"
        for text, wheres in sorted(by_text.items())
    )


def walk(world: World, who: str) -> None:
    """Every GET page, read and checked as ``who`` (whose cookies the client holds)."""
    language = world.language
    templates = sorted(set(get_paths(world.client.app.routes)))  # type: ignore[attr-defined]
    for template in templates:
        if SKIPPED.search(template) and not template.startswith("/api/v1/tournaments/"):
            continue
        if template.startswith("/api/") and not JSON_READ.search(template):
            continue
        for address in addresses(world, template):
            answer = world.client.get(address, headers={"Accept-Language": language.code})
            assert answer.status_code < 500, (address, answer.status_code, answer.text[:300])
            texts = texts_of(answer, address)
            if not texts:
                continue
            world.read.append(address)
            html = answer.headers.get("content-type", "").startswith("text/html")
            if (
                language.letter is not None
                and html
                and not any(language.letter.search(t) for t in texts)
            ):
                world.found.setdefault(f"{who} {address}", set()).add(
                    f"no {language.name.capitalize()} at all"
                )
            extra = language.page_allowed.get(address, frozenset())
            check(world, f"{who} {address}", texts, extra)


def walk_everyone(world: World, keep: Path | None = None) -> None:
    """The walk as an anonymous visitor, a player and an administrator, that it read
    every kind of page (the check cannot pass by reading nothing) and found nothing;
    the report is written to ``keep`` first, if given."""
    code = world.language.code
    world.found.clear()
    world.client.cookies.set("lang", code)
    walk(world, "anonymous")
    signed_in(world.client, "anna")
    world.client.cookies.set("lang", code)
    walk(world, "player")
    world.client.cookies.clear()
    signed_in(world.client, USERNAME, PASSWORD)
    world.client.cookies.set("lang", code)
    walk(world, "administrator")
    world.client.cookies.clear()
    kinds = {re.sub(r"\d+", "N", address) for address in world.read}
    assert len(world.read) > 400 and len(kinds) > 50, (len(world.read), sorted(kinds))
    assert any(a.endswith(".pdf") for a in world.read), "the PDFs' text is read"
    if keep is not None:
        keep.write_text(report(world.found))
    assert not world.found, report(world.found)


def check_history(world: World) -> None:
    """Each line of every tournament's history and of the series' history, as the web
    shows it to a reader of the language."""
    code = world.language.code
    world.found.clear()
    for tid in world.tournaments:
        for line in world.service.history(tid):
            check(world, f"history of {tid}", [translate(line.summary, code)])
    for item in world.service.series_history(world.series):
        check(world, "series history", [translate(item["summary"], code)])
    assert not world.found, report(world.found)


def check_mail_and_telegram(world: World) -> None:
    """The series' mail and Telegram texts, rendered (not sent) in the language."""
    code = world.language.code
    world.found.clear()
    with world.service.store.reading() as session:
        rows = outbox(session)
        assert rows
        for row in rows:
            written = letter(row.kind, row.payload, language=code)
            check(world, f"mail {row.kind}", [written.subject, *written.lines])
            check(world, f"telegram {row.kind}", [message_text(row, language=code)])
    assert not world.found, report(world.found)


def flash_of(world: World, answer: Any) -> list[str]:
    """The flash the page after a form shows (it follows the redirect)."""
    assert answer.status_code == 303, answer.text[:300]
    page = world.client.get(answer.headers["location"]).text
    found = re.search(r'<div class="flash [a-z]+"[^>]*>(.*?)</div>', page, re.S)
    assert found, page[:500]
    return visible_text(found.group(1))


def check_flashes(
    world: World,
    form: dict[str, str],
    player: str,
    created: Callable[[int, list[str]], None],
) -> None:
    """The wizard's Create with ``form``, adding ``player``, drawing lots, a player's
    registration: each flash checked. ``created`` is given the new tournament and the
    Create's flash for the language's own assertions."""
    code = world.language.code
    world.found.clear()
    world.client.cookies.clear()
    token = signed_in(world.client, USERNAME, PASSWORD)
    world.client.cookies.set("lang", code)
    answer = world.client.post("/new", data={"csrf_token": token, **form}, follow_redirects=False)
    flash = flash_of(world, answer)
    check(world, "flash: the wizard's Create", flash)
    tid = int(answer.headers["location"].split("/")[2])
    created(tid, flash)
    added = world.client.post(
        f"/t/{tid}/manage/players",
        data={"csrf_token": token, "name": player, "rating": "1700"},
        follow_redirects=False,
    )
    check(world, "flash: a player added", flash_of(world, added))
    lots = world.client.post(
        f"/t/{tid}/manage/lots",
        data={"csrf_token": token, "method": "rating"},
        follow_redirects=False,
    )
    check(world, "flash: lots drawn", flash_of(world, lots))
    world.accounts.set_access(tid, self_registration=True, actor=USERNAME)
    world.client.cookies.clear()
    token = signed_in(world.client, "anna")
    world.client.cookies.set("lang", code)
    registered = world.client.post(
        f"/t/{tid}/register", data={"csrf_token": token}, follow_redirects=False
    )
    check(world, "flash: a player registers", flash_of(world, registered))
    world.client.cookies.clear()
    assert not world.found, report(world.found)
