"""Game servers (issue 17 item 2): an administrator's token with its own limit for the
tournaments granted to it (service, API, the administrator's page, the command line),
and the batch of results, each its own recorded change with its own idempotency. On
SQLite and PostgreSQL."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from test_service_support import db_url, make_service, migrated_url, started  # noqa: F401
from web_support import signed_in

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.service.accounts.tokens import GAME_SERVER_LIMIT, tournament_list
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

PASSWORD = "correct horse battery"


@dataclass
class World:
    service: Service
    accounts: Accounts
    client: TestClient
    admin: dict[str, str]
    tids: list[int]

    def post(self, path: str, body: Any, auth: dict[str, str]) -> Any:
        return self.client.post(path, json=body, headers=auth)

    def game_server(self, **body: Any) -> tuple[int, dict[str, str]]:
        answer = self.post("/api/v1/game-servers", {"username": "bridge"} | body, self.admin)
        assert answer.status_code == 200, answer.text
        made = answer.json()
        return int(made["id"]), {"Authorization": f"Bearer {made['token']}"}


@pytest.fixture
def world(migrated_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    monkeypatch.setenv("CROSSTABLE_SECRET", "game-servers-test")
    service = make_service(open_store(migrated_url))
    accounts = Accounts(service.store, clock=service.clock)
    admin = accounts.create_user("arbiter", PASSWORD, is_admin=True)
    tids = [started(service, 12) for _ in range(3)]  # 66 games each
    auth = {"Authorization": f"Bearer {accounts.create_token(admin.id)}"}
    try:
        with TestClient(create_app(service=service)) as client:
            yield World(service, accounts, client, auth, tids)
    finally:
        service.store.close()


def _item(tid: int, rnd: int, board: int, result: str = "1-0", **extra: Any) -> dict[str, Any]:
    return {"tournament": tid, "round": rnd, "board": board, "result": result} | extra


def _games(service: Service, tid: int) -> list[tuple[int, int]]:
    return [(g.round, g.board) for g in service.overview(tid).games]


def test_tournament_lists() -> None:
    assert tournament_list("3, 4 10-12") == [3, 4, 10, 11, 12]
    assert tournament_list(" 5 - 7;1 ") == [1, 5, 6, 7]
    for bad in ("x", "3-1", "0", "1-200000", "-3"):
        with pytest.raises(RuleError, match="tournaments: "):
            tournament_list(bad)


def test_a_game_server_posts_for_its_tournaments_only(world: World) -> None:
    granted, other, _third = world.tids
    token_id, auth = world.game_server(tournaments=[granted], label="lichess bridge")
    path = "/api/v1/tournaments/{}/rounds/1/boards/1/result"
    assert world.post(path.format(granted), {"result": "1-0"}, auth).status_code == 200
    refused = world.post(path.format(other), {"result": "1-0"}, auth)
    assert refused.status_code == 403
    # granted later: allowed; taken back: refused again
    assert (
        world.post(
            f"/api/v1/game-servers/{token_id}/grants", {"tournaments": [other]}, world.admin
        ).status_code
        == 200
    )
    assert world.post(path.format(other), {"result": "0-1"}, auth).status_code == 200
    body = {"tournaments": [other], "allowed": False}
    assert world.post(f"/api/v1/game-servers/{token_id}/grants", body, world.admin).json()[
        "tournaments"
    ] == [granted]
    board2 = f"/api/v1/tournaments/{other}/rounds/1/boards/2/result"
    assert world.post(board2, {"result": "1-0"}, auth).status_code == 403
    listed = world.client.get("/api/v1/game-servers", headers=world.admin).json()["game_servers"]
    assert listed == [
        {
            "id": token_id,
            "username": "bridge",
            "label": "lichess bridge",
            "created_at": listed[0]["created_at"],
            "every_tournament": False,
            "per_minute": GAME_SERVER_LIMIT,
            "tournaments": [granted],
        }
    ]
    history = world.service.history(granted)
    assert history[-1].actor == "bridge"  # the game server's account is the actor
    # only administrators manage game servers; a revoked token is refused
    assert world.client.get("/api/v1/game-servers", headers=auth).status_code == 403
    assert (
        world.client.delete(f"/api/v1/game-servers/{token_id}", headers=world.admin).status_code
        == 200
    )
    assert world.post(path.format(granted), {"result": "1-0"}, auth).status_code == 401


def test_a_batch_records_each_result_and_says_which_were_refused(world: World) -> None:
    tid, other, _third = world.tids
    _token, auth = world.game_server(tournaments=[tid])
    spots = _games(world.service, tid)
    before = world.service.overview(tid).revision
    untouched = world.service.overview(other).revision
    batch = [
        _item(tid, *spots[0], idempotency_key="k1"),
        _item(tid, *spots[1], "draw-ish"),  # not a result
        _item(tid, *spots[2], "-+", reason="no-show"),
        _item(tid, 99, 1),  # no such round
        _item(other, 1, 1),  # not granted
        {"tournament": tid, "round": 1, "result": "1-0"},  # no board
        _item(tid, *spots[0], idempotency_key="k1"),  # the first again: its first answer
        _item(tid, *spots[0], "0-1"),  # has a result now
        _item(tid, *spots[3], "1/2-1/2"),
    ]
    answer = world.post("/api/v1/results", {"results": batch}, auth)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    statuses = [(r["index"], r["status"], r.get("code")) for r in body["results"]]
    assert statuses == [
        (0, "accepted", None),
        (1, "refused", 422),
        (2, "accepted", None),
        (3, "refused", 404),
        (4, "refused", 403),
        (5, "refused", 422),
        (6, "accepted", None),
        (7, "refused", 409),
        (8, "accepted", None),
    ], body
    assert (body["accepted"], body["refused"]) == (4, 5)
    results = body["results"]
    assert (
        results[6]["change"]["replayed"]
        and results[6]["change"]["seq"] == results[0]["change"]["seq"]
    )
    assert "board" in results[5]["detail"]  # the field named
    assert all(r["detail"] for r in results if r["status"] == "refused")
    # each accepted result its own recorded change, in the batch's order
    seqs = [results[i]["change"]["seq"] for i in (0, 2, 8)]
    assert seqs == [before + 1, before + 2, before + 3]
    assert world.service.overview(tid).revision == before + 3
    games = {(g.round, g.board): g.result for g in world.service.overview(tid).games}
    assert [games[spots[i]] for i in range(4)] == ["1-0", None, "-+", "½-½"]
    assert world.service.overview(other).revision == untouched  # (not granted)


def test_a_game_server_of_every_tournament_is_refused_as_one_of_some(world: World) -> None:
    # the same answers for a tournament that is not there, and for what the rows refuse,
    # whether the token is for every tournament or granted the one
    tid, other, _third = world.tids
    _one, every = world.game_server(every_tournament=True)
    _two, some = world.game_server(username="bridge2", tournaments=[tid])
    spots = _games(world.service, tid)
    answers = []
    for auth, spot in ((every, spots[0]), (some, spots[1])):
        batch = [
            _item(123456, 1, 1),
            _item(tid, *spot),
            _item(tid, *spot, "0-1"),
            _item(tid, 99, 1),
        ]
        answer = world.post("/api/v1/results", {"results": batch}, auth)
        assert answer.status_code == 200, answer.text
        answers.append(
            [(r["status"], r.get("code"), r.get("detail")) for r in answer.json()["results"]]
        )
    assert [answers[0][i] for i in (0, 3)] == [answers[1][i] for i in (0, 3)]
    for found in answers:
        assert [code for _status, code, _detail in found] == [404, None, 409, 404]
    assert "123456" in str(answers[0][0][2])
    # and it records in any tournament
    done = world.post("/api/v1/results", {"results": [_item(other, 1, 1)]}, every).json()
    assert done["accepted"] == 1


def test_refusals_in_the_readers_language(world: World) -> None:
    tid = world.tids[0]
    _token, auth = world.game_server(tournaments=[tid])
    answer = world.client.post(
        "/api/v1/results",
        json={"results": [_item(tid, 99, 1)]},
        headers=auth | {"Accept-Language": "ru"},
    )
    detail = answer.json()["results"][0]["detail"]
    assert re.search("[а-я]", detail), detail


def test_a_batch_is_bounded_and_needs_a_token(world: World) -> None:
    tid = world.tids[0]
    _token, auth = world.game_server(tournaments=[tid])
    too_many = {"results": [_item(tid, 1, 1)] * 501}
    assert world.post("/api/v1/results", too_many, auth).status_code == 422
    assert world.client.post("/api/v1/results", json={"results": []}).status_code == 401
    bad = {"Authorization": "Bearer ct_nothing"}
    assert world.post("/api/v1/results", {"results": []}, bad).status_code == 401


def test_a_game_server_has_its_own_limit(world: World) -> None:
    """A personal token's user is held at 60 results a minute; a game server's token
    at its own (a batch counts each of its results)."""
    tid, other, third = world.tids
    helper = world.accounts.create_user("helper", PASSWORD)
    for t in (tid, other):
        world.accounts.set_staff(t, helper.id, "helper")
    personal = {"Authorization": f"Bearer {world.accounts.create_token(helper.id)}"}
    spots = _games(world.service, tid)
    over = world.post(
        "/api/v1/results", {"results": [_item(tid, *s) for s in spots[:61]]}, personal
    )
    assert over.status_code == 429 and over.headers["Retry-After"]
    _token, auth = world.game_server(tournaments=[tid, other, third])
    answer = world.post("/api/v1/results", {"results": [_item(tid, *s) for s in spots[:61]]}, auth)
    assert answer.status_code == 200 and answer.json()["accepted"] == 61
    _slow, limited = world.game_server(username="slow", tournaments=[other], per_minute=3)
    spots = _games(world.service, other)
    fine = world.post(
        "/api/v1/results", {"results": [_item(other, *s) for s in spots[:3]]}, limited
    )
    assert fine.json()["accepted"] == 3
    single = f"/api/v1/tournaments/{other}/rounds/{spots[3][0]}/boards/{spots[3][1]}/result"
    assert world.post(single, {"result": "1-0"}, limited).status_code == 429


def test_the_administrators_page(world: World) -> None:
    client = world.client
    csrf = signed_in(client, "arbiter", PASSWORD)
    page = client.get("/admin/game-servers")
    assert page.status_code == 200 and "New game server" in page.text
    tid = world.tids[0]
    form = {"username": "chessbridge", "tournaments": f"{tid}", "per_minute": "120"}
    made = client.post("/admin/game-servers", data=form | {"csrf_token": csrf})
    shown = re.search(r'<code id="new-token">([^<]+)</code>', made.text)
    assert shown, made.text
    auth = {"Authorization": f"Bearer {shown.group(1)}"}
    path = f"/api/v1/tournaments/{tid}/rounds/1/boards/1/result"
    assert world.post(path, {"result": "1-0"}, auth).status_code == 200
    again = client.get("/admin/game-servers").text
    assert "@chessbridge" in again and "120" in again and 'id="new-token"' not in again
    bad = client.post(
        "/admin/game-servers",
        data={"username": "x2", "tournaments": "1-x", "csrf_token": csrf},
        follow_redirects=False,
    )
    assert bad.status_code == 303  # back to the page, with the reason as a flash
    assert "1-x" in client.get("/admin/game-servers").text
    assert world.accounts.find_user("x2") is None
    # a non-administrator is refused
    world.accounts.create_user("nobody", PASSWORD)
    other = TestClient(client.app)
    signed_in(other, "nobody", PASSWORD)
    assert other.get("/admin/game-servers").status_code == 403


def test_the_command_line(world: World, capsys: pytest.CaptureFixture[str]) -> None:
    url = str(world.service.store.url)
    tid, other, _third = world.tids
    assert (
        main(
            [
                "game-server",
                "create",
                "bridge",
                "--tournaments",
                f"{tid}",
                "--per-minute",
                "50",
                "--db",
                url,
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    token_id = int(re.search(r"token (\d+) for @bridge: (ct_\S+)", printed).group(1))  # type: ignore[union-attr]
    assert (
        main(["game-server", "grant", str(token_id), "--tournaments", f"{other}", "--db", url]) == 0
    )
    capsys.readouterr()
    assert main(["game-server", "list", "--db", url]) == 0
    listed = capsys.readouterr().out
    assert '"per_minute": 50' in listed and str(other) in listed
    assert main(["game-server", "grant", str(token_id), "--tournaments", "x", "--db", url]) == 2
    assert "tournaments: 'x' is not a number or a range" in capsys.readouterr().err
    assert main(["game-server", "grant", "999", "--tournaments", "1", "--db", url]) == 2
    assert main(["game-server", "revoke", str(token_id), "--db", url]) == 0
    assert world.accounts.game_servers() == []
