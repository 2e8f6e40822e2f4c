"""A game server posts battle-chess set-up timeouts through the API (issue 12 item 1,
R-SE-9): with the administrator's game-server token granted the tournament — by the
set-up-timeout endpoint and in a batch of results — each recorded with the game
server as the actor, shown with its mark in the crosstable; refused with the reason
for a round whose colours are not drawn yet, for a classical tournament, and for a
tournament not granted to it. On SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_game_servers / test_service_support

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from test_game_servers import World, world  # noqa: F401
from test_service_support import db_url, migrated_url, started  # noqa: F401

BATTLE = {"variant": "battle", "setup_minutes": "5", "battle_seed": "77"}


def test_a_game_server_posts_set_up_timeouts(world: World) -> None:
    battle = started(world.service, 4, details=BATTLE)
    other_battle = started(world.service, 4, details=BATTLE)
    classical = world.tids[0]
    _token, auth = world.game_server(tournaments=[battle, classical])
    base = f"/api/v1/tournaments/{battle}/rounds"

    posted = world.post(f"{base}/1/boards/1/setup-timeout", {"finished": "white"}, auth)
    assert posted.status_code == 200, posted.text
    batch = world.post(
        "/api/v1/results",
        {
            "results": [
                {"tournament": battle, "round": 1, "board": 2, "result": "setup-draw"},
                # round 1 is complete: round 2's colours are drawn, so this one is taken
                {
                    "tournament": battle,
                    "round": 2,
                    "board": 1,
                    "result": "WL",
                    "reason": "setup-timeout",
                },
                # round 2 is not complete yet: round 3's colours are not drawn
                {"tournament": battle, "round": 3, "board": 1, "result": "1-0"},
            ]
        },
        auth,
    ).json()
    assert [r["status"] for r in batch["results"]] == ["accepted", "accepted", "refused"]
    assert batch["results"][2]["code"] == 422
    assert "the colours of round 3 are not drawn yet" in batch["results"][2]["detail"]
    undrawn = world.post(f"{base}/3/boards/2/setup-timeout", {"finished": "none"}, auth)
    assert undrawn.status_code == 422 and "not drawn yet" in undrawn.json()["detail"]

    games = {(g.round, g.board): g.result for g in world.service.overview(battle).games}
    assert (games[(1, 1)], games[(1, 2)], games[(2, 1)]) == ("WL", "DD", "WL")
    history = [h for h in world.service.history(battle) if h.kind == "result"]
    assert [h.actor for h in history] == ["bridge"] * 3
    assert all("(set-up timeout)" in h.summary for h in history)
    crossing = world.client.get(f"/api/v1/tournaments/{battle}/crosstable").json()["players"]
    shown = {r["result"] for p in crossing for games in p["results"].values() for r in games}
    assert {"1†", "0†", "½†"} <= shown

    path = "/api/v1/tournaments/{}/rounds/1/boards/1/setup-timeout"
    not_battle = world.post(path.format(classical), {"finished": "none"}, auth)
    assert not_battle.status_code == 422
    assert "a set-up timeout is a battle-chess result" in not_battle.json()["detail"]
    russian = world.client.post(
        path.format(classical),
        json={"finished": "none"},
        headers=auth | {"Accept-Language": "ru"},
    )
    assert "только в боевых шахматах" in russian.json()["detail"]
    not_granted = world.post(path.format(other_battle), {"finished": "black"}, auth)
    assert not_granted.status_code == 403
