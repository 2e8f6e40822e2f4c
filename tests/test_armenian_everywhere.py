"""No English on Armenian pages, checked the way a reader meets them (as
tests/test_russian_everywhere.py checks the Russian ones).

A world with realistic data — the demo's two round robins (one finished, one running),
a finished Swiss with byes, a finished knockout with tie-break games, the demo series —
is served by the real app, and every GET route is walked with ``Accept-Language: hy``
and the ``lang=hy`` cookie as an anonymous visitor, a player and an administrator. Of
every HTML page the visible text is read (tests/russian_text.py), of every PDF the text
drawn, of the JSON answers for readers (history lines, explanations, errors) their
texts; so is every line of every tournament's history and of the series' history. A
word in Latin letters that is not typed data (a player's, a tournament's or an
account's name), a code (GM, BH) or in the short allow-list of russian_text.py fails
the check, naming the page and the words. Each page must show Armenian letters too.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("fastapi")

from locale_walk import (
    Language,
    World,
    check_flashes,
    check_history,
    check_mail_and_telegram,
    typed_everywhere,
    walk_everyone,
    world_fixture,
)

ARMENIAN_LETTER = re.compile(r"[\u0531-\u058f]")
#: the Armenian walk: every HTML page must show Armenian letters; the typed data are
#: those of every tournament (the series' ones too)
ARMENIAN = Language(
    code="hy", name="armenian", player="Աննա", typed=typed_everywhere, letter=ARMENIAN_LETTER
)


world = world_fixture(ARMENIAN)


def test_every_page_in_armenian_has_no_english(world: World) -> None:
    walk_everyone(world)


#: each line of every tournament's history and of the series' history, as the web
#: shows it to an Armenian reader; the series' mail and Telegram texts, rendered (not sent)
test_every_history_line_in_armenian = check_history
test_series_mail_and_telegram_texts_in_armenian = check_mail_and_telegram


def test_flashes_after_the_main_forms_in_armenian(world: World) -> None:
    """Creating a round robin in the wizard, adding a player, drawing lots, a player's
    registration: each flash in Armenian."""
    form = {
        "name": "Գարնանային գավաթ",
        "format": "round-robin",
        "list": "\n".join(f"Խաղացող {i}, {2000 - 10 * i}" for i in range(1, 7)),
    }

    def created(tid: int, flash: list[str]) -> None:
        assert any(ARMENIAN_LETTER.search(text) for text in flash), flash

    check_flashes(world, form, "Նոր Խաղացող", created)
