"""Every page fits a 360-pixel-wide phone screen, in English and in Russian (Chromium).

One database holds a tournament of every kind in every state worth showing — the
demo's finished and running round robins, a Swiss two rounds in, a knockout in
round 2, a Scheveningen, a group stage + knockout event whose knockout is made, a
round robin still taking registrations — and an organiser visits each of their
pages. A page is too wide when the document scrolls sideways: wide tables must
scroll inside their own box, long labels must wrap. Russian words are longer than
English ones, so both languages are checked.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_service_support import migrated

from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import open_store
from crosstable.web.demo import USERNAME, build_demo
from crosstable.web.routes import actions
from tests.browser import demo_signed_in, needs_chromium, web_server

pytestmark = needs_chromium

PHONE = {"width": 360, "height": 740}
#: the pages of every tournament, and the pages of one system only
COMMON = ("", "/rounds", "/rounds/1", "/standings", "/regulations", "/history", "/print")
ORGANISER = ("/manage",)
PLAYER = ("/players/1", "/explain/1")
BY_KIND = {
    "swiss": ("/pairing", "/byes"),
    "knockout": ("/bracket",),
}
SITE = ("/", "/new", "/account", "/admin")


def _players(prefix: str, count: int, top: int = 2400) -> list[PlayerInfo]:
    return [
        PlayerInfo(f"{prefix} Очень-Длинная-Фамилия {i}", top - 17 * i, "FM", "RUS")
        for i in range(1, count + 1)
    ]


def _play_all(service: Service, tid: int) -> None:
    """Every game without a result: the lower starting number wins."""
    for game in service.overview(tid).games:
        if game.result is None and game.white and game.black:
            result = "1-0" if game.white < game.black else "0-1"
            service.record_result(tid, game.round, game.board, result, actor=USERNAME)


def _build(db: Path) -> dict[str, int]:
    from crosstable.service.accounts import Accounts

    service = Service(open_store(migrated(f"sqlite:///{db}")))
    demo = build_demo(service)
    accounts = Accounts(service.store)
    organiser = accounts.find_user(USERNAME)
    assert organiser is not None
    kinds = {"finished": demo["tournaments"][0], "running": demo["tournaments"][1]}

    def create(regulations: Regulations, players: list[PlayerInfo]) -> int:
        tid = service.create_tournament(regulations, actor=USERNAME).tournament_id
        accounts.claim(tid, organiser)
        for player in players:
            service.add_player(tid, player, actor=USERNAME)
        return tid

    swiss_spec = actions.WizardSpec(name="Открытый швейцарский турнир", format="swiss")
    swiss = create(swiss_spec.regulations(), _players("Ш", 11))
    service.draw_lots(swiss, LotsMethod.RATING, actor=USERNAME)
    service.start(swiss, actor=USERNAME)
    for _ in range(2):
        service.publish_round(swiss, actor=USERNAME)
        _play_all(service, swiss)
    kinds["swiss"] = swiss

    ko_spec = actions.WizardSpec(
        name="Кубок на выбывание", format="knockout", match_format="2", tie_rule="playoff"
    )
    knockout = create(ko_spec.regulations(), _players("К", 8))
    service.draw_lots(knockout, LotsMethod.RATING, actor=USERNAME)
    service.start(knockout, actor=USERNAME)
    _play_all(service, knockout)
    service.pair_next_round(knockout, actor=USERNAME)
    kinds["knockout"] = knockout

    teams = [
        PlayerInfo(f"Игрок {t} {i}", 2000 - i, team=t)
        for t in ("Динамо", "Спартак")
        for i in range(4)
    ]
    schev = create(actions.WizardSpec(name="Матч", format="scheveningen").regulations(), teams)
    service.draw_lots(schev, LotsMethod.RATING, actor=USERNAME)
    service.start(schev, actor=USERNAME)
    kinds["scheveningen"] = schev

    groups = [create(Regulations(name=f"Группа {g}"), _players(g, 4)) for g in "АБ"]
    service.link_group_stage(groups, qualifiers=2, name="Весенний кубок", actor=USERNAME)
    for tid in groups:
        service.draw_lots(tid, LotsMethod.RATING, actor=USERNAME)
        service.start(tid, actor=USERNAME)
        _play_all(service, tid)
        service.finish(tid, actor=USERNAME)
    kinds["group"] = groups[0]
    made = service.create_knockout_stage(groups[0], actor=USERNAME)
    kinds["stage-knockout"] = made.tournament_id
    accounts.claim(made.tournament_id, organiser)
    service.start(made.tournament_id, actor=USERNAME)

    kinds["registration"] = create(Regulations(name="Регистрация открыта"), _players("Р", 5))
    service.store.close()
    return kinds


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, int]]]:
    db = tmp_path_factory.mktemp("phone") / "phone.db"
    kinds = _build(db)
    with web_server(db) as url:
        yield url, kinds


def _paths(kinds: dict[str, int]) -> list[str]:
    paths = list(SITE)
    for kind, tid in kinds.items():
        pages = COMMON + ORGANISER + BY_KIND.get(kind.removeprefix("stage-"), ())
        if kind == "registration":  # no round is paired, nobody has a number yet
            pages = tuple(p for p in pages if p != "/rounds/1")
        else:
            pages += PLAYER
        paths += [f"/t/{tid}{suffix}" for suffix in pages]
    return paths


@pytest.mark.parametrize("locale", ["en-US", "ru-RU"])
def test_every_page_fits_a_phone(
    site: tuple[str, dict[str, int]], locale: str, browser: Any
) -> None:
    url, kinds = site
    context, page = demo_signed_in(browser, url, viewport=PHONE, locale=locale)
    too_wide: list[tuple[str, Any]] = []
    for path in _paths(kinds):
        answer = page.goto(url + path)
        assert answer is not None and answer.status < 400, (path, answer and answer.status)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            too_wide.append((path, width))
    context.close()
    assert too_wide == [], f"pages wider than {PHONE['width']} px ({locale}): {too_wide}"
