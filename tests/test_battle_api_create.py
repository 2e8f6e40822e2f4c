"""A battle-chess tournament created through the JSON API (issue 12 item 1: every
surface): ``variant`` and ``setup_minutes`` in the body of ``POST /api/v1/tournaments``,
checked by the battle-chess rules, refused with the field or the rule named (and in
Russian)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_battle_web import site  # noqa: F401

PLAYERS = [{"name": n, "rating": 1800} for n in ("Anna", "Boris", "Clara", "Dmitri")]


def test_the_api_creates_a_battle_chess_tournament(site: Any) -> None:  # noqa: F811
    client, service, _tid, auth = site
    body = {"name": "Battle API", "variant": "battle", "setup_minutes": 7, "players": PLAYERS}
    made = client.post("/api/v1/tournaments", json=body, headers=auth)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    rules = service.battle_rules(tid)
    assert rules is not None and rules.setup_minutes == 7
    assert client.get(f"/api/v1/tournaments/{tid}/battle").json() == {
        "battle": True,
        "setup_minutes": 7,
        "colours_drawn": [],
        "seed": None,
    }
    shown = client.get(f"/api/v1/tournaments/{tid}").json()["settings"]["regulations"]
    assert shown["variant"] == "battle" and shown["battle_seed"].startswith("sha256:")
    # the regulations page says each rule in words, and how a set-up timeout counts
    page = client.get(f"/t/{tid}/regulations").text
    assert "the usual alternation of colours does not apply" in page
    assert "7 minutes: if neither player has finished setting up" in page
    assert "counts as a game played in the tie-breaks" in page and "not rated" in page
    russian = client.get(f"/t/{tid}/regulations", headers={"Accept-Language": "ru"}).text
    assert "обычное чередование цвета не действует" in russian
    assert "считается сыгранной для дополнительных показателей" in russian
    classical = client.post(
        "/api/v1/tournaments", json={"name": "Classical", "players": PLAYERS}, headers=auth
    )
    assert client.get(f"/api/v1/tournaments/{classical.json()['id']}/battle").json() == {
        "battle": False
    }


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ({"format": "swiss", "variant": "battle"}, "battle chess is a round robin here"),
        ({"setup_minutes": 5}, "setup minutes: only a battle-chess tournament has one"),
        ({"variant": "battle", "setup_minutes": 900}, "setup_minutes"),
        ({"variant": "atomic"}, "variant"),
    ],
)
def test_the_api_refuses_bad_battle_settings(
    site: Any,  # noqa: F811
    extra: dict[str, Any],
    said: str,
) -> None:
    client, service, _tid, auth = site
    before = len(service.tournaments())
    refused = client.post(
        "/api/v1/tournaments", json={"name": "Bad", "players": PLAYERS} | extra, headers=auth
    )
    assert refused.status_code == 422, refused.text
    assert said in refused.text
    assert len(service.tournaments()) == before  # nothing made


def test_the_refusal_in_russian(site: Any) -> None:  # noqa: F811
    client, _service, _tid, auth = site
    refused = client.post(
        "/api/v1/tournaments",
        json={"name": "Bad", "format": "swiss", "variant": "battle", "players": PLAYERS},
        headers=auth | {"Accept-Language": "ru"},
    )
    assert refused.status_code == 422
    assert "боевые шахматы" in refused.json()["detail"].lower()
