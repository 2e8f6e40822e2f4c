"""The web UI catalogue (``messages``) is complete in Russian and up to date.

* ``locale/messages.pot`` is what a fresh extraction gives, run exactly as
  docs/web.md (section Languages) says, so no text of a template or of the
  Python sources is missing from it;
* every extracted text has a Russian translation that is neither empty nor
  fuzzy, with the same ``%(name)s`` placeholders and all three Russian plural
  forms; the catalogue's header is not fuzzy (``pybabel compile`` skips a fuzzy
  catalogue without an error);
* ``messages.mo`` is the compiled ``messages.po``: gettext reads from it every
  translation the ``.po`` has, and nothing else;
* a Russian browser (``Accept-Language: ru``) sees the Swiss pairing pages and
  the knockout bracket in Russian.

The separate ``errors`` catalogue has its own test (tests/test_web_messages.py).
"""

from __future__ import annotations

import gettext
import random
import re
import shlex
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")
pytest.importorskip("babel")

from babel.messages.catalog import Catalog, Message
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from test_service_support import migrated

from crosstable.core.model import LotsMethod
from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web import i18n
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "crosstable" / "web"
LOCALE = WEB / "locale"
RU_PO = LOCALE / "ru" / "LC_MESSAGES" / "messages.po"
RU_MO = LOCALE / "ru" / "LC_MESSAGES" / "messages.mo"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdifr]")


def _read(path: Path) -> Catalog:
    with open(path, "rb") as handle:
        return read_po(handle)


def _documented_extract_command() -> list[str]:
    """The ``pybabel extract`` line for the UI catalogue in docs/web.md."""
    doc = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    section = doc.split("## Languages", 1)[-1]
    lines = [
        line.strip()
        for line in section.splitlines()
        if line.strip().startswith("pybabel extract") and "messages.pot" in line
    ]
    assert len(lines) == 1, "docs/web.md (Languages) shows one extract command for messages.pot"
    return shlex.split(lines[0])


def _fresh_extraction(out: Path) -> Catalog:
    """Run the documented extraction (from crosstable/web) into ``out``."""
    argv = _documented_extract_command()
    assert argv[-1] == ".", "the documented command extracts from crosstable/web"
    where = argv.index("-o") + 1
    assert argv[where] == "locale/messages.pot"
    argv[where] = str(out)
    config = argv.index("-F") + 1
    argv[config] = str(WEB / argv[config])
    argv[-1] = str(WEB)
    CommandLineInterface().run(argv)
    return _read(out)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    return _fresh_extraction(tmp_path_factory.mktemp("pot") / "messages.pot")


def _key(message: Message) -> tuple[str, str | None]:
    ident = message.id[0] if isinstance(message.id, tuple) else message.id
    return str(ident), message.context


def _entries(catalog: Catalog) -> list[Message]:
    return [m for m in catalog if m.id]


def _forms(message: Message) -> tuple[str, ...]:
    return tuple(message.string) if isinstance(message.string, tuple) else (message.string,)


def _names(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


# -- the template is what the sources say ----------------------------------------------------


def test_the_template_matches_a_fresh_extraction(fresh: Catalog) -> None:
    shipped = _read(LOCALE / "messages.pot")
    now = {_key(m): m for m in _entries(fresh)}
    then = {_key(m): m for m in _entries(shipped)}
    missing = sorted(k[0] for k in now.keys() - then.keys())
    stale = sorted(k[0] for k in then.keys() - now.keys())
    assert not missing and not stale, (
        f"locale/messages.pot is out of date: new texts {missing}, gone {stale} — "
        "re-extract as docs/web.md (Languages) says"
    )
    assert [_key(m) for m in _entries(shipped)] == [_key(m) for m in _entries(fresh)]
    for key, message in now.items():
        assert then[key].id == message.id, f"{key[0]!r}: plural form changed"
        assert ("python-format" in then[key].flags) == ("python-format" in message.flags), key[0]


def test_the_extraction_finds_texts_of_templates_and_python(fresh: Catalog) -> None:
    """A guard for the guard: the documented command reads both kinds of source."""
    texts = {_key(m)[0] for m in _entries(fresh)}
    in_templates = re.findall(
        r'_\("([^"%]+)"\)', (WEB / "templates" / "pairing.html").read_text(encoding="utf-8")
    )
    in_python = re.findall(
        r'_\(\s*"([^"%]+)"\s*\)', (WEB / "routes" / "pairing.py").read_text(encoding="utf-8")
    )
    assert in_templates and in_python
    assert set(in_templates) | set(in_python) <= texts
    assert set(i18n.TIEBREAK_NAMES.values()) <= texts  # N_() marks


# -- every text has a Russian translation --------------------------------------------------


def test_every_extracted_text_has_a_russian_translation(fresh: Catalog) -> None:
    russian = _read(RU_PO)
    assert not russian.fuzzy, "the header of messages.po is fuzzy: pybabel compile would skip it"
    assert russian.num_plurals == 3
    translated = {_key(m): m for m in _entries(russian)}
    problems: list[str] = []
    for source in _entries(fresh):
        key = _key(source)
        entry = translated.get(key)
        if entry is None:
            problems.append(f"{key[0]!r}: not in messages.po (run pybabel update)")
            continue
        if entry.fuzzy:
            problems.append(f"{key[0]!r}: fuzzy")
        forms = _forms(entry)
        expected_forms = 3 if isinstance(source.id, tuple) else 1
        if len(forms) != expected_forms or not all(f.strip() for f in forms):
            problems.append(f"{key[0]!r}: untranslated ({forms!r})")
            continue
        wanted = set().union(*(_names(text) for text in _forms_of_id(source)))
        for form in forms:
            if _names(form) != wanted:
                problems.append(
                    f"{key[0]!r}: placeholders {_names(form)} in {form!r}, not {wanted}"
                )
    assert problems == [], "messages.po:\n" + "\n".join(problems)


def _forms_of_id(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, tuple) else (message.id,)


def test_no_translation_is_left_fuzzy_or_empty() -> None:
    """Also the entries the sources no longer use (``#~``) carry no half-done work."""
    russian = _read(RU_PO)
    bad = [_key(m)[0] for m in _entries(russian) if m.fuzzy or not all(_forms(m))]
    assert bad == []


# -- the .mo is the compiled .po -----------------------------------------------------------------


def _compiled() -> gettext.GNUTranslations:
    with open(RU_MO, "rb") as handle:
        return gettext.GNUTranslations(handle)


def test_the_mo_is_compiled_from_the_current_po() -> None:
    russian, compiled = _read(RU_PO), _compiled()
    stale: list[str] = []
    for message in _entries(russian):
        forms = _forms(message)
        if isinstance(message.id, tuple):
            singular, plural = message.id[0], message.id[1]
            for n in (1, 2, 5, 21, 22, 25):
                got = compiled.ngettext(singular, plural, n)
                if got != forms[_russian_plural(n)]:
                    stale.append(f"{singular!r} (n={n}): .mo has {got!r}")
        else:
            got = compiled.gettext(message.id)
            if got != message.string:
                stale.append(f"{message.id!r}: .mo has {got!r}, .po {message.string!r}")
    assert stale == [], "messages.mo is stale — run pybabel compile -d locale:\n" + "\n".join(stale)
    # nothing in the .mo that the .po no longer has
    known = {m.id[0] if isinstance(m.id, tuple) else m.id for m in _entries(russian)}
    catalog: dict[Any, str] = compiled._catalog  # type: ignore[attr-defined]
    extra = sorted(
        str(k[0] if isinstance(k, tuple) else k)
        for k in catalog
        if (k[0] if isinstance(k, tuple) else k)
        and (k[0] if isinstance(k, tuple) else k) not in known
    )
    assert extra == [], f"messages.mo has texts the .po does not: {extra}"


def _russian_plural(n: int) -> int:
    """0 for 1, 21, 101…; 1 for 2–4, 22–24…; 2 for the rest (5–20, 11–14, 25…)."""
    last, last_two = n % 10, n % 100
    if last == 1 and last_two != 11:
        return 0
    if 2 <= last <= 4 and not 12 <= last_two <= 14:
        return 1
    return 2


PLURAL_EXPR = _read(RU_PO).plural_expr
COMPILED = _compiled()


@given(st.integers(min_value=0, max_value=10**6))
def test_the_catalogue_uses_the_russian_plural_rule(n: int) -> None:
    assert gettext.c2py(PLURAL_EXPR)(n) == _russian_plural(n)  # the .po's Plural-Forms
    assert COMPILED.plural(n) == _russian_plural(n)  # type: ignore[attr-defined]


# -- what a Russian browser sees -------------------------------------------------------------------

RUSSIAN = {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}
NAMES = ["Иванов", "Петров", "Сидоров", "Кузнецов", "Смирнов", "Попов", "Волков", "Зайцев", "Орлов"]
#: Latin words a Russian page may show: the program's name, the organiser's user
#: name, abbreviations and file formats
LATIN_ALLOWED = {
    "crosstable",
    "arbiter",
    "API",
    "PDF",
    "JSON",
    "CSV",
    "PGN",
    "EN",
    "RU",
}  # file formats keep their names


def ru(text: str, **values: object) -> str:
    """The Russian of a catalogue text (and it must differ from the English)."""
    translated = i18n.translations("ru").ugettext(text)
    assert translated != text, f"{text!r} has no Russian translation"
    return translated % values if values else translated


def visible(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def latin_words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z][A-Za-z'-]{1,}", text)) - LATIN_ALLOWED


class Site:
    def __init__(self, tmp: Path) -> None:
        self.service = Service(
            open_store(migrated(f"sqlite:///{tmp / 'ru.db'}")), random=random.Random(3)
        )
        accounts = Accounts(self.service.store)
        admin = accounts.create_user("arbiter", "password-arbiter", is_admin=True)
        self.auth = {"Authorization": f"Bearer {accounts.create_token(admin.id, 'test')}"}
        self.client = TestClient(create_app(service=self.service))

    def sign_in(self) -> None:
        token = self.csrf("/signin")
        answer = self.client.post(
            "/signin",
            data={"username": "arbiter", "password": "password-arbiter", "csrf_token": token},
            headers=RUSSIAN,
            follow_redirects=False,
        )
        assert answer.status_code == 303

    def csrf(self, path: str = "/") -> str:
        match = re.search(r'name="csrf-token" content="([^"]+)"', self.get(path))
        assert match
        return match.group(1)

    def get(self, path: str) -> str:
        answer = self.client.get(path, headers=RUSSIAN)
        assert answer.status_code == 200, (path, answer.status_code)
        return answer.text

    def post(self, path: str, **data: Any) -> Any:
        return self.client.post(path, data={"csrf_token": self.csrf(), **data}, headers=RUSSIAN)


@pytest.fixture()
def site(tmp_path: Path) -> Iterator[Site]:
    world = Site(tmp_path)
    with world.client:
        world.sign_in()
        yield world


def test_a_russian_browser_sees_the_swiss_pairing_in_russian(site: Site) -> None:
    players = "\n".join(f"{name}; {2000 - 20 * i}" for i, name in enumerate(NAMES))
    created = site.client.post(
        "/new",
        data={
            "csrf_token": site.csrf(),
            "name": "Кубок клуба",
            "format": "swiss",
            "list": players,
            "rounds": "5",
            "initial_colour": "white",
        },
        headers=RUSSIAN,
        follow_redirects=False,
    )
    assert created.status_code == 303, created.text
    tid = int(created.headers["location"].split("/")[2])
    site.service.draw_lots(tid, LotsMethod.RATING)
    assert site.post(f"/t/{tid}/manage/start").status_code == 200
    proposal = site.service.propose_round(tid)

    shown = visible(site.get(f"/t/{tid}/pairing"))
    assert ru("Round %(r)s: the proposed pairing", r=1) in shown
    assert ru("Publish round %(r)s", r=1) in shown
    assert ru("Pairing-allocated bye") in shown and proposal.bye is not None
    assert "Round 1" not in shown and "Dutch" not in shown
    assert latin_words(shown) == set(), "English left on the Swiss pairing page"

    edit = visible(site.get(f"/t/{tid}/pairing?edit=1"))
    assert ru("Round %(r)s: change the pairing", r=1) in edit
    assert ru("Allow a rematch (players who met already)") in edit
    assert latin_words(edit) == set(), "English left on the pairing editor"

    byes = visible(site.get(f"/t/{tid}/byes"))
    assert ru("Byes") in byes and ru("half-point bye") in byes
    assert latin_words(byes) == set(), "English left on the byes page"

    published = site.post(
        f"/t/{tid}/pairing/publish", **_publish_form(site.get(f"/t/{tid}/pairing"))
    )
    assert published.url.path == f"/t/{tid}/rounds/1"
    table = visible(site.get(f"/t/{tid}"))
    assert ru("Round %(r)s of %(n)s paired.", r=1, n=5) in table
    assert latin_words(table) == set(), "English left on the Swiss table"


def _publish_form(html: str) -> dict[str, Any]:
    form: dict[str, Any] = {
        "round": re.search(r'name="round" value="(\d+)"', html).group(1),  # type: ignore[union-attr]
        "key": re.search(r'name="key" value="(\w+)"', html).group(1),  # type: ignore[union-attr]
        "board": re.findall(r'name="board" value="(\d+-\d+)"', html),
    }
    bye = re.search(r'name="bye" value="(\d+)"', html)
    if bye:
        form["bye"] = bye.group(1)
    return form


def test_a_russian_browser_sees_the_bracket_in_russian(site: Site) -> None:
    body = {
        "name": "Кубок",
        "format": "knockout",
        "match_format": "1",
        "tie_rule": "lower-rated",
        "players": [{"name": name, "rating": 2000 - 10 * i} for i, name in enumerate(NAMES[:6])],
    }
    created = site.client.post("/api/v1/tournaments", json=body, headers=site.auth)
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    lots = site.client.post(
        f"/api/v1/tournaments/{tid}/lots", json={"method": "rating"}, headers=site.auth
    )
    assert lots.status_code == 200, lots.text
    started = site.client.post(f"/api/v1/tournaments/{tid}/start", headers=site.auth)
    assert started.status_code == 200, started.text
    for game in site.service.overview(tid).games:  # the higher seed wins each quarter-final
        assert game.white is not None and game.black is not None
        site.service.record_result(
            tid, game.round, game.board, "1-0" if game.white < game.black else "0-1"
        )

    page = site.get(f"/t/{tid}/bracket")
    shown = visible(page)
    for text in ("Bracket", "Quarter-final", "Semi-final", "Final", "Goes on", "on score"):
        assert ru(text) in shown, text
    assert ru("Bye (goes on without a match)") in shown
    assert ru("winner of match %(s)s", s="").strip() in shown  # the final waits for two winners
    assert ru("Match") in shown and ru("On a tie") in shown and ru("seeded") in shown
    for english in ("Quarter-final", "Semi-final", "Goes on", "winner of match", "Bracket"):
        assert english not in shown
    # the bracket itself (the note under it repeats the regulations' raw values)
    bracket = visible(
        page.split('<div class="bracket"', 1)[1].split(">", 1)[1].split('<p class="note">', 1)[0]
    )
    assert latin_words(bracket) == set(), "English left in the bracket"


def test_tiebreak_values_and_points_are_written_in_the_readers_notation() -> None:
    from fractions import Fraction

    from crosstable.web import i18n

    # (the texts are kept once made: the same value in another language is another text)
    assert [i18n.number_text(6.5, loc) for loc in ("en", "ru", "en")] == ["6.5", "6,5", "6.5"]
    assert i18n.number_text(1234.25, "en") == "1,234.25"
    assert i18n.number_text(Fraction(7, 2), "ru") == "3,5" and i18n.number_text(None) == "—"
    assert i18n.tiebreak_value("DE", 0, "en") == "–"  # no place in a tied group's mini-table
    assert i18n.tiebreak_value("DE", 2, "en") == "2"
    assert i18n.tiebreak_value("BH", 0, "ru") == "0"
    assert [i18n.points_text(v, "ru") for v in (2.5, 0.5, 4, Fraction(1, 3))] == [
        "2½",
        "½",
        "4",
        "0,33",
    ]


@settings(max_examples=300, deadline=None)
@given(
    values=st.lists(
        st.one_of(
            st.fractions(min_value=-50, max_value=500, max_denominator=12),
            st.floats(min_value=-1e6, max_value=1e6, allow_nan=False),
            st.integers(-1000, 1000),
        ),
        max_size=20,
    ),
    locales=st.lists(st.sampled_from(["en", "ru"]), min_size=1, max_size=20),
)
def test_kept_number_texts_are_the_ones_made_anew(values: list[Any], locales: list[str]) -> None:
    # the texts kept per value and language (i18n's LRU) against making each one anew
    from crosstable.web import i18n

    for value, locale in zip(values * 2, locales * 40, strict=False):
        assert i18n._points(value, locale) == i18n._points.__wrapped__(value, locale)
        made = value if not isinstance(value, Fraction) else float(value)
        if not (isinstance(value, Fraction) and value.denominator == 1):
            assert i18n.number_text(value, locale) == format_decimal(
                made, format="#,##0.##", locale=locale
            )
