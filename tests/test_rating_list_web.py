"""Rating lists on the web (issue 16 item 1): GET /api/v1/rating-list and the manage
page's add-player form (its datalist look-up and a player added by FIDE id), on
SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.service import Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.service.rating_lists import RatingLists
from crosstable.store import Store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.rating_list_files import fide_txt, zipped
from tests.web_support import signed_in


@pytest.fixture
def site(store: Store, tmp_path: Path) -> Iterator[tuple[TestClient, Service]]:
    service = make_service(store)
    RatingLists(service).import_file(
        zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt())
    )
    Accounts(service.store).create_user("org", "password-org", is_admin=True)
    with TestClient(create_app(service=service)) as client:
        yield client, service


def test_the_api_finds_by_name_prefix_and_id_with_the_events_rating(site: Any) -> None:
    client, service = site
    rapid = service.create_tournament(Regulations(name="Rapid", time_control="15+10")).tournament_id
    answer = client.get("/api/v1/rating-list", params={"q": "car", "tournament": rapid})
    assert answer.status_code == 200
    body = answer.json()
    assert body["rating_type"] == "rapid"
    assert [(p["name"], p["rating"]) for p in body["players"]] == [
        ("Carlsen, Magnus", 2823),
        ("Caruana, Fabiano", 2750),
    ]
    by_id = client.get("/api/v1/rating-list", params={"q": "13300474"}).json()
    assert by_id["rating_type"] is None
    assert by_id["players"][0]["title"] == "GM" and by_id["players"][0]["rating"] is None
    assert client.get("/api/v1/rating-list", params={"q": "zz"}).json()["players"] == []


def test_the_api_refuses_bad_queries_naming_the_field(site: Any) -> None:
    client, _service = site
    for params, field in (
        ({"q": ""}, "q"),
        ({"q": "x" * 101}, "q"),
        ({"q": "car", "limit": "500"}, "limit"),
        ({"q": "car", "tournament": "0"}, "tournament"),
    ):
        answer = client.get("/api/v1/rating-list", params=params)
        assert answer.status_code == 422, params
        assert field in answer.text
    missing = client.get("/api/v1/rating-list", params={"q": "car", "tournament": "99"})
    assert missing.status_code == 404 and "there is no tournament 99" in missing.text


def test_the_add_player_form_looks_up_and_fills_from_the_list(site: Any) -> None:
    client, service = site
    tid = service.create_tournament(Regulations(name="Classic", time_control="90+30")).tournament_id
    token = signed_in(client, "org")
    page = client.get(f"/t/{tid}/manage").text
    assert f'list="rating-list-found" data-rating-list="{tid}"' in page
    assert '<datalist id="rating-list-found"></datalist>' in page
    assert '<script src="/static/rating_list.js" defer></script>' in page
    script = client.get("/static/rating_list.js").text
    assert "/api/v1/rating-list?limit=10" in script
    assert '"&tournament=" + input.dataset.ratingList' in script
    added = client.post(
        f"/t/{tid}/manage/players",
        data={"csrf_token": token, "name": "", "fide_id": "13300474", "club": "Shanghai"},
        follow_redirects=False,
    )
    assert added.status_code == 303
    hou = service.player_details(tid)[1]
    assert (hou.name, hou.rating, hou.title, hou.federation, hou.birth_date, hou.sex) == (
        "Hou, Yifan",
        2633,
        "GM",
        "CHN",
        "1994",
        "w",
    )
    assert (hou.fide_id, hou.club) == ("13300474", "Shanghai")
    # a rating typed over the list's wins; a FIDE id not in the list keeps what was typed
    client.post(
        f"/t/{tid}/manage/players",
        data={"csrf_token": token, "name": "", "fide_id": "1503014", "rating": "2700"},
    )
    client.post(
        f"/t/{tid}/manage/players",
        data={"csrf_token": token, "name": "A guest", "fide_id": "77", "rating": "1500"},
    )
    details = service.player_details(tid)
    assert (details[2].name, details[2].rating) == ("Carlsen, Magnus", 2700)
    assert (details[3].name, details[3].fide_id, details[3].title) == ("A guest", "77", "")
    refused = client.post(
        f"/t/{tid}/manage/players",
        data={"csrf_token": token, "name": "", "fide_id": "77"},
        headers={"Accept-Language": "ru"},
    )
    assert "FIDE ID 77 нет в загруженных рейтинг-листах" in refused.text  # the flash, in Russian
    assert len(service.player_details(tid)) == 3
