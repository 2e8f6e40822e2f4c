"""The wizard's field of players (issue 15 item 6): a field too small for the format is
refused at creation, with the players field named and the form kept as typed, for every
format's minimum; the preview shows what will be created (an empty field: no players yet;
a number alone only plans)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_service_support import migrated

from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from crosstable.web.routes.wizard import MINIMUM
from tests.asgi_client import TestClient


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert match
    return match.group(1)


@pytest.fixture
def web(tmp_path: Path) -> Iterator[tuple[TestClient, Service, str]]:
    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'wizard.db'}")))
    Accounts(service.store).create_user("ann", "password-ann", is_admin=True)
    with TestClient(create_app(service=service)) as client:
        token = _csrf(client.get("/signin").text)
        client.post(
            "/signin", data={"username": "ann", "password": "password-ann", "csrf_token": token}
        )
        yield client, service, _csrf(client.get("/").text)


def _players(count: int) -> str:
    return "\n".join(f"Player {chr(65 + i)}, {2300 - 10 * i}" for i in range(count))


@pytest.mark.parametrize("format_", sorted(MINIMUM))
def test_a_field_below_the_formats_minimum_is_refused_at_creation(web: Any, format_: str) -> None:
    client, service, csrf = web
    least = MINIMUM[format_]
    form: dict[str, Any] = {
        "csrf_token": csrf,
        "name": "Small club",
        "format": format_,
        "list": _players(least - 1),
        "groups": "1",
        "qualifiers": "2",
        "time_control": "90+30",
        "venue": "Club house",
    }
    preview = client.post("/new/preview", data=form).text
    assert f"needs at least {least} players" in preview, preview
    answer = client.post("/new", data=form, follow_redirects=False)
    assert answer.status_code == 422, answer.text
    assert service.tournaments() == []
    page = answer.text
    assert re.search(
        rf'id="wizard-error">players: [^<]* needs at least {least} players, and the list has '
        rf"{least - 1}</p>",
        page,
    ), page
    # the players field is marked, and nothing typed is lost
    assert 'aria-invalid="true" aria-describedby="wizard-error"' in page
    assert f">{_players(least - 1)}</textarea>" in page
    assert 'name="name" value="Small club"' in page and 'name="venue" value="Club house"' in page
    assert re.search(rf'<option value="{format_}"\s*selected>', page)


def test_a_round_robin_of_two_is_refused_in_russian_and_three_is_created(web: Any) -> None:
    client, service, csrf = web
    form = {"csrf_token": csrf, "name": "Club", "format": "round-robin", "list": _players(2)}
    refused = client.post("/new", data=form, headers={"Accept-Language": "ru"})
    assert refused.status_code == 422
    assert "участники: для кругового турнира нужно не меньше 3 участников" in refused.text
    made = client.post("/new", data=form | {"list": _players(3)}, follow_redirects=False)
    assert made.status_code == 303
    assert [t.players for t in service.tournaments()] == [3]


def test_an_empty_field_is_no_players_yet_and_may_be_created(web: Any) -> None:
    client, service, csrf = web
    page = client.get("/new").text
    preview = page[page.index('id="preview"') :]
    assert 'id="pv-empty"' in preview and 'id="pv-players"' not in preview
    assert "needs at least" not in preview
    answer = client.post("/new/preview", data={"csrf_token": csrf, "format": "round-robin"})
    assert 'id="pv-empty"' in answer.text
    created = client.post(
        "/new", data={"csrf_token": csrf, "name": "Open club"}, follow_redirects=False
    )
    assert created.status_code == 303  # players are added on the manage page
    assert [t.players for t in service.tournaments()] == [0]


def test_a_number_alone_only_plans(web: Any) -> None:
    client, _service, csrf = web
    answer = client.post("/new/preview", data={"csrf_token": csrf, "count": "8"}).text
    assert re.search(r'id="pv-players">8 <small>\(to plan only: the tournament is created', answer)
    typed = client.post("/new/preview", data={"csrf_token": csrf, "list": _players(5)}).text
    assert 'id="pv-players">5</dd>' in typed
