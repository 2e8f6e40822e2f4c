"""Two players of one name are told apart on every page and print: wherever the name is
shown, a number is beside it (the starting number once drawn, the registration number
before), and the two get different numbers. The warning when the second is entered is
tested in tests/test_newcomer_input.py."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from crosstable.core.model import LotsMethod, System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

NAME = "Anna Petrova"
TAGS = re.compile(r"<script.*?</script>|<style.*?</style>|<[^>]+>", re.S)


def shown_with_numbers(html: str) -> list[str]:
    """For each time the name is shown, the number beside it ("" when there is none)."""
    text = " ".join(unescape(TAGS.sub(" ", html)).split()).replace(NAME.upper(), NAME)
    found = []
    for match in re.finditer(re.escape(NAME), text):
        before = text[max(0, match.start() - 12) : match.start()]
        after = text[match.end() : match.end() + 16]
        number = re.search(r"(\d+)\s*\.?\s*$", before) or re.search(r"^[^#]*?#(\d+)", after)
        found.append(number.group(1) if number else "")
    return found


def told_apart(html: str, where: str) -> None:
    numbers = shown_with_numbers(html)
    assert numbers, f"{where}: the name is not shown"
    assert "" not in numbers, f"{where}: {NAME} shown without a number: {numbers}"
    assert len(set(numbers)) >= 2, f"{where}: only {set(numbers)} beside the two {NAME}"


@pytest.fixture
def club(tmp_path: Path) -> tuple[TestClient, Service, int, int]:
    service = Service(open_store(str(tmp_path / "names.db")))
    client = TestClient(create_app(service=service, listen=False))
    players = [PlayerInfo(NAME, rating=1900), PlayerInfo("Boris"), PlayerInfo(NAME.upper())]
    players.append(PlayerInfo("Clara", rating=1700))
    rr = service.create_tournament(Regulations(name="Club"), players=players).tournament_id
    ko = service.create_tournament(
        Regulations(name="Cup", system=System.KNOCKOUT), players=players
    ).tournament_id
    return client, service, rr, ko


def test_before_the_draw_the_registration_numbers_tell_them_apart(club) -> None:  # type: ignore[no-untyped-def]
    client, _service, rr, _ko = club
    told_apart(client.get(f"/t/{rr}/regulations").text, "regulations")


def test_every_page_and_print_tells_them_apart(club) -> None:  # type: ignore[no-untyped-def]
    client, service, rr, ko = club
    for tid in (rr, ko):
        service.draw_lots(tid, LotsMethod.RANDOM, seed=3)
        service.start(tid)
    pages = [
        f"/t/{rr}",
        f"/t/{rr}/standings",
        f"/t/{rr}/rounds/1",
        f"/t/{rr}/regulations",
        f"/t/{rr}/venue/body",
        f"/t/{rr}/print/crosstable",
        f"/t/{rr}/print/pairings",
        f"/t/{rr}/print/slips",
        f"/t/{rr}/checkin",
        f"/t/{ko}/rounds/1",
        f"/t/{ko}",
    ]
    for path in pages:
        answer = client.get(path)
        assert answer.status_code == 200, path
        if NAME in unescape(answer.text) or NAME.upper() in answer.text:
            told_apart(answer.text, path)


def test_the_api_warns_when_a_name_is_given_twice(club) -> None:  # type: ignore[no-untyped-def]
    client, service, _rr, _ko = club
    tid = service.create_tournament(Regulations(name="Api")).tournament_id
    accounts = client.app.state.site.accounts  # type: ignore[attr-defined]
    admin = accounts.create_user("admin", "password-admin", is_admin=True)
    accounts.claim(tid, admin)
    auth = {"Authorization": f"Bearer {accounts.create_token(admin.id)}"}
    first = client.post(f"/api/v1/tournaments/{tid}/players", json={"name": NAME}, headers=auth)
    assert first.status_code == 201 and first.json()["warnings"] == []
    again = client.post(
        f"/api/v1/tournaments/{tid}/players", json={"name": NAME.lower()}, headers=auth
    )
    assert again.status_code == 201
    assert again.json()["warnings"] == [
        f"2 players are named {NAME}: the pages tell them apart by their numbers"
    ]
    russian = client.post(
        f"/api/v1/tournaments/{tid}/players",
        json={"name": NAME},
        headers={**auth, "Accept-Language": "ru"},
    )
    assert "3" in russian.json()["warnings"][0] and "players are named" not in russian.text
