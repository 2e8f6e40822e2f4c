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

from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from locale_walk import (
    Language,
    World,
    check,
    check_flashes,
    check_history,
    check_mail_and_telegram,
    report,
    typed_in_walked,
    walk_everyone,
    world_fixture,
)
from russian_text import english_words, visible_text
from web_support import signed_in

from crosstable.web import i18n
from crosstable.web.demo import PASSWORD, USERNAME
from crosstable.web.regulation_text import bracket_note

#: the Russian walk: every text is also searched for requirement ids; pages are not
#: required to show Cyrillic letters
RUSSIAN = Language(
    code="ru", name="russian", player="Анна", typed=typed_in_walked, requirement_ids=True
)


world = world_fixture(RUSSIAN)


def test_every_page_in_russian_has_no_english(world: World) -> None:
    walk_everyone(world, keep=Path("/tmp/ru_found.txt"))


def test_no_requirement_id_reaches_an_english_page(world: World) -> None:
    world.found.clear()
    world.client.cookies.clear()
    signed_in(world.client, USERNAME, PASSWORD)
    world.client.cookies.set("lang", "en")
    for tid in world.tournaments:
        for page in ("", "/standings", "/regulations", "/manage"):
            address = f"/t/{tid}{page}"
            answer = world.client.get(address)
            check(world, address, visible_text(answer.text), english=False)
    world.client.cookies.clear()
    assert not world.found, report(world.found)


#: each line of every tournament's history and of the series' history, as the web
#: shows it to a Russian reader; the series' mail and Telegram texts, rendered (not sent)
test_every_history_line_in_russian = check_history
test_series_mail_and_telegram_texts_in_russian = check_mail_and_telegram


def test_flashes_after_the_main_forms_in_russian(world: World) -> None:
    """Creating a group stage in the wizard (its groups named in the organiser's language),
    adding a player, drawing lots, a player's registration: each flash in Russian."""
    form = {
        "name": "Весенний кубок",
        "format": "groups",
        "list": "\n".join(f"Игрок {i}, {2000 - 10 * i}" for i in range(1, 9)),
        "groups": "2",
        "group_cycles": "1",
        "qualifiers": "2",
        "match_format": "1",
        "tie_rule": "lots",
    }

    def created(tid: int, flash: list[str]) -> None:
        name = world.service.overview(tid).name
        assert name == "Весенний кубок — группа A", name

    check_flashes(world, form, "Ян Новый", created)


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
