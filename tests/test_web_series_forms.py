"""The series' forms that had only an API (issue 11): an R-SE-7 petition and the
administrator's acceptance or refusal, and a qualifier's confirmation of his place in
stage 2 or later (R-SE-2) on the edition's page and the notifications page — plain
forms (no script), CSRF-checked, a mistake named next to its field in English and
Russian. SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import html as html_text
import re

import pytest

pytest.importorskip("fastapi")

from test_series_later_stages import at_stage_two
from test_series_service import current_groups
from test_service_support import db_url, store  # noqa: F401
from test_web_series import Web, _csrf

from crosstable.service.accounts import Accounts
from crosstable.store import Store
from crosstable.store.series_models import SeriesEditionRow
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

OTHERS = [f"Level Player {i:02d}" for i in range(1, 11)]


@pytest.fixture
def web(store: Store) -> Web:
    return Web(store)


def _field_error(html: str, field: str) -> str:
    found = re.search(rf'id="error-{field}">([^<]*)<', html)
    assert found, f"no error next to {field}"
    return html_text.unescape(found.group(1))


def test_a_petition_through_the_form_and_its_mistakes_named(web: Web) -> None:
    sid = web.create()["id"]
    guest = TestClient(web.app)
    assert "Sign in to petition" in guest.get(f"/series/{sid}/petitions").text
    assert f'href="/series/{sid}/petitions"' in guest.get(f"/series/{sid}").text
    pia = web.signed_in("pia")
    page = pia.get(f"/series/{sid}/petitions").text
    csrf = _csrf(page)
    assert 'id="petition-form"' in page and 'action="/series/' in page
    path = f"/series/{sid}/petitions"
    few = {"csrf_token": csrf, "level": "class 3", "players": "pia\nA One\nB Two"}
    answer = pia.post(path, data=few)
    assert answer.status_code == 422
    assert _field_error(answer.text, "players") == (
        "3 players: a class or level tournament needs at least 11"
    )
    assert 'aria-invalid="true" aria-describedby="error-players"' in answer.text
    assert "A One" in answer.text  # what was typed is kept
    russian = pia.post(path, data=few, headers={"Accept-Language": "ru"})
    assert russian.status_code == 422 and "11" in _field_error(russian.text, "players")
    assert "players:" not in _field_error(russian.text, "players")
    without_me = {"csrf_token": csrf, "level": "class 3", "players": "\n".join([*OTHERS, "X"])}
    answer = pia.post(path, data=without_me)
    assert _field_error(answer.text, "players") == "pia is not among the petition's players"
    good = "\n".join(["pia", *OTHERS])
    no_level = pia.post(path, data={"csrf_token": csrf, "level": "  ", "players": good})
    assert no_level.status_code == 422
    assert "class or level" in _field_error(no_level.text, "level")
    forged = pia.post(path, data={"csrf_token": "x", "level": "class 3", "players": good})
    assert forged.status_code == 403
    sent = pia.post(path, data={"csrf_token": csrf, "level": "class 3", "players": good})
    assert sent.status_code == 200 and "petition is sent" in sent.text
    [petition] = web.service.petitions(sid)
    assert petition["level"] == "class 3" and len(petition["players"]) == 11
    assert petition["players"][0]["user"] == web.player.id
    twice = pia.post(path, data={"csrf_token": csrf, "level": "Class 3", "players": good})
    assert "waiting already" in _field_error(twice.text, "level")
    # only administrators decide
    assert "Accept: make the tournament" not in pia.get(path).text
    assert pia.post(f"{path}/{petition['id']}/accept", data={"csrf_token": csrf}).status_code == 403


def test_an_administrator_accepts_and_refuses_on_the_page(web: Web) -> None:
    sid = web.create()["id"]
    players = [("pia", web.player.id), *((name, None) for name in OTHERS)]
    first = web.service.petition(sid, "class 3", players)
    second = web.service.petition(sid, "class 4", players)
    ann = web.signed_in("ann")
    path = f"/series/{sid}/petitions"
    page = ann.get(path).text
    csrf = _csrf(page)
    assert page.count("Accept: make the tournament") == 2
    empty = ann.post(f"{path}/{second}/refuse", data={"csrf_token": csrf, "reason": " "})
    assert empty.status_code == 422
    assert "says why" in _field_error(empty.text, f"reason-{second}")
    russian = ann.post(
        f"{path}/{second}/refuse", data={"csrf_token": csrf, "reason": ""}, cookies={"lang": "ru"}
    )
    assert "says why" not in _field_error(russian.text, f"reason-{second}")
    refused = ann.post(f"{path}/{second}/refuse", data={"csrf_token": csrf, "reason": "too new"})
    assert refused.status_code == 200 and "refused" in refused.text
    accepted = ann.post(f"{path}/{first}/accept", data={"csrf_token": csrf})
    assert accepted.status_code == 200
    info = web.service.petition_info(first)
    assert info["state"] == "accepted" and info["tournament"]
    assert f'href="/t/{info["tournament"]}"' in accepted.text
    assert web.service.petition_info(second)["reason"] == "too new"
    # a petition of another series is not decided through this one's address
    other = web.create(name="Other blitz")["id"]
    wrong = ann.post(f"/series/{other}/petitions/{first}/refuse", data={"csrf_token": csrf})
    assert wrong.status_code == 404
    # the petitioner is told, in the site
    pia = web.signed_in("pia")
    listed = pia.get("/notifications").text
    assert "Petition accepted" in listed and "Petition refused" in listed and "too new" in listed


def _stage_two_web(store: Store):
    accounts = Accounts(store)
    ids: dict[str, int] = {}

    def account_of(name: str) -> int:
        login = name.lower().replace(" ", "")
        ids[name] = accounts.create_user(login, "password-player").id
        return ids[name]

    service, clock, edition = at_stage_two(store, account_of)
    with store.reading() as session:
        row = session.get(SeriesEditionRow, edition)
        assert row is not None
        sid, number = row.series_id, row.number
    _kind, tids = current_groups(store, edition)
    playing = [p.name for tid in tids for p in service.tournament(tid).players]
    app = create_app(service=service)

    def signed_in(name: str) -> TestClient:
        client = TestClient(app)
        token = _csrf(client.get("/signin").text)
        login = name.lower().replace(" ", "")
        data = {"username": login, "password": "password-player", "csrf_token": token}
        assert client.post("/signin", data=data, follow_redirects=False).status_code == 303
        return client

    out = sorted(set(ids) - set(playing))
    return service, clock, sid, number, playing, out, signed_in


def test_a_qualifier_confirms_his_place_with_the_form(store: Store) -> None:
    service, _clock, sid, number, playing, out, signed_in = _stage_two_web(store)
    edition_path = f"/series/{sid}/editions/{number}"
    first = signed_in(playing[0])
    page = first.get(edition_path).text
    assert 'id="confirm-place"' in page and "confirm your place until" in page
    assert re.search(r'<time datetime="[^"]+" data-local>[^<]*\(Europe/Moscow\)</time>', page)
    csrf = _csrf(page)
    action = f"{edition_path}/stage-registration/confirm"
    assert f'action="{action}"' in page
    assert first.post(action, data={"csrf_token": "x"}).status_code == 403
    done = first.post(
        action, data={"csrf_token": csrf}, headers={"Referer": f"http://testserver{edition_path}"}
    )
    assert done.status_code == 200 and "Your place in this stage is confirmed." in done.text
    assert (
        'id="confirm-place"' not in done.text and "Your place in stage 2 is confirmed." in done.text
    )
    again = first.post(
        action, data={"csrf_token": csrf}, headers={"Referer": f"http://testserver{edition_path}"}
    )
    assert "already" in again.text  # the service's refusal, as a message on the page
    history = [h["kind"] for h in service.series_history(sid)]
    assert history.count("stage-register") == 1
    # a player out after stage 1 is offered nothing
    eliminated = signed_in(out[0])
    assert 'id="confirm-place"' not in eliminated.get(edition_path).text
    # the notifications page offers it on the stage-start notification, in Russian too
    second = signed_in(playing[1])
    listed = second.get("/notifications", headers={"Accept-Language": "ru"}).text
    assert 'id="confirm-place"' in listed and "Подтвердить участие" in listed
    back = second.post(
        action,
        data={"csrf_token": _csrf(listed)},
        headers={"Referer": "http://testserver/notifications"},
        follow_redirects=False,
    )
    assert back.status_code == 303 and back.headers["location"] == "/notifications"
    # leaving the stage by the form withdraws him from his group
    third = signed_in(playing[2])
    leave = f"{edition_path}/stage-registration/leave"
    left = third.post(leave, data={"csrf_token": _csrf(third.get(edition_path).text)})
    assert left.status_code == 200 and "You have left this stage." in left.text
    assert history.count("stage-withdraw") == 0
    assert [h["kind"] for h in service.series_history(sid)].count("stage-withdraw") == 1
    assert 'id="leave-stage"' not in left.text
