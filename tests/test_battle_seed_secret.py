"""The seed of a battle-chess tournament's colours stays secret until the finish: whoever
knew it could work out the colours of games still to come (issue 12 item 1)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_battle_web import BATTLE, site  # noqa: F401

SEED = BATTLE["battle_seed"]


def test_the_seed_is_published_as_its_digest_until_the_finish(site: Any) -> None:  # noqa: F811
    client, service, tid, auth = site
    digest = hashlib.sha256(SEED.encode()).hexdigest()
    shown = client.get(f"/api/v1/tournaments/{tid}").json()["settings"]["regulations"]
    assert shown["battle_seed"] == "sha256:" + digest
    assert SEED not in client.get(f"/t/{tid}/regulations").text
    assert digest in client.get(f"/t/{tid}/regulations").text
    for url in (f"/api/v1/tournaments/{tid}/export/json", f"/t/{tid}/export/trf2026"):
        refused = client.get(url)
        assert refused.status_code == 403, url
        assert "once it is finished" in refused.text
    organiser = client.get(f"/api/v1/tournaments/{tid}/export/json", headers=auth)
    assert organiser.status_code == 200
    assert organiser.json()["tournament"]["regulations"]["battle_seed"] == SEED
    _finish(service, tid)
    assert service.overview(tid).status == "finished"
    shown = client.get(f"/api/v1/tournaments/{tid}").json()["settings"]["regulations"]
    assert shown["battle_seed"] == SEED
    assert client.get(f"/api/v1/tournaments/{tid}/export/json").status_code == 200


def _finish(service: Any, tid: int) -> None:
    """Every game a result, as the round's colours come (each round drawn when the
    previous one ends)."""
    while service.overview(tid).status != "finished":
        game = next(g for g in service.overview(tid).games if g.result is None)
        service.record_result(tid, game.round, game.board, "1-0")
