"""The start by the clock through the JSON API, the organiser's page and the command line:
a knockout's capacity of 2ⁿ, its start time, its daily rounds; bad values refused with a
clear message in the reader's language, nothing changed; ``crosstable tick`` starts it."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_service_support import db_url  # noqa: F401

from crosstable.cli import main
from crosstable.core.model import System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient


class World:
    def __init__(self, url: str) -> None:
        self.store = open_store(url)
        self.service = Service(self.store)
        self.accounts = Accounts(self.store)
        admin = self.accounts.create_user("arbiter", "password-arbiter", is_admin=True)
        self.auth = {"Authorization": f"Bearer {self.accounts.create_token(admin.id, 't')}"}
        self.client = TestClient(create_app(service=self.service))
        self.csrf = _csrf(self.client.get("/signin").text)
        self.client.post(
            "/signin",
            data={"username": "arbiter", "password": "password-arbiter", "csrf_token": self.csrf},
        )
        self.csrf = _csrf(self.client.get("/").text)

    def knockout(self, players: int) -> int:
        tid = self.service.create_tournament(
            Regulations(name="Cup", system=System.KNOCKOUT)
        ).tournament_id
        for index in range(players):
            self.service.add_player(tid, PlayerInfo(f"P{index + 1}", rating=2000 + index))
        return tid


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert match
    return match.group(1)


@pytest.fixture
def world(db_url: str) -> Iterator[World]:
    made = World(db_url)
    with made.client:
        yield made
    made.store.close()


def test_r_ko_1_api_sets_and_shows_the_capacity_and_refuses_a_bad_one(world: World) -> None:
    tid = world.knockout(3)
    url = f"/api/v1/tournaments/{tid}/autostart"
    assert world.client.put(url, json={"capacity": "4"}).status_code in (401, 403)
    answer = world.client.put(
        url,
        json={"capacity": "4", "starts_at": "2026-12-07T18:00", "round_time": "18:00"},
        headers=world.auth,
    )
    assert answer.status_code == 200, answer.text
    plan = answer.json()
    assert plan["capacity"] == 4 and plan["seats_left"] == 1 and not plan["full"]
    assert plan["starts_at"] == "2026-12-07T18:00:00+00:00" and plan["draw"] == "random"
    assert isinstance(plan["lots_seed"], int)
    for bad, said in (({"capacity": "6"}, "power of two"), ({"round_time": "25:00"}, "18:00")):
        refused = world.client.put(url, json=bad, headers=world.auth)
        assert refused.status_code == 422 and said in refused.json()["detail"]
    russian = world.client.put(
        url, json={"capacity": "6"}, headers={**world.auth, "Accept-Language": "ru"}
    )
    assert russian.status_code == 422 and "степень двойки" in russian.json()["detail"]
    armenian = world.client.put(
        url, json={"capacity": "6"}, headers={**world.auth, "Accept-Language": "hy"}
    )
    assert armenian.status_code == 422 and "երկուսի" in armenian.json()["detail"]
    assert world.client.get(url).json()["capacity"] == 4  # nothing changed
    smaller = world.client.put(url, json={"capacity": "2"}, headers=world.auth)
    assert smaller.status_code == 422 and "3 players have registered" in smaller.text
    world.service.add_player(tid, PlayerInfo("P4"))
    full = world.client.post(
        f"/api/v1/tournaments/{tid}/players", json={"name": "P5"}, headers=world.auth
    )
    assert full.status_code in (400, 409, 422) and "the field is full" in full.text
    assert world.client.get(url).json()["full"] is True


def test_r_x_4_the_manage_page_form_sets_the_start(world: World) -> None:
    tid = world.knockout(2)
    page = world.client.get(f"/t/{tid}/manage").text
    assert 'id="autostart"' in page and 'name="autostart_capacity"' in page
    answer = world.client.post(
        f"/t/{tid}/manage/autostart",
        data={
            "csrf_token": world.csrf,
            "autostart_starts_at": "2026-12-07T18:00",
            "autostart_time_zone": "Europe/Moscow",
            "autostart_capacity": "2",
            "autostart_round_time": "",
            "autostart_if_short": "wait",
        },
    )
    assert answer.status_code == 200
    regulations = world.service.overview(tid).settings["regulations"]
    assert regulations["capacity"] == "2" and regulations["time_zone"] == "Europe/Moscow"
    assert "the field is full" in answer.text


def test_r_x_4_command_line_sets_the_start_and_tick_starts_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'cup.db'}"
    store = open_store(db)
    service = Service(store)
    tid = service.create_tournament(Regulations(name="Cup", system=System.KNOCKOUT)).tournament_id
    for index in range(4):
        service.add_player(tid, PlayerInfo(f"P{index + 1}", rating=2000 + index))
    store.close()
    capsys.readouterr()
    assert main(["autostart", "-t", str(tid), "--capacity", "6", "--db", db]) == 2
    assert "power of two" in capsys.readouterr().err
    at = ["--at", "2026-12-07T18:00:00+00:00", "--format", "json", "--db", db]
    assert main(["autostart", "-t", str(tid), "--capacity", "4", *at]) == 0
    plan: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert plan["full"] is True and plan["seats_left"] == 0 and plan["draw"] == "random"
    assert main(["tick", "--db", db, "--now", "2026-12-07T17:59:00+00:00"]) == 0
    assert "nothing is due" in capsys.readouterr().out
    assert main(["tick", "--db", db, "--now", "2026-12-07T18:00:00+00:00"]) == 0
    out = capsys.readouterr().out
    assert "knockout started" in out and f"seed {plan['lots_seed']}" in out
    assert main(["autostart", "-t", str(tid), "--format", "yaml", "--db", db]) == 2
