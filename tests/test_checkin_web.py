"""The check-in page, the check-in sheet and the venue screen through the web (issue
16.5): who may mark check-ins (the tournament's organiser or helper — the hall's tablet is
signed in as one of them; a player's own account may not, docs/hall.md), CSRF, clear
messages for bad input, the sheet by name (print and PDF), the venue without the site's
chrome in English and Russian."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_service_support import migrated

from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.test_web_print import read_pdf, tables

NAMES = ["Жуков, Олег", "Ёлкина, Жанна", "Елисеев, Пётр", "Абрамов, Илья"]


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert match
    return match.group(1)


def sign_in(client: TestClient, username: str) -> None:
    token = csrf_of(client.get("/signin").text)
    answer = client.post(
        "/signin",
        data={"username": username, "password": "password-" + username, "csrf_token": token},
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[tuple[TestClient, Service, int]]:
    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'hall.db'}")))
    tid = service.create_tournament(Regulations(name="Клуб")).tournament_id
    for i, name in enumerate(NAMES):
        service.add_player(tid, PlayerInfo(name, rating=2000 - i))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    accounts = Accounts(service.store)
    helper = accounts.create_user("helper", "password-helper")
    accounts.set_staff(tid, helper.id, "helper")
    accounts.create_user("visitor", "password-visitor")
    with TestClient(create_app(service=service)) as client:
        yield client, service, tid


def post(client: TestClient, tid: int, **data: Any) -> Any:
    token = csrf_of(client.get(f"/t/{tid}/checkin").text)
    return client.post(
        f"/t/{tid}/checkin", data={"csrf_token": token, **data}, follow_redirects=False
    )


def test_only_the_organiser_or_a_helper_opens_the_check_in(hall: Any) -> None:
    client, service, tid = hall
    anonymous = client.get(f"/t/{tid}/checkin", follow_redirects=False)
    assert anonymous.status_code in (303, 401)
    if anonymous.status_code == 303:
        assert anonymous.headers["location"].startswith("/signin")
    sign_in(client, "visitor")
    assert client.get(f"/t/{tid}/checkin").status_code == 403
    answer = client.post(f"/t/{tid}/checkin", data={"start": "1"}, follow_redirects=False)
    assert answer.status_code == 403  # no CSRF token
    assert not service.checkin_view(tid).present


def test_tap_a_name_then_confirm(hall: Any) -> None:
    client, service, tid = hall
    sign_in(client, "helper")
    page = client.get(f"/t/{tid}/checkin?player=2").text
    assert 'id="confirm"' in page and "2. Ёлкина, Жанна" in page
    token = csrf_of(page)
    no_token = client.post(f"/t/{tid}/checkin", data={"action": "in", "start": "2"})
    assert no_token.status_code == 403
    done = client.post(
        f"/t/{tid}/checkin",
        data={"csrf_token": token, "action": "in", "start": "2", "round": "1"},
        follow_redirects=False,
    )
    assert done.status_code == 303 and done.headers["location"] == f"/t/{tid}/checkin?round=1"
    after = client.get(done.headers["location"]).text
    assert 'data-start="2" data-present="yes"' in after
    assert "checked in for round 1" in after  # the flash
    assert [line.start for line in service.checkin_view(tid).present] == [2]
    history = client.get(f"/t/{tid}/history").text
    assert "checked in for round 1" in history


def test_bad_input_gets_a_message_not_a_traceback(hall: Any) -> None:
    client, _service, tid = hall
    sign_in(client, "helper")
    for data in ({"start": "x1"}, {"start": "99"}, {"action": "dance"}, {"round": "0"}):
        answer = post(client, tid, **data)
        assert answer.status_code == 303, data
        page = client.get(f"/t/{tid}/checkin").text
        assert 'class="flash error"' in page, data


def test_the_arbiter_scores_the_absent_as_forfeits_in_russian(hall: Any) -> None:
    client, service, tid = hall
    sign_in(client, "helper")
    client.cookies.set("lang", "ru")
    for start in (1, 2, 3):
        post(client, tid, action="in", start=str(start))
    headers = {"Accept-Language": "ru"}
    page = client.get(f"/t/{tid}/checkin", headers=headers).text
    assert "Присутствуют: 3" in page and "неявк" in page
    token = csrf_of(page)
    client.post(
        f"/t/{tid}/checkin",
        data={"csrf_token": token, "action": "absent", "round": "1"},
        headers=headers,
    )
    results = {(g.white, g.black): g.result for g in service.overview(tid).games if g.round == 1}
    assert sorted(r or "" for r in results.values()) == ["", "+-"] or sorted(
        r or "" for r in results.values()
    ) == ["", "-+"]  # player 4's game; the other game is still to be played
    history = client.get(f"/t/{tid}/history", headers=headers).text
    assert "участник 2 Ёлкина, Жанна отметился перед 1-м туром" in history
    assert "засчитано поражение за неявку" in history


def test_a_check_in_tapped_by_mistake_is_taken_back(hall: Any) -> None:
    client, service, tid = hall
    sign_in(client, "helper")
    post(client, tid, action="in", start="4")
    assert [line.start for line in service.checkin_view(tid).present] == [4]
    post(client, tid, action="out", start="4", round="1")
    assert service.checkin_view(tid).present == ()
    page = client.get(f"/t/{tid}/venue?speed=nan").text
    assert 'data-speed="1.0"' in page


def test_the_check_in_sheet_lists_the_names_in_the_russian_order(hall: Any) -> None:
    client, _service, tid = hall
    page = client.get(f"/t/{tid}/hall/checkin-sheet", headers={"Accept-Language": "ru"})
    rows = tables(page.text)["checkin-sheet"][1:]
    assert [r[1] for r in rows] == [
        "Абрамов, Илья",
        "Елисеев, Пётр",
        "Ёлкина, Жанна",
        "Жуков, Олег",
    ]
    assert "Подпись" in page.text
    pdf = client.get(f"/t/{tid}/hall/checkin-sheet.pdf")
    assert pdf.headers["content-type"] == "application/pdf"
    strings = read_pdf(pdf.content).strings
    names = [s for s in strings if s in {r[1] for r in rows}]
    assert names == [r[1] for r in rows]


def test_the_venue_has_no_navigation_and_speaks_both_languages(hall: Any) -> None:
    client, service, tid = hall
    english = client.get(f"/t/{tid}/venue").text
    assert "<nav" not in english and 'class="top"' not in english
    assert 'id="venue-pairings"' in english and "Standings" in english
    russian = client.get(f"/t/{tid}/venue", headers={"Accept-Language": "ru"}).text
    assert 'lang="ru"' in russian and "Тур" in russian and "Белые" in russian
    service.record_result(tid, 1, 1, "1-0")
    body = client.get(f"/t/{tid}/venue/body").text
    boards = tables(body)["venue-pairings"]
    assert boards[1][2] == "1-0"


def test_a_finished_tournament_has_nothing_to_check_in_for(hall: Any) -> None:
    client, service, tid = hall
    for game in service.overview(tid).games:
        service.record_result(tid, game.round, game.board, "½-½")
    assert service.overview(tid).status == "finished"
    sign_in(client, "helper")
    page = client.get(f"/t/{tid}/checkin", headers={"Accept-Language": "ru"}).text
    assert "Турнир окончен" in page and 'id="checkin-names"' not in page


def test_unknown_tournaments_rounds_and_numbers_are_4xx(hall: Any) -> None:
    client, _service, tid = hall
    assert client.get("/t/999/venue").status_code == 404
    assert client.get("/t/999/hall/wallchart.pdf").status_code == 404
    missing = client.get(f"/t/{tid}/hall/pairings.pdf?round=99")
    assert missing.status_code == 404 and "no round 99" in missing.text
    assert client.get(f"/t/{tid}/venue?speed=fast").status_code == 422
    sign_in(client, "helper")
    assert client.get(f"/t/{tid}/checkin?round=abc").status_code == 422
    assert client.get(f"/t/{tid}/checkin?round=-5").status_code in (400, 404, 409, 422)
