"""Rating lists uploaded by an administrator (issue 16 item 1) and looked up in the
wizard: GET/POST /admin/rating-lists (the file imported as the CLI imports it, all or
nothing, told in the reader's language), the API's ``time_control`` look-up, and the
wizard filling a player given with a FIDE id from the lists. On SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.service.rating_lists import RatingLists
from crosstable.store import Store
from crosstable.web.app import create_app
from crosstable.web.routes.rating_list_upload import upload_name
from tests.asgi_client import TestClient
from tests.rating_list_files import PLAYERS, fide_txt, national_csv
from tests.web_support import signed_in


@pytest.fixture
def site(store: Store) -> Iterator[tuple[TestClient, Service]]:
    service = make_service(store)
    accounts = Accounts(service.store)
    accounts.create_user("admin", "password-admin", is_admin=True)
    accounts.create_user("guest", "password-guest")
    with TestClient(create_app(service=service)) as client:
        yield client, service


def _zip(member: str, text: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, text.encode("utf-8"))
    return out.getvalue()


def test_an_administrator_uploads_a_list_and_sees_it_listed(site: Any) -> None:
    client, service = site
    token = signed_in(client, "admin")
    assert "No list is imported yet." in client.get("/admin/rating-lists").text
    assert 'href="/admin/rating-lists"' in client.get("/admin").text
    sent = client.post(
        "/admin/rating-lists",
        data={"csrf_token": token, "kind": ""},
        files={"list": ("players_list.zip", _zip("players_list_foa.txt", fide_txt()))},
        follow_redirects=False,
    )
    assert sent.status_code == 303
    page = client.get("/admin/rating-lists").text
    assert f"{len(PLAYERS)} players imported, 0 lines skipped" in page
    assert re.search(
        rf"<td>players_list.zip</td><td>[0-9-]+</td><td class=\"count\">{len(PLAYERS)}<", page
    )
    assert RatingLists(service).player(1503014).rapid == 2823
    # a national CSV as the rapid list (its type said in the form), in Russian
    told = client.post(
        "/admin/rating-lists",
        data={"csrf_token": token, "kind": "rapid"},
        files={"list": ("national.csv", national_csv().encode())},
        headers={"Accept-Language": "ru"},
    )
    assert f"national.csv: загружено игроков — {len(PLAYERS)}" in told.text
    listed = [row.name for row in RatingLists(service).imported()]
    assert listed == ["national.csv"]  # every player's latest data now comes from it


def test_a_refused_file_changes_nothing_and_says_why(site: Any) -> None:
    client, service = site
    token = signed_in(client, "admin")
    for files, said in (
        ({"list": ("list.zip", b"PK\x03\x04 not a zip")}, "was not imported"),
        ({"list": ("two.zip", _two_members())}, "was not imported"),
    ):
        answer = client.post(
            "/admin/rating-lists", data={"csrf_token": token, "kind": ""}, files=files
        )
        assert said in answer.text, answer.text[:300]
    bad_kind = client.post(
        "/admin/rating-lists",
        data={"csrf_token": token, "kind": "bullet"},
        files={"list": ("national.csv", national_csv().encode())},
        headers={"Accept-Language": "ru"},
    )
    assert "list type" not in bad_kind.text and "тип" in bad_kind.text  # translated
    assert RatingLists(service).imported() == []


def _two_members() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("a.txt", fide_txt())
        archive.writestr("b.txt", fide_txt())
    return out.getvalue()


def test_only_administrators_with_the_forms_token_may_upload(site: Any) -> None:
    client, service = site
    files = {"list": ("national.csv", national_csv().encode())}
    token = signed_in(client, "guest")
    assert client.get("/admin/rating-lists").status_code == 403
    refused = client.post("/admin/rating-lists", data={"csrf_token": token}, files=files)
    assert refused.status_code == 403
    client.post("/signout", data={"csrf_token": token})
    signed_in(client, "admin")
    forged = client.post("/admin/rating-lists", data={"csrf_token": "forged"}, files=files)
    assert forged.status_code == 403
    assert RatingLists(service).imported() == []


def test_the_upload_keeps_a_safe_name_for_the_list_type() -> None:
    assert upload_name("../../rapid_rating_list.zip") == "rapid_rating_list.zip"
    assert upload_name("C:\\lists\\blitz list.txt") == "blitz_list.txt"
    assert upload_name("..") == "list"


def test_the_wizard_fills_a_player_given_with_a_fide_id(site: Any, tmp_path: Path) -> None:
    client, service = site
    from tests.rating_list_files import zipped

    RatingLists(service).import_file(
        zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt())
    )
    found = client.get("/api/v1/rating-list", params={"q": "hou", "time_control": "3+2"}).json()
    assert found["rating_type"] == "blitz" and found["players"][0]["rating"] == 2611
    token = signed_in(client, "admin")
    page = client.get("/new").text
    assert 'data-rating-list-into="wizard-list"' in page and "/static/rating_list.js" in page
    created = client.post(
        "/new",
        data={
            "csrf_token": token,
            "name": "Rapid cup",
            "format": "round-robin",
            "time_control": "15+10",
            "list": "Hou, Yifan; ; ; ; ; 13300474\n"
            "Carlsen, Magnus; 2700; ; ; ; 1503014\nA guest, 1500",
        },
        follow_redirects=False,
    )
    assert created.status_code == 303, created.text[:500]
    tid = int(created.headers["location"].split("/")[2])
    details = {p.name: p for p in service.player_details(tid).values()}
    hou = details["Hou, Yifan"]
    assert (hou.rating, hou.title, hou.federation, hou.birth_date, hou.sex) == (
        2633,  # rapid: no rapid rating on the list, so her standard one (effective rapid)
        "GM",
        "CHN",
        "1994",
        "w",
    )
    assert (details["Carlsen, Magnus"].rating, details["Carlsen, Magnus"].title) == (2700, "GM")
    assert details["A guest"].fide_id == ""
