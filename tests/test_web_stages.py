"""Group stage + knockout on the web, through HTTP (no browser), on SQLite and PostgreSQL:
the wizard links its groups (event, letter, qualifiers, the knockout's settings) and
checks everything before creating anything; the groups' pages show the event and,
once every group is finished, "Create the knockout stage" for the organiser; the
knockout gets the owner, staff and players' accounts; the JSON API does the same."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.core.model import LotsMethod
from crosstable.service import Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import Store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

EIGHT = [(f"Player {chr(65 + i)}", 2300 - 25 * i) for i in range(8)]


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert match
    return match.group(1)


class Web:
    def __init__(self, store: Store) -> None:
        self.service: Service = make_service(store)
        self.accounts = Accounts(store)
        self.app = create_app(service=self.service)
        self.admin = self.accounts.create_user("ann", "password-ann", is_admin=True)
        self.player = self.accounts.create_user("pia", "password-pia")
        self.helper = self.accounts.create_user("hal", "password-hal")
        self.tokens = {
            name: self.accounts.create_token(user.id)
            for name, user in (("ann", self.admin), ("pia", self.player))
        }
        self.client = self.signed_in("ann")
        self.csrf = _csrf(self.client.get("/").text)

    def signed_in(self, name: str) -> TestClient:
        client = TestClient(self.app)
        token = _csrf(client.get("/signin").text)
        answer = client.post(
            "/signin",
            data={"username": name, "password": f"password-{name}", "csrf_token": token},
            follow_redirects=False,
        )
        assert answer.status_code == 303
        return client

    def auth(self, name: str, language: str = "en") -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[name]}", "Accept-Language": language}

    def form(self, **values: Any) -> dict[str, Any]:
        base = {
            "csrf_token": self.csrf,
            "name": "Spring cup",
            "format": "groups",
            "list": "\n".join(f"{n}, {r}" for n, r in EIGHT),
            "groups": "2",
            "group_cycles": "1",
            "qualifiers": "2",
            "match_format": "2",
            "tie_rule": "playoff",
            "third_place": "on",
        }
        return base | values

    def groups(self) -> list[int]:
        answer = self.client.post("/new", data=self.form(), follow_redirects=False)
        assert answer.status_code == 303, answer.text
        first = int(answer.headers["location"].split("/")[2])
        return [first, first + 1]

    def finish(self, tid: int) -> None:
        """Lots by rating, start, the lower starting number wins every game, finish."""
        self.service.draw_lots(tid, LotsMethod.RATING)
        self.service.start(tid)
        for game in self.service.overview(tid).games:
            white_wins = (game.white or 0) < (game.black or 0)
            self.service.record_result(tid, game.round, game.board, "1-0" if white_wins else "0-1")
        self.service.finish(tid)


@pytest.fixture
def web(store: Store) -> Web:
    return Web(store)


def test_wizard_links_the_groups_and_previews_the_knockout(web: Web) -> None:
    preview = web.client.post("/new/preview", data=web.form())
    assert preview.status_code == 200
    text = preview.text
    assert "A1–B2" in text and "B1–A2" in text  # the knockout's round 1, cross-seeded
    # 2 groups x 2 qualifiers, matches of two games, a match for third place: 4 matches
    assert re.search(r"4\s*qualifiers,\s*8\s*games", text), text
    ids = web.groups()
    details = [web.service.overview(tid).settings["regulations"] for tid in ids]
    assert details[0]["stage_event"] == details[1]["stage_event"]
    assert [d["stage_group"] for d in details] == ["A", "B"]
    assert {d["stage_groups"] for d in details} == {"2"}
    assert {d["stage_qualifiers"] for d in details} == {"2"}
    assert details[0]["knockout_match_format"] == "2"
    assert details[0]["knockout_tie_rule"] == "rapid:2,blitz:2,armageddon"
    assert details[0]["knockout_third_place"] == "yes"
    names = [web.service.overview(tid).name for tid in ids]
    assert names == ["Spring cup — group A", "Spring cup — group B"]


def test_wizard_checks_the_knockout_before_creating_anything(web: Web) -> None:
    before = len(web.service.tournaments())
    for bad in (
        {"qualifiers": "1"},  # two qualifiers cannot have a match for third place
        {"match_format": "two"},
        {"tie_rule": "coin"},
        {"qualifiers": "4"},  # groups of four
    ):
        answer = web.client.post("/new", data=web.form(**bad), follow_redirects=False)
        assert answer.status_code in (303, 422), answer.text
        assert "/manage" not in answer.headers.get("location", ""), bad
    assert len(web.service.tournaments()) == before


def test_group_pages_create_the_knockout_stage(web: Web) -> None:
    ids = web.groups()
    group_a = web.service.overview(ids[0])
    best = next(p for p in group_a.players if p.name == "Player A")
    web.accounts.link_entry(ids[0], best.number, web.player.id)
    web.accounts.set_staff(ids[0], web.helper.id, "helper")
    page = web.client.get(f"/t/{ids[0]}").text
    assert "Group stage: group A of 2 — qualifiers per group: 2" in page
    assert f'href="/t/{ids[1]}"' in page and "stage-create" not in page
    refused = web.client.post(f"/t/{ids[0]}/knockout-stage", data={"csrf_token": web.csrf})
    assert "the group stage is not over" in refused.text
    for tid in ids:
        web.finish(tid)
    page = web.client.get(f"/t/{ids[1]}").text
    assert "stage-create" in page and "Create the knockout stage" in page
    anonymous = TestClient(web.app).get(f"/t/{ids[1]}").text
    assert "stage-create" not in anonymous and "group B of 2" in anonymous
    no_token = web.client.post(f"/t/{ids[1]}/knockout-stage", data={})
    assert no_token.status_code == 403
    answer = web.client.post(
        f"/t/{ids[1]}/knockout-stage", data={"csrf_token": web.csrf}, follow_redirects=False
    )
    assert answer.status_code == 303
    ko = int(answer.headers["location"].split("/")[2])
    assert answer.headers["location"] == f"/t/{ko}/manage"
    view = web.service.overview(ko)
    assert view.name == "Spring cup — knockout" and len(view.players) == 4
    details = view.settings["regulations"]
    assert details["match_format"] == "2" and details["third_place"] == "yes"
    # the organiser, staff and the player's account come along
    assert web.accounts.access(ko).owner_id == web.admin.id
    assert web.accounts.staff(ko).get(web.helper.id) == "helper"
    seed = next(p.start for p in view.players if p.name == "Player A")
    assert web.accounts.entry_of(ko, web.player.id) == seed
    assert web.accounts.role(web.player, ko) == "player"
    # the groups link to the knockout; no button any more
    page = web.client.get(f"/t/{ids[0]}").text
    assert 'id="stage-knockout"' in page and f'href="/t/{ko}"' in page
    assert "stage-create" not in page
    knockout_page = web.client.get(f"/t/{ko}").text
    assert "Knockout stage of Spring cup" in knockout_page
    # twice: refused with the knockout's id (the API says 409)
    again = web.client.post(
        f"/api/v1/tournaments/{ids[0]}/knockout-stage", headers=web.auth("ann"), json={}
    )
    assert again.status_code == 409 and f"tournament {ko}" in again.json()["detail"]
    # the player reports their own knockout game
    web.service.start(ko)
    game = next(g for g in web.service.overview(ko).games if seed in (g.white, g.black))
    mine = "1-0" if game.white == seed else "0-1"
    report = TestClient(web.app).post(
        f"/api/v1/tournaments/{ko}/rounds/{game.round}/boards/{game.board}/report",
        headers=web.auth("pia"),
        json={"result": mine},
    )
    assert report.status_code == 200, report.text


def test_api_stage_and_create(web: Web) -> None:
    ids = web.groups()
    client = TestClient(web.app)
    shown = client.get(f"/api/v1/tournaments/{ids[1]}/stage")
    assert shown.status_code == 200
    body = shown.json()
    assert body["group"] == "B" and body["ready"] is False
    assert [g["id"] for g in body["groups"]] == ids and body["qualifiers_per_group"] == 2
    assert body["knockout_settings"]["tie_rule"] == "rapid:2,blitz:2,armageddon"
    early = client.post(
        f"/api/v1/tournaments/{ids[0]}/knockout-stage", headers=web.auth("ann", "ru"), json={}
    )
    assert early.status_code == 422
    assert "не закончен" in early.json()["detail"], early.json()
    for tid in ids:
        web.finish(tid)
    refused = client.post(f"/api/v1/tournaments/{ids[0]}/knockout-stage", headers=web.auth("pia"))
    assert refused.status_code == 403
    made = client.post(
        f"/api/v1/tournaments/{ids[0]}/knockout-stage",
        headers=web.auth("ann"),
        json={"lots_seed": 11},
    )
    assert made.status_code == 201, made.text
    created = made.json()
    ko = created["knockout"]
    assert created["lots_seed"] == 11 and len(created["qualifiers"]) == 4
    assert created["round_1"] == [[1, 4], [2, 3]]  # A1 v B2, B1 v A2
    groups = {q["start"]: q["group"] + str(q["place"]) for q in created["qualifiers"]}
    assert groups == {1: "A1", 2: "B1", 3: "A2", 4: "B2"}
    after = client.get(f"/api/v1/tournaments/{ko}/stage").json()
    assert after["group"] is None and after["knockout"]["id"] == ko
    assert after["knockout"]["players"] == 4
    missing = client.get("/api/v1/tournaments/999999/stage")
    assert missing.status_code == 404
    plain = web.service.create_tournament(Regulations(name="Club")).tournament_id
    assert client.get(f"/api/v1/tournaments/{plain}/stage").status_code == 404
    paths = web.app.openapi()["paths"]
    assert "/api/v1/tournaments/{tid}/stage" in paths
    assert "/api/v1/tournaments/{tid}/knockout-stage" in paths


def test_api_creates_a_group_stage_and_quads(web: Web) -> None:
    """POST /tournaments takes the formats the wizard has: groups (linked as one event,
    with the knockout's settings) and quads (round robins of four by rating)."""
    client = TestClient(web.app)
    players = [{"name": n, "rating": r} for n, r in EIGHT]
    body = {
        "name": "API cup",
        "format": "groups",
        "players": players,
        "groups": 2,
        "qualifiers_per_group": 2,
        "group_cycles": 1,
        "match_format": "2",
        "tie_rule": "playoff",
        "third_place": True,
    }
    made = client.post("/api/v1/tournaments", headers=web.auth("ann"), json=body)
    assert made.status_code == 201, made.text
    ids = made.json()["ids"]
    assert len(ids) == 2 and made.json()["id"] == ids[0]
    stage = client.get(f"/api/v1/tournaments/{ids[1]}/stage").json()
    assert stage["group"] == "B" and [g["id"] for g in stage["groups"]] == ids
    assert stage["qualifiers_per_group"] == 2
    assert stage["knockout_settings"]["tie_rule"] == "rapid:2,blitz:2,armageddon"
    assert web.service.overview(ids[0]).settings["cycles"] == 1
    # the snake seeding: the top seed in A, the second in B, the third in B, the fourth in A
    first = {p.name for p in web.service.overview(ids[0]).players}
    assert {"Player A", "Player D"} <= first and "Player B" not in first
    # a knockout plan that cannot be (a third-place match with two qualifiers) creates nothing
    before = len(web.service.tournaments())
    bad = client.post(
        "/api/v1/tournaments",
        headers=web.auth("ann"),
        json=body | {"qualifiers_per_group": 1},
    )
    assert bad.status_code == 422 and len(web.service.tournaments()) == before
    quads = client.post(
        "/api/v1/tournaments",
        headers=web.auth("ann"),
        json={"name": "Quads", "format": "quads", "players": players},
    )
    assert quads.status_code == 201, quads.text
    sizes = [len(web.service.overview(t).players) for t in quads.json()["ids"]]
    assert sizes == [4, 4]
