"""Custom rating lists on the web (FIDE's checklist for tournament programs, Q117 and
Q134): the administrators' page imports a CSV as a custom list (its columns named) and
deletes it, the JSON API lists the custom lists, answers their players beside FIDE's
along a tournament's order, and the manage page's add-player form registers a custom
list's player with the list and id kept. On SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import html
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.formats.custom_list import parse_columns
from crosstable.service import Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.service.custom_lists import CustomLists
from crosstable.store import Store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.web_support import signed_in

NATIONAL = (
    "NatID;FIO;Rating;Rapid;FIDE;Fed;Born\n"
    "4101;Петров, Иван;2105;;;RUS;1990\n"
    "4102;Ivanova, Anna;1950;2010;24101605;RUS;2008\n"
)
COLUMNS = "id=NatID,name=FIO,fide_id=FIDE"


@pytest.fixture
def site(store: Store) -> Iterator[tuple[TestClient, Service]]:
    service = make_service(store)
    accounts = Accounts(service.store)
    accounts.create_user("admin", "password-admin", is_admin=True)
    accounts.create_user("guest", "password-guest")
    with TestClient(create_app(service=service)) as client:
        yield client, service


def upload(client: TestClient, token: str, **fields: str) -> Any:
    return client.post(
        "/admin/rating-lists",
        data={"csrf_token": token, "kind": "", **fields},
        files={"list": ("rus.csv", NATIONAL.encode())},
        follow_redirects=False,
    )


def test_r_b_1_q117_q134_a_custom_list_on_the_page_the_api_and_the_add_player_form(
    site: Any,
) -> None:
    client, service = site
    token = signed_in(client, "admin")
    assert "No custom list is imported yet." in client.get("/admin/rating-lists").text
    sent = upload(client, token, custom="RUS", columns=COLUMNS, month="2026-11")
    assert sent.status_code == 303
    page = client.get("/admin/rating-lists").text
    assert "rus.csv: 2 players imported, 0 lines skipped; 2 players in the custom list RUS" in page
    assert "custom:RUS" in page and "2026-11" in page
    assert client.get("/api/v1/custom-lists").json() == [
        {
            "name": "RUS",
            "file": "rus.csv",
            "month": "2026-11",
            "imported": "2026-05-01",
            "players": 2,
        }
    ]
    one = client.get("/api/v1/custom-lists/RUS/players/4102").json()
    assert (one["source"], one["fide_id"], one["rapid"]) == ("RUS:4102", 24101605, 2010)
    assert client.get("/api/v1/custom-lists/RUS/players/9").status_code == 404
    # a look-up along a rapid tournament's order: the custom list's rapid rating
    tid = service.create_tournament(Regulations(name="Rapid", time_control="15+10")).tournament_id
    found = client.get(f"/api/v1/rating-list?q=ivan&tournament={tid}").json()
    assert [(c["source"], c["rating"]) for c in found["custom"]] == [("RUS:4102", 2010)]
    assert client.get("/api/v1/rating-list?q=4101").json()["custom"][0]["name"] == "Петров, Иван"
    # the add-player form: the custom list's player, its rating as the national rating
    added = client.post(
        f"/t/{tid}/manage/players",
        data={"csrf_token": token, "name": "Петров, Иван", "list_player": "RUS:4101"},
        follow_redirects=False,
    )
    assert added.status_code == 303
    petrov = service.player_details(tid)[1]
    assert (petrov.name, petrov.rating, petrov.national_rating, petrov.rating_source) == (
        "Петров, Иван",
        None,
        2105,
        "RUS:4101",
    )
    manage = client.get(f"/t/{tid}/manage").text
    assert '<input type="hidden" name="list_player" value="">' in manage
    script = client.get("/static/rating_list.js").text
    assert "answer.custom" in script and "list_player" in script
    refused = client.post(
        f"/t/{tid}/manage/players",
        data={"csrf_token": token, "name": "", "list_player": "RUS:Z-99"},
        headers={"Accept-Language": "ru"},
    )
    assert "Z-99" in refused.text and "RUS" in refused.text  # the flash names what is wrong
    assert len(service.player_details(tid)) == 1
    # the JSON API registers one too (the organisers; a session sends its CSRF token)
    path = f"/api/v1/tournaments/{tid}/list-players"
    assert TestClient(client.app).post(path, json={"source": "RUS:4102"}).status_code == 401
    assert client.post(path, json={"source": "RUS:4102"}).status_code == 403  # no token
    made = client.post(path, json={"source": "RUS:4102"}, headers={"X-CSRF-Token": token})
    assert made.status_code == 201 and "Ivanova, Anna" in made.json()["summary"]
    ivanova = service.player_details(tid)[2]
    assert (ivanova.national_rating, ivanova.rating_source) == (2010, "RUS:4102")
    bad = client.post(path, json={"source": "RUS4102"}, headers={"X-CSRF-Token": token})
    assert bad.status_code == 422 and "LIST:ID" in bad.text


def flash(client: TestClient) -> str:
    page = client.get("/admin/rating-lists").text
    found = re.search(r'class="flash[^>]*>([^<]*)', page)
    return "" if found is None else html.unescape(found[1])


def test_r_b_1_q117_only_an_administrator_imports_or_deletes_a_custom_list(site: Any) -> None:
    client, service = site
    token = signed_in(client, "admin")
    upload(client, token, custom="RUS", columns=COLUMNS)
    upload(client, token, custom="FIDE own", columns=COLUMNS)
    assert flash(client).startswith("custom rating list name 'FIDE own': letters, digits")
    upload(client, token, custom="RUS", columns="id=Missing,name=FIO")
    said = flash(client)
    assert said.startswith("the rating list rus.csv was not imported: ")
    assert said.endswith(
        "rus.csv:1: the column 'missing' for list id is not in the header row "
        "(it has NatID, FIO, Rating, Rapid, FIDE, Fed, Born)"
    )
    assert client.get("/api/v1/custom-lists").json()[0]["players"] == 2  # unchanged
    guest = TestClient(client.app)
    assert guest.delete("/api/v1/custom-lists/RUS").status_code == 401
    guest_token = signed_in(guest, "guest")
    denied = guest.delete("/api/v1/custom-lists/RUS", headers={"X-CSRF-Token": guest_token})
    assert denied.status_code == 403
    assert client.delete("/api/v1/custom-lists/RUS").status_code == 403  # no CSRF token
    gone = client.delete("/api/v1/custom-lists/RUS", headers={"X-CSRF-Token": token})
    assert gone.json()["players"] == 2 and client.get("/api/v1/custom-lists").json() == []
    missing = client.delete("/api/v1/custom-lists/RUS", headers={"X-CSRF-Token": token})
    assert missing.status_code == 404
    # the page's delete button
    path = Path(tempfile.mkdtemp()) / "club.csv"
    path.write_text(NATIONAL, encoding="utf-8")
    CustomLists(service).import_file(path, "club", columns=parse_columns(COLUMNS))
    assert "custom:club" in client.get("/admin/rating-lists").text
    deleted = client.post(
        "/admin/rating-lists/custom",
        data={"csrf_token": token, "name": "club"},
        follow_redirects=False,
    )
    assert deleted.status_code == 303
    assert flash(client) == "custom list club deleted (2 players)"
    assert "No custom list is imported yet." in client.get("/admin/rating-lists").text
