"""A battle-chess series made from the web page (issue 12 item 1, a series template on
every surface): the new-series form's battle-chess checkbox and set-up time; the series
then says so, and a bad set-up time or a set-up time without battle chess is refused
with the reason (the form again, with the message) and nothing is made."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from test_service_support import migrated

from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.service.series.views import series_list
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.web_support import csrf_of

FORM = {
    "name": "Battle evenings",
    "kind": "workdays",
    "start_time": "19:00",
    "zone": "Europe/Moscow",
    "max_group_size": "10",
    "qualifiers_per_group": "2",
    "deadline_minutes": "60",
}


def _signed_in(tmp_path: Path) -> tuple[TestClient, Service, str]:
    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'series.db'}")))
    Accounts(service.store).create_user("master", "password-master", is_master=True)
    client = TestClient(create_app(service=service))
    token = csrf_of(client.get("/signin").text)
    client.post(
        "/signin",
        data={"username": "master", "password": "password-master", "csrf_token": token},
    )
    return client, service, csrf_of(client.get("/series/new").text)


def test_the_form_makes_a_battle_chess_series(tmp_path: Path) -> None:
    client, service, token = _signed_in(tmp_path)
    form = client.get("/series/new").text
    assert 'name="battle"' in form and 'name="setup_minutes"' in form
    made = client.post(
        "/series/new",
        data=FORM | {"csrf_token": token, "battle": "on", "setup_minutes": "6"},
        follow_redirects=False,
    )
    assert made.status_code == 303, made.text
    series_id = int(made.headers["location"].rsplit("/", 1)[1])
    info = service.series_info(series_id)
    assert (info["variant"], info["setup_minutes"]) == ("battle", 6)
    page = client.get(f"/series/{series_id}").text
    assert "Battle chess: in every group the computer draws" in page
    assert "Set-up time: 6 min." in page
    classical = client.post(
        "/series/new", data=FORM | {"csrf_token": token, "name": "Plain"}, follow_redirects=False
    )
    assert classical.status_code == 303
    plain = int(classical.headers["location"].rsplit("/", 1)[1])
    assert service.series_info(plain)["variant"] == ""


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ({"battle": "on", "setup_minutes": "900"}, "1 to 120 minutes"),
        ({"setup_minutes": "5"}, "only a battle-chess tournament has one"),
    ],
)
def test_the_form_refuses_a_bad_set_up_time(
    tmp_path: Path, extra: dict[str, str], said: str
) -> None:
    client, service, token = _signed_in(tmp_path)
    refused = client.post(
        "/series/new",
        data=FORM | {"csrf_token": token} | extra,
        headers={"Referer": "http://testserver/series/new"},
        follow_redirects=False,
    )
    # a page form's refusal: back to the form, the reason in its message (app.py)
    assert (refused.status_code, refused.headers["location"]) == (303, "/series/new")
    assert said in client.get("/series/new").text
    assert series_list(service) == []
