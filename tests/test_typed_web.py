"""The web layer hands on typed values, not ``dict[str, Any]`` (docs/architecture.md,
"Typed read views"): before this step ``crosstable/web`` held 99 lines with
``dict[str, Any]`` or ``Mapping[str, Any]`` over 39 files; after it, 3 over 2 files, each
a named alias with its reason (``JUSTIFIED``).

* Counted over every module of ``crosstable/web``, neither may grow past a file's
  justified entry. What replaced them: the API's answers are typed views whose
  ``as_json()`` is the JSON (``JsonObject``, the one name for JSON on the wire); a
  submitted form is ``FormValues``; every page of a tournament starts from the typed
  ``PageContext``, merged into a ``TemplateContext`` where Jinja takes a mapping; a
  JSON body from the client before it is checked is ``ClientJson``.
* The answers built by hand before are the same JSON now, key order included: checked
  through HTTP on a real tournament in SQLite against the earlier code (``*_before``
  below, kept as the oracle).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_service_support import migrated

from crosstable.core.model import LotsMethod, System
from crosstable.core.scoring import points_json
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.service.tiebreak_order import published_tiebreaks
from crosstable.store import open_store
from crosstable.web.app import create_app
from crosstable.web.messages import translate
from tests.asgi_client import TestClient
from tests.typed_counts_support import PACKAGE
from tests.typed_counts_support import count_untyped_mappings as count_untyped

WEB = PACKAGE / "web"

#: where an untyped mapping stays, and why (module under crosstable/web: count)
JUSTIFIED = {
    # AsgiMessage: an ASGI message or scope, a dict whose keys depend on its "type"
    "uvicorn_direct.py": 1,
    # ClientJson (a JSON body before it is checked) and TemplateContext (Jinja's names)
    "contexts.py": 2,
}


def web_counts() -> dict[str, int]:
    return {
        path.relative_to(WEB).as_posix(): count_untyped(path.read_text(encoding="utf-8"))
        for path in sorted(WEB.rglob("*.py"))
    }


def test_the_counter_finds_what_it_counts() -> None:
    sample = (
        "def f(x: dict[str, Any]) -> Mapping[str,Any] | None: ...\n"
        "y: dict[str, int]\nz: Mapping[str, object]\n"
    )
    assert count_untyped(sample) == 2


def test_no_untyped_mapping_in_the_web_layer_past_the_justified_ones() -> None:
    counts = web_counts()
    assert {"routes/api.py", "pdf/team_papers.py", "app.py"} <= set(counts)  # subpackages too
    grown = {
        name: (count, JUSTIFIED.get(name, 0))
        for name, count in counts.items()
        if count > JUSTIFIED.get(name, 0)
    }
    assert not grown, f"dict/Mapping[str, Any] beyond the justified ones (found, allowed): {grown}"
    assert sum(counts.values()) <= sum(JUSTIFIED.values()) == 3


# -- real tournaments in SQLite, through HTTP: the JSON answered before --------------------


class Web:
    """A site on an SQLite file, signed in as an administrator by token."""

    def __init__(self, tmp: Path) -> None:
        self.service = Service(
            open_store(migrated(f"sqlite:///{tmp / 'web.db'}")), random=random.Random(3)
        )
        self.accounts = Accounts(self.service.store)
        self.admin = self.accounts.create_user("arbiter", "password-arbiter", is_admin=True)
        token = self.accounts.create_token(self.admin.id, "test")
        self.auth = {"Authorization": f"Bearer {token}"}
        self.client = TestClient(create_app(service=self.service))

    def get(self, path: str) -> Any:
        answer = self.client.get(f"/api/v1{path}", headers=self.auth)
        assert answer.status_code == 200, answer.text[:300]
        return answer.json()


@pytest.fixture
def web(tmp_path: Path) -> Iterator[Web]:
    site = Web(tmp_path)
    try:
        yield site
    finally:
        site.client.close()
        site.service.store.close()


def same_json(answer: Any, before: Any) -> None:
    """Equal as JSON text: the values and the keys' order."""
    assert json.dumps(answer, ensure_ascii=False) == json.dumps(before, ensure_ascii=False)


def tournaments_before(service: Service) -> list[dict[str, Any]]:
    return [
        {
            "id": t.id,
            "name": t.name,
            "status": t.status,
            "system": t.system,
            "players": t.players,
            "revision": t.revision,
        }
        for t in service.tournaments()
    ]


def tournament_before(web: Web, tid: int) -> dict[str, Any]:
    view, _table = web.service.crosstable(tid)
    access = web.accounts.access(tid)
    return {
        "id": view.id,
        "name": view.name,
        "status": view.status,
        "revision": view.revision,
        "rounds": view.rounds,
        "settings": view.settings.as_json(),
        "tiebreak_order": list(published_tiebreaks(view.settings)),
        "approval": access.approval,
        "self_registration": access.self_registration,
        "players": [
            {
                "number": p.number,
                "start": p.start,
                "name": p.name,
                "rating": p.rating,
                "title": p.title,
                "federation": p.federation,
                "withdrawn_from": p.withdrawn_from,
                "place": p.place,
            }
            for p in view.players
        ],
    }


def crosstable_before(service: Service, tid: int) -> dict[str, Any]:
    view, table = service.crosstable(tid)
    lines = []
    for line in table.lines:
        lines.append(
            {
                "start": line.start,
                "name": line.name,
                "rating": line.rating,
                "results": {
                    str(opponent): [
                        {"round": c.round, "colour": c.colour, "result": c.text} for c in cells
                    ]
                    for opponent, cells in sorted(line.cells.items())
                },
                "points": points_json(line.points, "float"),
                "tiebreaks": {
                    code: (None if v is None else points_json(v, "float"))
                    for code, v in zip(table.tiebreaks, line.values, strict=False)
                },
                "rank": line.rank,
            }
        )
    return {
        "revision": view.revision,
        "status": view.status,
        "provisional": table.provisional,
        "tiebreaks": list(table.tiebreaks),
        "players": lines,
    }


def round_before(service: Service, tid: int, rnd: int) -> dict[str, Any]:
    view, _table = service.crosstable(tid)
    drawn = service.colours_drawn(tid)
    return {
        "round": rnd,
        "revision": view.revision,
        "colours_drawn": True if drawn is None else bool(drawn.get(rnd)),
        "games": [
            {
                "board": g.board,
                "white": g.white,
                "black": g.black,
                "white_name": g.white_name,
                "black_name": g.black_name,
                "result": g.result,
                "white_report": g.white_report,
                "black_report": g.black_report,
                "disputed": g.disputed,
                "version": g.version,
            }
            for g in view.games
            if g.round == rnd
        ],
        "free": [start for r, start in view.free_rounds if r == rnd],
    }


def history_before(service: Service, tid: int) -> list[dict[str, Any]]:
    return [
        {
            "seq": h.seq,
            "at": h.at,
            "actor": h.actor,
            "kind": h.kind,
            "summary": translate(h.summary),
            "undone": h.undone,
        }
        for h in service.history(tid)
    ]


def game_before(service: Service, tid: int, rnd: int, board: int) -> dict[str, Any]:
    game = service.game_moves(tid, rnd, board)
    return {
        "round": game.round,
        "board": game.board,
        "white": game.white,
        "black": game.black,
        "result": game.result or None,
        "pgn": game.pgn,
    }


def test_the_api_answers_typed_views_whose_json_is_as_before(web: Web) -> None:
    service = web.service
    same_json(
        web.get("/me"),
        {
            "user": {
                "id": web.admin.id,
                "username": "arbiter",
                "name": web.admin.display_name,
                "admin": True,
                "master": web.admin.is_master,
            }
        },
    )
    assert web.client.get("/api/v1/me").json() == {"user": None}
    tid = service.create_tournament(
        Regulations(name="Club", system=System.ROUND_ROBIN, details={"venue": "Yerevan"})
    ).tournament_id
    for k, (name, rating) in enumerate((("Anna", 2100), ("Boris", 2050), ("Chen", 1990))):
        service.add_player(tid, PlayerInfo(name, rating, federation="ARM" if k else ""))
    same_json(web.get("/tournaments"), tournaments_before(service))
    same_json(web.get(f"/tournaments/{tid}"), tournament_before(web, tid))
    same_json(web.get(f"/tournaments/{tid}/crosstable"), crosstable_before(service, tid))
    service.draw_lots(tid, LotsMethod.RATING)
    same_json(web.get(f"/tournaments/{tid}"), tournament_before(web, tid))  # drawn
    service.start(tid)
    service.record_result(tid, 1, 1, "1-0")
    service.record_result(tid, 2, 1, "½-½")
    for path, before in (
        ("/tournaments", tournaments_before(service)),
        (f"/tournaments/{tid}", tournament_before(web, tid)),
        (f"/tournaments/{tid}/crosstable", crosstable_before(service, tid)),
        (f"/tournaments/{tid}/rounds/1", round_before(service, tid, 1)),
        (f"/tournaments/{tid}/rounds/2", round_before(service, tid, 2)),
        (f"/tournaments/{tid}/history", history_before(service, tid)),
        (f"/tournaments/{tid}/rounds/1/boards/1/pgn", game_before(service, tid, 1, 1)),
    ):
        same_json(web.get(path), before)
    crossed = web.get(f"/tournaments/{tid}/crosstable")
    assert crossed["players"][0]["results"] and list(crossed)[-1] == "players"
    assert web.get(f"/tournaments/{tid}/rounds/1")["free"]  # three players: one is free
    assert web.get(f"/tournaments/{tid}/battle") == {"battle": False}
