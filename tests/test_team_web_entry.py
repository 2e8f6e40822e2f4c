"""A team league run through the web, on SQLite and PostgreSQL: the JSON API (create
the team tournament, its teams and players, start, a captain's line-up, board results)
and the pages' forms (the organiser's, a captain's); every refusal names what is wrong
and changes nothing; the page's live part follows each change."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import pytest
from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import Store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

TEAMS = ("Ararat", "Sevan", "Masis", "Aragats")


@pytest.fixture
def site(store: Store) -> Iterator[tuple[TestClient, Service, Accounts, dict[str, str]]]:
    service = make_service(store)
    accounts = Accounts(service.store)
    boss = accounts.create_user("boss", "password-boss", is_admin=True)
    token = accounts.create_token(boss.id, "api")
    with TestClient(create_app(service=service)) as client:
        yield client, service, accounts, {"Authorization": f"Bearer {token}"}


def bearer(accounts: Accounts, name: str) -> dict[str, str]:
    user = accounts.create_user(name, "password-" + name)
    return {"Authorization": f"Bearer {accounts.create_token(user.id, 'api')}"}


def api_league(client: TestClient, auth: dict[str, str]) -> int:
    made = client.post(
        "/api/v1/team-tournaments",
        json={"name": "League", "boards": 2, "tiebreaks": ["GP", "EDE", "BC"]},
        headers=auth,
    )
    assert made.status_code == 201, made.text
    tid = int(made.json()["id"])
    for number, name in enumerate(TEAMS, 1):
        added = client.post(f"/api/v1/tournaments/{tid}/teams", json={"name": name}, headers=auth)
        assert added.status_code == 201 and added.json()["data"]["team"] == number
        for k in range(3 if number == 1 else 2):
            member = {"name": f"{name} {k + 1}", "rating": 2000 - k, "captain": k == 0}
            answer = client.post(
                f"/api/v1/tournaments/{tid}/teams/{number}/members", json=member, headers=auth
            )
            assert answer.status_code == 201, answer.text
    return tid


def test_r_b_3_a_team_league_through_the_json_api(site: Any) -> None:
    client, service, accounts, auth = site
    tid = api_league(client, auth)
    before = client.get(f"/api/v1/tournaments/{tid}/teams").json()
    assert before["started"] is False and before["rows"] == []
    assert [t["name"] for t in before["teams"]] == list(TEAMS)
    assert client.post(f"/api/v1/tournaments/{tid}/start", headers=auth).status_code == 200
    teams = {t.name: t for t in service.team_list(tid)}
    ararat = teams["Ararat"]
    captain = bearer(accounts, "captain")
    accounts.link_entry(tid, ararat.members[0].entry, accounts.find_user("captain").id)  # type: ignore[union-attr]
    rnd = 1
    url = f"/api/v1/tournaments/{tid}/rounds/{rnd}/lineups/{ararat.start}"
    first, _second, reserve = (m.start for m in ararat.members)
    # the board order: the reserve may not play above the first board
    wrong = client.put(url, json={"players": [reserve, first]}, headers=captain)
    assert wrong.status_code == 422
    detail = wrong.json()["detail"]
    assert f"round 1, team {ararat.start}" in detail and f"player {reserve} on board 1" in detail
    short = client.put(url, json={"players": [first]}, headers=captain)
    assert short.status_code == 422 and "1 players for 2 boards" in short.json()["detail"]
    revision = service.revision(tid)
    assert service.revision(tid) == revision  # refusals changed nothing
    # another team's line-up is not the captain's to set; a visitor sets none
    other = next(t for t in teams.values() if t.start != ararat.start)
    refused = client.put(
        f"/api/v1/tournaments/{tid}/rounds/1/lineups/{other.start}",
        json={"players": [m.start for m in other.members]},
        headers=captain,
    )
    assert refused.status_code == 403
    assert f"captain of team {other.start}" in refused.json()["detail"]
    assert client.put(url, json={"players": [first, reserve]}).status_code == 401
    visitor = bearer(accounts, "visitor")
    assert client.put(url, json={"players": [first, reserve]}, headers=visitor).status_code == 403
    assert service.revision(tid) == revision
    done = client.put(url, json={"players": [first, reserve]}, headers=captain)
    assert done.status_code == 200 and done.json()["kind"] == "lineup"
    match = next(m for m in service.team_matches(tid)[0] if ararat.start in (m.white, m.black))
    seated = [g.white if match.team_of[g.white] == ararat.start else g.black for g in match.games]
    assert seated == [first, reserve]
    # the board results: the individual result entry
    for game in match.games:
        answer = client.post(
            f"/api/v1/tournaments/{tid}/rounds/1/boards/{game.board}/result",
            json={"result": "1-0"},
            headers=auth,
        )
        assert answer.status_code == 200, answer.text
    late = client.put(url, json={"players": [first, reserve]}, headers=captain)
    assert late.status_code == 422 and "its line-up is fixed" in late.json()["detail"]
    table = client.get(f"/api/v1/tournaments/{tid}/teams").json()
    card = next(c for c in table["matches"] if c["round"] == 1 and c["white"] == match.white)
    assert card["finished"] and card["score"] == [1, 1]
    # bad bodies: structured 422s naming the field; unknown tournaments 404
    bad = client.post("/api/v1/team-tournaments", json={"name": "X", "boards": 0}, headers=auth)
    assert bad.status_code == 422 and "boards" in str(bad.json()["detail"])
    scoring = client.post(
        "/api/v1/team-tournaments", json={"name": "X", "scoring": "two"}, headers=auth
    )
    assert scoring.status_code == 422
    unknown = client.post("/api/v1/tournaments/999/teams", json={"name": "A"}, headers=auth)
    assert unknown.status_code == 404
    made = client.post("/api/v1/team-tournaments", json={"name": "X"}, headers=visitor)
    assert made.status_code == 403


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert found
    return found.group(1)


def sign_in(client: TestClient, name: str) -> str:
    token = csrf_of(client.get("/signin").text)
    answer = client.post(
        "/signin",
        data={"username": name, "password": "password-" + name, "csrf_token": token},
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text
    return csrf_of(client.get("/").text)


def test_r_b_3_a_team_league_through_the_pages(site: Any) -> None:
    client, service, _accounts, _auth = site
    token = sign_in(client, "boss")

    def post(path: str, **data: Any) -> Any:
        answer = client.post(path, data={"csrf_token": token, **data}, follow_redirects=False)
        assert answer.status_code == 303, answer.text
        return answer

    assert "/teams/new" in client.get("/teams/new").text
    made = post("/teams/new", name="Club League", boards="2", scoring="2-1-0", primary="MP")
    tid = int(made.headers["location"].split("/")[2])
    for number, name in enumerate(TEAMS, 1):
        post(f"/t/{tid}/teams/add", name=name)
        for k in range(2):
            post(
                f"/t/{tid}/teams/members",
                team=str(number),
                name=f"{name} {k + 1}",
                rating="1900",
                **({"captain": "yes"} if k == 0 else {}),
            )
    page = client.get(f"/t/{tid}/teams").text
    assert 'id="add-member"' in page and "Ararat 2" in page and "Start the team round robin" in page
    post(f"/t/{tid}/teams/add", name="ararat")  # the same name: refused, said on the page
    assert "there is a team 'Ararat' already" in html.unescape(client.get(f"/t/{tid}/teams").text)
    post(f"/t/{tid}/teams/start")
    page = client.get(f"/t/{tid}/teams").text
    assert 'id="team-table"' in page and 'id="add-team"' not in page
    assert page.count('class="row lineup"') == 2 * 2 * 3  # every match of the three rounds
    team = service.team_list(tid)[0]
    first, second = (m.start for m in team.members)
    revision = service.revision(tid)
    post(
        f"/t/{tid}/teams/lineup",
        round="1",
        team=str(team.start),
        board_1=str(second),
        board_2=str(first),
    )
    refusal = html.unescape(client.get(f"/t/{tid}/teams").text)
    assert f"player {second} on board 1 is listed after player {first}" in refusal
    assert service.revision(tid) == revision
    body = client.get(f"/t/{tid}/teams/body").text
    assert "<html" not in body and 'id="team-table"' in body
    client.cookies.set("lang", "ru")
    russian = client.get(f"/t/{tid}/teams").text
    assert "Состав команды" in russian and "Таблица команд" in russian
    client.cookies.set("lang", "hy")
    assert "թիմի կազմը" in client.get(f"/t/{tid}/teams").text


@pytest.mark.parametrize("system", ["swiss-olympiad", "swiss-dutch"])
def test_r_b_3_a_team_swiss_through_the_pages(site: Any, system: str) -> None:
    # the organiser creates an Olympiad-style (or Dutch) team Swiss on the form, adds the
    # teams, starts it and pairs each round with the team page's button; results are the
    # round page's (here the service's, as the round page enters them)
    client, service, _accounts, _auth = site
    token = sign_in(client, "boss")

    def post(path: str, **data: Any) -> Any:
        answer = client.post(path, data={"csrf_token": token, **data}, follow_redirects=False)
        assert answer.status_code == 303, answer.text
        return answer

    assert 'value="swiss-olympiad"' in client.get("/teams/new").text
    made = post("/teams/new", name="Club Olympiad", boards="2", system=system, rounds="3")
    tid = int(made.headers["location"].split("/")[2])
    assert service.overview(tid).settings.system == "dutch"  # (a Swiss of teams)
    for number, name in enumerate(TEAMS, 1):
        post(f"/t/{tid}/teams/add", name=name)
        for k in range(2):
            post(f"/t/{tid}/teams/members", team=str(number), name=f"{name} {k + 1}", rating="1900")
    assert "Start the team Swiss" in client.get(f"/t/{tid}/teams").text
    post(f"/t/{tid}/teams/start")
    for rnd in (1, 2, 3):
        assert 'id="pair-teams"' in client.get(f"/t/{tid}/teams").text
        post(f"/t/{tid}/teams/pair")
        games = [g for g in service.crosstable(tid)[0].games if g.round == rnd]
        assert len(games) == 4  # two matches of two boards
        if rnd < 3:  # pairing again before the results: refused, said on the page
            post(f"/t/{tid}/teams/pair")
            said = html.unescape(client.get(f"/t/{tid}/teams").text)
            assert f"round {rnd}: the match of teams" in said and "without a result" in said
            assert len(service.crosstable(tid)[0].games) == 4 * rnd  # nothing paired
        for g in games:
            service.record_result(tid, rnd, g.board, "1-0")
    data = client.get(f"/api/v1/tournaments/{tid}/teams").json()
    assert len(data["matches"]) == 6 and len(data["rows"]) == 4
    pairs = {frozenset((m["white"], m["black"])) for m in data["matches"]}
    assert len(pairs) == 6  # no two teams met twice


def test_r_b_3_the_team_form_refuses_an_unknown_system(site: Any) -> None:
    client, service, _accounts, _auth = site
    token = sign_in(client, "boss")
    before = len(service.tournaments())
    answer = client.post(
        "/teams/new", data={"csrf_token": token, "name": "X", "boards": "2", "system": "monrad"}
    )
    assert "system: monrad is not one of round-robin, swiss-olympiad, swiss-dutch" in html.unescape(
        answer.text
    )
    assert len(service.tournaments()) == before
