"""The portal's rules (seed 002): an organiser may invite helpers from the site's users,
and a helper may not enter, confirm, correct or reject the result of a game they play in
— the organiser decides it. Through the result page, the JSON API and a batch of results;
the refusal is said in English and Russian. A real SQLite file."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from test_service_support import migrated

from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient


@dataclass
class Club:
    service: Service
    accounts: Accounts
    client: TestClient
    tid: int
    own_board: int
    other_board: int
    tokens: dict[str, str]


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'helpers.db'}")))
    accounts = Accounts(service.store)
    organiser = accounts.create_user("organiser", "password-organiser", is_master=True)
    helper = accounts.create_user("helper", "password-helper")
    tid = service.create_tournament(Regulations(name="Club")).tournament_id
    accounts.claim(tid, organiser)
    accounts.set_access(tid, approval="approved")
    accounts.set_staff(tid, helper.id, "helper")
    for index in range(4):
        change = service.add_player(tid, PlayerInfo(f"Player {index + 1}"))
        if index == 0:  # the helper plays too: entry 1
            accounts.link_entry(tid, int(change.data["number"]), helper.id)
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    games = [g for g in service.overview(tid).games if g.round == 1]
    own = next(g.board for g in games if 1 in (g.white, g.black))
    other = next(g.board for g in games if 1 not in (g.white, g.black))
    tokens = {
        "organiser": accounts.create_token(organiser.id),
        "helper": accounts.create_token(helper.id),
    }
    client = TestClient(create_app(service=service))
    try:
        yield Club(service, accounts, client, tid, own, other, tokens)
    finally:
        service.store.close()


def bearer(club: Club, who: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {club.tokens[who]}"}


def result(club: Club, board: int) -> str | None:
    games = club.service.overview(club.tid).games
    game = next(g for g in games if g.round == 1 and g.board == board)
    return game.result


def test_seed_002_a_helper_may_not_enter_the_result_of_their_own_game_in_the_api(
    club: Club,
) -> None:
    url = f"/api/v1/tournaments/{club.tid}/rounds/1/boards/{club.own_board}"
    refused = club.client.post(
        f"{url}/result", json={"result": "1-0"}, headers=bearer(club, "helper")
    )
    assert refused.status_code == 403, refused.text
    assert "you play in this game" in refused.text
    assert result(club, club.own_board) is None
    in_russian = club.client.post(
        f"{url}/result",
        json={"result": "1-0"},
        headers=bearer(club, "helper") | {"Accept-Language": "ru"},
    )
    assert in_russian.status_code == 403 and "вы играете в этой партии" in in_russian.text
    # another game: the helper enters it; their own: the organiser does
    other = f"/api/v1/tournaments/{club.tid}/rounds/1/boards/{club.other_board}/result"
    assert (
        club.client.post(other, json={"result": "½-½"}, headers=bearer(club, "helper")).status_code
        == 200
    )
    done = club.client.post(
        f"{url}/result", json={"result": "0-1"}, headers=bearer(club, "organiser")
    )
    assert done.status_code == 200 and result(club, club.own_board) == "0-1"
    for action, body in (("correct", {"result": "1-0", "expected": "0-1"}), ("reject", None)):
        answer = club.client.post(f"{url}/{action}", json=body, headers=bearer(club, "helper"))
        assert answer.status_code == 403 and "you play in this game" in answer.text, action
    assert result(club, club.own_board) == "0-1"


def test_seed_002_a_helper_may_not_confirm_their_own_game_on_the_page(club: Club) -> None:
    signin = club.client.get("/signin").text
    token = re.search(r'name="csrf-token" content="([^"]+)"', signin)
    assert token is not None
    club.client.post(
        "/signin",
        data={"username": "helper", "password": "password-helper", "csrf_token": token.group(1)},
        follow_redirects=False,
    )
    page = club.client.get(f"/t/{club.tid}/rounds/1").text
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert csrf is not None
    form = {"csrf_token": csrf.group(1), "action": "record", "result": "1-0"}
    refused = club.client.post(f"/t/{club.tid}/rounds/1/boards/{club.own_board}", data=form)
    assert refused.status_code == 403 and "you play in this game" in refused.text
    assert result(club, club.own_board) is None
    done = club.client.post(f"/t/{club.tid}/rounds/1/boards/{club.other_board}", data=form)
    assert done.status_code == 200 and result(club, club.other_board) == "1-0"


def test_seed_002_a_batch_refuses_only_the_helpers_own_game(club: Club) -> None:
    items = [
        {"tournament": club.tid, "round": 1, "board": club.own_board, "result": "1-0"},
        {"tournament": club.tid, "round": 1, "board": club.other_board, "result": "0-1"},
    ]
    answer = club.client.post(
        "/api/v1/results", json={"results": items}, headers=bearer(club, "helper")
    )
    assert answer.status_code == 200, answer.text
    own, other = answer.json()["results"]
    assert own["status"] == "refused" and own["code"] == 403
    assert "you play in this game" in str(own["detail"])
    assert other["status"] == "accepted"
    assert result(club, club.own_board) is None and result(club, club.other_board) == "0-1"
