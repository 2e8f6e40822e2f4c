"""The regulations page and the bracket read the stored settings in the reader's language."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_service_support import migrated

from crosstable.core.pairing.knockout import MatchFormat, TieRule
from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web import i18n
from crosstable.web.app import create_app
from crosstable.web.regulation_text import (
    match_format_text,
    regulation_items,
    tie_rule_text,
)
from tests.asgi_client import TestClient


@pytest.fixture()
def russian() -> Iterator[None]:
    token = i18n.current.set("ru")
    yield
    i18n.current.reset(token)


def test_round_names_count_players_in_english_and_matches_in_russian(russian: None) -> None:
    assert i18n.knockout_round("round of 16") == "1/8 финала"
    assert i18n.knockout_round("round of 64") == "1/32 финала"
    assert i18n.knockout_round("final") == "Финал"
    token = i18n.current.set("en")
    try:
        assert i18n.knockout_round("round of 16") == "Round of 16"
        assert i18n.knockout_round("semi-final") == "Semi-final"
    finally:
        i18n.current.reset(token)


def test_knockout_settings_read_as_sentences(russian: None) -> None:
    shown = dict(
        regulation_items(
            {
                "match_format": "2-at-once",
                "tie_rule": "rapid:2,blitz:4,armageddon",
                "round_formats": "final:4,round of 16:1",
                "third_place": True,
                "bracket": "seeded",
                "forbidden": "1-2,3-4-5",
            }
        )
    )
    assert shown["Матч"] == "2 партии одновременно"
    assert shown["При равном счёте"] == (
        "2 партии в рапид, затем 4 партии в блиц, затем армагеддон"
    )
    assert shown["Матчи по раундам"] == "Финал: 4 партии со сменой цвета; 1/8 финала: 1 партия"
    assert shown["Матч за третье место"] == "да"
    assert shown["Сетка"].startswith("по посеву")
    assert shown["Запрещённые пары"] == "1 и 2; 3, 4 и 5"


def test_unknown_or_unreadable_values_are_shown_as_stored() -> None:
    shown = regulation_items({"tie_rule": "coin toss", "prize_fund": "Club 64"})
    assert shown == [("On a tie", "coin toss"), ("prize_fund", "Club 64")]


@given(games=st.integers(1, 12), at_once=st.booleans())
def test_every_match_format_names_its_games(games: int, at_once: bool) -> None:
    if at_once and games % 2:
        games += 1
    text = match_format_text(MatchFormat(games, at_once).label())
    assert text.startswith(f"{games} game")
    assert ("at once" in text) == at_once
    assert ("colours swapped" in text) == (games > 1 and not at_once)


@given(
    stages=st.lists(st.tuples(st.sampled_from(["rapid", "blitz"]), st.integers(1, 6)), max_size=3),
    decider=st.sampled_from(["lower-rated", "lots", "armageddon", "sudden-death"]),
)
def test_every_tie_rule_lists_its_stages_then_the_decider(
    stages: list[tuple[str, int]], decider: str
) -> None:
    label = TieRule.parse(",".join([f"{k}:{n}" for k, n in stages] + [decider])).label()
    parts = tie_rule_text(label).split(", then ")
    assert len(parts) == len(stages) + 1
    for (kind, count), part in zip(stages, parts, strict=False):
        assert part.startswith(str(count)) and kind in part
    assert decider.replace("-", " ") in parts[-1] or "goes on" in parts[-1] or "lot" in parts[-1]


def test_the_regulations_page_of_a_knockout_in_russian(tmp_path: Path) -> None:
    service = Service(
        open_store(migrated(f"sqlite:///{tmp_path / 'ko.db'}")), random=random.Random(3)
    )
    accounts = Accounts(service.store)
    admin = accounts.create_user("arbiter", "password-arbiter", is_admin=True)
    token = accounts.create_token(admin.id, "test")
    with TestClient(create_app(service=service)) as client:
        client.cookies.set("lang", "ru")
        created = client.post(
            "/api/v1/tournaments",
            headers={"Authorization": f"Bearer {token}"},
            json={
                "name": "Кубок",
                "format": "knockout",
                "players": [{"name": f"P{i}", "rating": 2000 - i} for i in range(1, 17)],
                "match_format": "2",
                "tie_rule": "playoff",
            },
        )
        assert created.status_code in (200, 201), created.text
        tid = created.json()["id"]
        page = client.get(f"/t/{tid}/regulations").text
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
        assert "Матч 2 партии со сменой цвета" in text
        assert "2 партии в рапид, затем 2 партии в блиц, затем армагеддон" in text
        assert "rapid:2" not in text


def test_a_group_of_an_event_names_its_stage_and_hides_the_link_keys() -> None:
    from crosstable.service.stage_view import group_details

    details = group_details(
        "k3y", "Spring cup", "B", 4, 2, match_format="2", tie_rule="playoff", third_place=True
    )
    shown = dict(regulation_items(details))
    assert shown["Group"] == "B" and shown["Groups in the event"] == "4"
    assert shown["Qualifiers per group"] == "2" and shown["Event"] == "Spring cup"
    assert shown["Knockout: match"] == "2 games, colours swapped"
    assert shown["Knockout: on a tie"].startswith("2 rapid games, then 2 blitz games")
    assert shown["Knockout: match for third place"] == "yes"
    assert "k3y" not in shown.values() and "stage_event" not in shown
