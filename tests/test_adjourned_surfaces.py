"""Adjourned games on the command line (crosstable result R B '*', the decisive result
with --confirm, pair-round --publish adjourning the missing games, the export refused),
in the JSON API (409 with the warning, redone with the token) and on the round page
(the Adjourned button, then the result after a confirmation page)."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import re
from typing import Any

import pytest

from crosstable.cli import main
from crosstable.service import Service
from tests.result_surfaces_support import result_of, site, swiss  # noqa: F401 - site: the fixture
from tests.test_service_support import db_url, migrated, store  # noqa: F401
from tests.web_support import csrf_of


def _token(said: str) -> str:
    found = re.search(r"--confirm ([0-9a-f]+)", said)
    assert found, said
    return found.group(1)


def test_q157_q159_q163_q169_adjourned_games_on_the_command_line(
    db_url: str, store: object, capsys: pytest.CaptureFixture[str]
) -> None:
    service = Service(store)  # type: ignore[arg-type]
    tid = swiss(service)
    where = ["--db", db_url, "--tournament", str(tid)]
    assert main(["pair-round", "--publish", *where]) == 0
    assert main(["result", "1", "1", "*", *where]) == 0
    assert "adjourned, result not known yet" in capsys.readouterr().out
    assert result_of(service, tid, 1, 1) == "*"
    assert main(["pair-round", "--publish", *where]) == 2  # board 2 has no result: level 2
    first = capsys.readouterr().err
    assert "warning (level 2)" in first and "recorded as adjourned" in first
    assert "round 1 board 2" in first and result_of(service, tid, 1, 2) is None
    assert main(["pair-round", "--publish", *where, "--confirm", _token(first)]) == 0
    assert "adjourned: round 1 board 2" in capsys.readouterr().out
    assert result_of(service, tid, 1, 2) == "*"
    for board in (1, 2):
        assert main(["result", "2", str(board), "½-½", *where]) == 0
    assert service.overview(tid).status == "running"
    assert main(["export", "--to", "trf2026", *where]) == 2
    assert "no FIDE TRF (rating report) while an adjourned game" in capsys.readouterr().err
    assert main(["result", "1", "1", "1-0", *where]) == 2  # decisive: level 3
    asked = capsys.readouterr().err
    assert "warning (level 3)" in asked and "replaces the provisional draw" in asked
    assert main(["result", "1", "1", "1-0", *where, "--confirm", _token(asked)]) == 0
    assert "confirmed warning, level 3" in capsys.readouterr().out
    assert main(["result", "1", "2", "=", *where]) == 0  # a draw: no warning; it finishes
    assert service.overview(tid).status == "finished"
    capsys.readouterr()
    assert main(["export", "--to", "trf2026", *where]) == 0
    assert "### Adjournment @ Round 1: board 1" in capsys.readouterr().out


def test_q157_q160_q163_adjourned_games_in_the_json_api(site: Any) -> None:
    client, service, tid, auth = site
    url = f"/api/v1/tournaments/{tid}/rounds/1/boards/1/result"
    assert client.post(url, json={"result": "*"}, headers=auth).status_code == 200
    assert result_of(service, tid, 1, 1) == "*"
    asked = client.post(f"/api/v1/tournaments/{tid}/pairing", json={}, headers=auth)
    assert asked.status_code == 409
    warning = asked.json()["warning"]
    assert warning["level"] == 2 and warning["code"] == "adjourned-by-pairing"
    paired = client.post(
        f"/api/v1/tournaments/{tid}/pairing", json={"confirm": warning["confirm"]}, headers=auth
    )
    assert paired.status_code == 200 and paired.json()["round"] == 2
    decisive = client.post(url, json={"result": "0-1"}, headers=auth)
    assert decisive.status_code == 409 and decisive.json()["warning"]["level"] == 3
    assert result_of(service, tid, 1, 1) == "*"
    token = decisive.json()["warning"]["confirm"]
    done = client.post(url, json={"result": "0-1", "confirm": token}, headers=auth)
    assert done.status_code == 200 and result_of(service, tid, 1, 1) == "0-1"


def test_q157_q162_q163_an_adjourned_game_and_its_result_on_the_round_page(site: Any) -> None:
    client, service, tid, _ = site
    page = client.get(f"/t/{tid}/rounds/1").text
    assert 'data-result="*"' in page and ">Adjourned<" in page
    form = {"csrf_token": csrf_of(page), "action": "record", "result": "*"}
    client.post(f"/t/{tid}/rounds/1/boards/1", data=form)
    assert result_of(service, tid, 1, 1) == "*"
    page = client.get(f"/t/{tid}/rounds/1").text
    assert "Adjourned: enter the result when it is known." in page
    form = {"csrf_token": csrf_of(page), "action": "record", "result": "1-0"}
    asked = client.post(f"/t/{tid}/rounds/1/boards/1", data=form, follow_redirects=False)
    assert asked.status_code == 409 and "Confirmation needed (level 3)" in asked.text
    assert result_of(service, tid, 1, 1) == "*"  # nothing yet; cancel goes back
    assert f'href="/t/{tid}/rounds/1"' in asked.text
    token = re.search(r'name="confirm" value="([0-9a-f]+)"', asked.text)
    assert token is not None
    done = client.post(f"/t/{tid}/rounds/1/boards/1", data=form | {"confirm": token.group(1)})
    assert done.status_code == 200 and result_of(service, tid, 1, 1) == "1-0"


def test_q163_a_tap_on_a_result_button_of_an_adjourned_game_shows_the_whole_confirmation(
    site: Any,
) -> None:
    client, service, tid, _ = site
    service.adjourn_game(tid, 1, 2)
    page = client.get(f"/t/{tid}/rounds/1").text
    form = {"csrf_token": csrf_of(page), "action": "record", "result": "0-1"}
    asked = client.post(f"/t/{tid}/rounds/1/boards/2", data=form, headers={"HX-Request": "true"})
    assert asked.status_code == 200 and asked.headers["HX-Retarget"] == "body"
    assert "Confirmation needed (level 3)" in asked.text
    assert result_of(service, tid, 1, 2) == "*"
