"""A player's club (issue 15 item 5, migration 0008): registered and edited through the
service (SQLite and PostgreSQL), ``crosstable player add/edit --club``, the manage page's
forms, the JSON API, shown on the player page, carried by the whole-tournament JSON
export, and left out of TRF (which has no field for it)."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_service_support import db_url, make_service, registered, service, store  # noqa: F401

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import Store

CLUB = "Tigran Petrosian Chess House"


def _club(service: Service, tid: int, number: int) -> str:
    return service.player_details(tid)[number].club


def test_the_club_is_registered_edited_undone_and_exported(service: Service) -> None:
    tid = service.create_tournament(Regulations(name="Club")).tournament_id
    service.add_player(tid, PlayerInfo("Anna", 2000, club=f"  {CLUB.replace(' ', '   ')} "))
    service.add_player(tid, PlayerInfo("Boris", 1900))
    service.add_player(tid, PlayerInfo("Clara", 1800))
    assert _club(service, tid, 1) == CLUB  # spaces tidied as in a name
    assert _club(service, tid, 2) == ""
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3))
    service.start(tid)
    # no pairing reads the club: it may change after the start
    change = service.edit_player(tid, 2, club="Yerevan CC")
    assert change.summary == "player 2 Boris edited: club (none) → Yerevan CC"
    assert service.history(tid)[-1].kind == "player-edit"
    assert _club(service, tid, 2) == "Yerevan CC"
    # the whole-tournament JSON export carries it, and its import keeps it
    document = service.export_json(tid)
    clubs = {p["number"]: p["club"] for p in document["players"]}
    assert clubs == {1: CLUB, 2: "Yerevan CC", 3: ""}
    copy = service.import_json(json.loads(json.dumps(document)))
    assert _club(service, copy, 1) == CLUB and _club(service, copy, 2) == "Yerevan CC"
    # TRF has no club field: the export leaves it out
    assert CLUB not in service.export_trf(tid) and "Yerevan" not in service.export_trf(tid)
    service.undo(tid)
    assert _club(service, tid, 2) == ""


def test_an_export_without_clubs_still_imports(service: Service) -> None:
    """A document written before migration 0008 has no ``club``: the players get ""."""
    tid = registered(service, 3)
    document = service.export_json(tid)
    for player in document["players"]:
        del player["club"]
    for event in document.get("history", []):
        for change in event.get("changes", []):
            for side in ("before", "after"):
                if isinstance(change.get(side), dict):
                    change[side].pop("club", None)
    copy = service.import_json(document)
    assert [p.club for p in service.player_details(copy).values()] == ["", "", ""]


def test_a_club_too_long_is_refused_naming_the_player(service: Service) -> None:
    tid = registered(service, 3)
    with pytest.raises(RuleError, match="player Dora: a club is at most 100 characters long"):
        service.add_player(tid, PlayerInfo("Dora", club="x" * 101))
    with pytest.raises(RuleError, match="player 2 Boris: a club is at most 100 characters long"):
        service.edit_player(tid, 2, club="y" * 101)
    service.edit_player(tid, 2, club="y" * 100)
    assert _club(service, tid, 2) == "y" * 100


def test_cli_player_add_and_edit_club(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.db")
    assert main(["new", "Club", "--db", db]) == 0
    assert main(["player", "add", "Anna", "--club", CLUB, "--db", db]) == 0
    assert main(["player", "add", "Boris", "--db", db]) == 0
    capsys.readouterr()
    assert main(["player", "edit", "2", "--club", "Yerevan CC", "--db", db]) == 0
    assert "player 2 Boris edited: club (none) → Yerevan CC" in capsys.readouterr().out
    assert main(["player", "edit", "1", "--club", "", "--db", db]) == 0
    assert f"club {CLUB} → (none)" in capsys.readouterr().out
    assert main(["player", "edit", "1", "--club", "z" * 101, "--db", db]) == 2
    err = capsys.readouterr().err
    assert "a club is at most 100 characters long" in err and err.count("\n") == 1, err
    assert main(["player", "list", "--db", db]) == 0
    listed = capsys.readouterr().out
    assert "club" in listed and "Yerevan CC" in listed
    assert main(["player", "edit", "2", "--club", "", "--db", db]) == 0
    capsys.readouterr()
    assert main(["player", "list", "--db", db]) == 0
    assert "club" not in capsys.readouterr().out  # no empty column
    assert main(["player", "edit", "2", "--club", "Yerevan CC", "--db", db]) == 0
    capsys.readouterr()
    assert main(["export", "--to", "json", "--db", db]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert [p["club"] for p in exported["players"]] == ["", "Yerevan CC"]


# -- the web: the manage page's forms, the player page, the JSON API


@pytest.fixture
def site(store: Store) -> Iterator[tuple[Any, Service, dict[str, str]]]:
    pytest.importorskip("fastapi")
    from crosstable.service.accounts import Accounts
    from crosstable.web.app import create_app
    from tests.asgi_client import TestClient

    service = make_service(store)
    accounts = Accounts(service.store)
    user = accounts.create_user("org", "password-org", is_admin=True)
    token = accounts.create_token(user.id)
    with TestClient(create_app(service=service)) as client:
        yield client, service, {"Authorization": f"Bearer {token}"}


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert match
    return match.group(1)


def _signed_in(client: Any) -> str:
    token = _csrf(client.get("/signin").text)
    data = {"username": "org", "password": "password-org", "csrf_token": token}
    assert client.post("/signin", data=data, follow_redirects=False).status_code == 303
    return _csrf(client.get("/").text)


def test_the_manage_page_adds_and_edits_the_club(site: Any) -> None:
    client, service, _headers = site
    tid = service.create_tournament(Regulations(name="Club")).tournament_id
    token = _signed_in(client)
    url = f"/t/{tid}/manage/players"
    page = client.get(f"/t/{tid}/manage").text
    assert '<input name="club" autocomplete="off" maxlength="100">' in page  # the add form
    client.post(url, data={"csrf_token": token, "name": "Anna", "club": CLUB})
    client.post(url, data={"csrf_token": token, "name": "Boris"})
    client.post(url, data={"csrf_token": token, "name": "Clara"})
    assert _club(service, tid, 1) == CLUB
    shown = client.get(f"/t/{tid}/manage").text
    assert f'name="club" value="{CLUB}" maxlength="100"' in shown  # the edit form, filled
    saved = client.post(
        f"/t/{tid}/manage/players/2/edit",
        data={"csrf_token": token, "name": "Boris", "club": "Yerevan CC"},
        follow_redirects=False,
    )
    assert saved.status_code == 303
    assert _club(service, tid, 2) == "Yerevan CC"
    refused = client.post(
        f"/t/{tid}/manage/players/2/edit",
        data={"csrf_token": token, "club": "q" * 150},
        headers={"referer": f"http://testserver/t/{tid}/manage"},
    )
    assert refused.status_code < 500
    assert "a club is at most 100 characters long" in refused.text
    assert _club(service, tid, 2) == "Yerevan CC"
    # the player page shows it (Anna has starting number 1, Clara none given: no line)
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3))
    anna = client.get(f"/t/{tid}/players/1").text
    assert f'<p class="meta" id="player-club">Club: {CLUB}</p>' in anna
    assert 'id="player-club"' not in client.get(f"/t/{tid}/players/3").text
    client.cookies.set("lang", "ru")
    assert f"Клуб: {CLUB}" in client.get(f"/t/{tid}/players/1").text


def test_the_api_adds_and_patches_the_club(site: Any) -> None:
    client, service, headers = site
    created = client.post(
        "/api/v1/tournaments",
        json={
            "name": "Open",
            "players": [{"name": "Anna"}, {"name": "Boris", "club": "B"}, {"name": "Clara"}],
        },
        headers=headers,
    )
    assert created.status_code in (200, 201), created.text
    tid = created.json()["id"]
    added = client.post(
        f"/api/v1/tournaments/{tid}/players", json={"name": "Dora", "club": CLUB}, headers=headers
    )
    assert added.status_code == 201, added.text
    assert _club(service, tid, 4) == CLUB and _club(service, tid, 2) == "B"
    url = f"/api/v1/tournaments/{tid}/players/1"
    answer = client.patch(url, json={"club": "Yerevan CC"}, headers=headers)
    assert answer.status_code == 200, answer.text
    assert answer.json()["summary"] == "player 1 Anna edited: club (none) → Yerevan CC"
    cleared = client.patch(url, json={"club": None}, headers=headers)
    assert cleared.status_code == 200 and _club(service, tid, 1) == ""
    long = client.patch(url, json={"club": "x" * 101}, headers=headers)
    assert long.status_code == 422 and "club" in long.text
