"""The Armenian interface (``hy``) beside English and Russian.

* every text of the three catalogues (``messages``: the pages, ``errors``: the service's
  and the rules' messages, ``mail``: the series' mails and Telegram messages) has a
  Russian and an Armenian translation, neither empty nor fuzzy, with the placeholders of
  the English text (``%(n)s`` and ``{round}``); the reference is the shipped ``.pot``,
  which tests/test_web_locale.py keeps equal to a fresh extraction of the sources, so a
  new text without a translation in either language fails here;
* the Armenian ``.mo`` files are the compiled ``.po`` files, with two plural forms;
* ``Accept-Language: hy`` (or ``hy-AM``) and the language switch give Armenian pages,
  numbers with a decimal comma and dates as Armenian writes them.

The walk over every page in Armenian is tests/test_armenian_everywhere.py.
"""

from __future__ import annotations

import gettext
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("babel")

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po
from babel.numbers import get_decimal_symbol
from russian_text import english_words, visible_text
from test_service_support import migrated
from test_web_print import read_pdf

from crosstable.core.text import Message as ServiceMessage
from crosstable.service import Service
from crosstable.store import open_store
from crosstable.web import i18n
from crosstable.web.app import create_app
from crosstable.web.demo import USERNAME, build_demo
from crosstable.web.messages import translate
from crosstable.web.pdf.document import Document
from tests.asgi_client import TestClient

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "crosstable" / "web" / "locale"
DOMAINS = ("messages", "errors", "mail")
LANGUAGES = ("ru", "hy")
PLACEHOLDER = re.compile(r"%\(\w+\)[sdifr]|\{\w+\}")

#: placeholders a translation may leave out, each for its reason: Russian and Armenian
#: name a knockout round by the fraction of the final («1/8 финала»), not by its players;
#: the English verb's agreement ("has"/"have") is English grammar only
DROPPED = {
    ("ru", "Round of {players}"): {"{players}"},
    ("ru", "round {round} is not over: {listed} {verb} no winner yet"): {"{verb}"},
    ("hy", "round {round} is not over: {listed} {verb} no winner yet"): {"{verb}"},
}
#: placeholders a translation may add: values the code passes besides the English ones
ADDED = {("ru", "Round of {players}"): {"{fraction}"}}
ARMENIAN_LETTER = re.compile(r"[\u0531-\u058f]")
#: texts that stay as they are in every language: FIDE's performance formula (dp is the
#: rating difference of FIDE's table)
KEPT = {"ARO {average} + dp({share}) {difference} = {performance}"}


def _read(path: Path) -> Catalog:
    with open(path, "rb") as handle:
        return read_po(handle)


def _entries(catalog: Catalog) -> list[Message]:
    return [m for m in catalog if m.id]


def _forms(value: object) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, (tuple, list)) else (str(value),)


def _ident(message: Message) -> str:
    return str(message.id[0] if isinstance(message.id, tuple) else message.id)


def _po(language: str, domain: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{domain}.po"


# -- every text in every language -----------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_text_has_a_translation_with_its_placeholders(domain: str, language: str) -> None:
    template = _read(LOCALE / f"{domain}.pot")
    translated = _read(_po(language, domain))
    assert not translated.fuzzy, f"{language}/{domain}.po: the header is fuzzy"
    problems: list[str] = []
    for source in _entries(template):
        ident = _ident(source)
        entry = translated.get(source.id, source.context)
        if entry is None:
            problems.append(f"{ident!r}: not in the catalogue")
            continue
        forms = _forms(entry.string)
        expected = translated.num_plurals if isinstance(source.id, tuple) else 1
        if entry.fuzzy or len(forms) != expected or not all(f.strip() for f in forms):
            problems.append(f"{ident!r}: untranslated or fuzzy ({forms!r})")
            continue
        wanted = set().union(*(PLACEHOLDER.findall(text) for text in _forms(source.id)))
        dropped = DROPPED.get((language, ident), set())
        added = ADDED.get((language, ident), set())
        for form in forms:
            have = set(PLACEHOLDER.findall(form))
            if not (wanted - dropped <= have <= wanted | added):
                problems.append(f"{ident!r}: placeholders {sorted(have)} in {form!r}")
    assert problems == [], f"{language}/{domain}.po:\n" + "\n".join(problems)


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_armenian_catalogue_has_the_russian_texts(domain: str) -> None:
    """Both translations are of the same texts: none has one the other lacks."""
    russian = {m.id for m in _entries(_read(_po("ru", domain)))}
    armenian = {m.id for m in _entries(_read(_po("hy", domain)))}
    assert armenian == russian


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_armenian_mo_is_the_compiled_po(domain: str) -> None:
    catalog = _read(_po("hy", domain))
    assert catalog.num_plurals == 2 and catalog.plural_expr == "(n != 1)"
    with open(_po("hy", domain).with_suffix(".mo"), "rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale: list[str] = []
    for message in _entries(catalog):
        forms = _forms(message.string)
        if isinstance(message.id, tuple):
            for n, form in ((1, 0), (2, 1), (5, 1)):
                got = compiled.ngettext(message.id[0], message.id[1], n)
                if got != forms[form]:
                    stale.append(f"{message.id[0]!r} (n={n}): {got!r}")
        elif compiled.gettext(str(message.id)) != message.string:
            stale.append(f"{message.id!r}: {compiled.gettext(str(message.id))!r}")
    assert stale == [], f"{domain}.mo is stale — run pybabel compile -l hy:\n" + "\n".join(stale)


def test_every_armenian_text_is_armenian() -> None:
    """A text with English words has Armenian letters in its translation (it is not the
    English copied), and the Latin words a translation keeps are the English text's own:
    codes, names and the values a form or a file takes as typed (white, baku, 'm')."""
    left: list[str] = []
    for domain in DOMAINS:
        for message in _entries(_read(_po("hy", domain))):
            source = " ".join(_forms(message.id))
            english = set(english_words(PLACEHOLDER.sub(" ", source)))
            for form in _forms(message.string):
                text = PLACEHOLDER.sub(" ", form)
                if english and not ARMENIAN_LETTER.search(text) and source not in KEPT:
                    left.append(f"{domain}: {form!r} is not Armenian")
                invented = set(english_words(text)) - english
                if invented:
                    left.append(f"{domain}: {sorted(invented)} in {form!r}")
    assert left == [], "\n".join(left)


# -- numbers, dates, the language's choice ----------------------------------------------------


def test_an_armenian_browser_chooses_armenian() -> None:
    assert "hy" in i18n.LOCALES
    assert i18n.choose_locale(None, "hy") == "hy"
    assert i18n.choose_locale(None, "hy-AM,hy;q=0.9,en;q=0.8") == "hy"
    assert i18n.choose_locale(None, "en;q=0.5,hy-AM;q=0.9") == "hy"
    assert i18n.choose_locale("hy", "ru") == "hy"
    assert i18n.choose_locale("ru", "hy") == "ru"
    assert i18n.language_name("hy") == "Հայերեն"


def test_numbers_and_dates_are_written_as_armenian_writes_them() -> None:
    assert get_decimal_symbol("hy") == ","
    assert i18n.number_text(Fraction(13, 2), "hy") == "6,5"
    assert i18n.points_text(Fraction(21, 4), "hy") == "5,25"
    assert i18n.points_text(Fraction(5, 2), "hy") == "2½"
    assert i18n.date_text("2026-07-25", "hy") == "2026 թ. հլս 25"


def test_the_service_messages_are_translated_into_armenian() -> None:
    message = ServiceMessage(
        "the tournament has already started (it is {status})", status="running"
    )
    assert translate(message, "hy") == "մրցաշարն արդեն սկսվել է (կարգավիճակը՝ ընթացքում)"
    assert translate("there is nothing to undo", "hy") == "հետարկելու բան չկա"


# -- pages ----------------------------------------------------------------------------------

ARMENIAN = {"Accept-Language": "hy-AM,hy;q=0.9,en;q=0.5"}


@dataclass
class Site:
    client: TestClient
    tournaments: list[int]
    names: frozenset[str]  # the words of the data people typed: players, tournaments


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    db = tmp_path_factory.mktemp("hy") / "hy.db"
    service = Service(open_store(migrated(f"sqlite:///{db}")), random=random.Random(6))
    tournaments = list(build_demo(service)["tournaments"])
    typed = [USERNAME]
    for tid in tournaments:
        overview = service.overview(tid)
        typed += [overview.name, *(p.name for p in overview.players)]
        details = overview.settings.get("regulations") or {}
        typed += [str(details.get(k, "")) for k in ("venue", "arbiter", "organiser", "deputy")]
    names = frozenset(w for text in typed for w in re.findall(r"[A-Za-z]+", text))
    with TestClient(create_app(service=service)) as client:
        yield Site(client, tournaments, names)


def _english_on(site: Site, address: str, **headers: str) -> list[str]:
    answer = site.client.get(address, headers=headers)
    assert answer.status_code == 200, (address, answer.status_code)
    assert '<html lang="hy">' in answer.text, address
    texts = visible_text(answer.text)
    assert any(ARMENIAN_LETTER.search(t) for t in texts), address
    return [w for t in texts for w in english_words(t, site.names)]


def test_pages_in_armenian_by_the_browsers_language(site: Site) -> None:
    site.client.cookies.clear()
    first = site.tournaments[0]
    pages = ["/", *(f"/t/{t}" for t in site.tournaments), f"/t/{first}/regulations"]
    for address in [*pages, f"/t/{first}/standings", f"/t/{first}/print", "/signin"]:
        assert _english_on(site, address, **ARMENIAN) == [], address


def test_the_language_switch_offers_armenian_and_keeps_it(site: Site) -> None:
    client, tournaments = site.client, site.tournaments
    client.cookies.clear()
    english = client.get("/", headers={"Accept-Language": "en"}).text
    switch = re.search(r'<a href="/lang/hy\?next=/"[^>]*>([^<]*)</a>', english)
    assert switch and 'title="Հայերեն"' in switch.group(0) and switch.group(1) == "ՀԱՅ"
    answer = client.get("/lang/hy?next=/", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    assert client.cookies.get("lang") == "hy"
    page = client.get(f"/t/{tournaments[0]}", headers={"Accept-Language": "ru"})
    assert '<html lang="hy">' in page.text  # the switch wins over the browser's language
    assert "Խաչաձև աղյուսակ" in page.text
    back = client.get("/lang/en?next=/", follow_redirects=False)
    assert back.status_code == 303 and client.cookies.get("lang") == "en"
    client.cookies.clear()


def test_an_armenian_pdf_is_drawn_in_a_font_with_the_armenian_letters() -> None:
    """Open Sans has none: an Armenian document is drawn in DejaVu Sans (cut to the
    alphabets the site writes); other languages keep Open Sans."""
    token = i18n.current.set("hy")
    try:
        document = Document()
        for style in ("sans", "sansB"):
            glyphs = getattr(document.fonts[style], "cmap", {})
            assert all(ord(letter) in glyphs for letter in "ԱաՖֆևAzЖж«»…—½")
        document.add_page()
        document.set_font("Sans", "B", 12)
        document.cell(text="Խաչաձև աղյուսակ — 5,5 (Berger)")
        assert read_pdf(bytes(document.output())).strings[0] == "Խաչաձև աղյուսակ — 5,5 (Berger)"
    finally:
        i18n.current.reset(token)
    english = Document().fonts["sans"]
    assert not any(ord(letter) in getattr(english, "cmap", {}) for letter in "Աա")
