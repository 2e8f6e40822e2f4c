"""FIDE checklist Q62, the gaps: before round 1 a Swiss in FIDE mode whose rounds can no
longer all be played is a level-2 warning also when the prohibited pairs alone change,
and when a player removed leaves a field too small for the rounds set — through the
service, the command line, the JSON API and the manage page."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import re
from pathlib import Path

import pytest

from crosstable.cli import main
from crosstable.core.model import System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.service.warning_levels import ConfirmationNeeded
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.test_service_support import db_url, registered, service, store  # noqa: F401
from tests.web_support import csrf_of


def test_q62_prohibited_pairs_alone_that_leave_a_player_too_few_opponents(
    service: Service,
) -> None:
    tid = registered(service, 6, system=System.SWISS_DUTCH, rounds=4)
    with pytest.raises(ConfirmationNeeded) as asked:
        service.edit_regulations(tid, detail_changes={"forbidden": "1-2-3"})
    said = asked.value.as_json()
    assert (said["level"], said["code"]) == (2, "rounds-cannot-be-played")
    assert "player 1 may meet only 3 of the other players" in said["message"]
    assert "forbidden" not in service.overview(tid).settings["regulations"]  # nothing yet
    change = service.edit_regulations(
        tid, detail_changes={"forbidden": "1-2-3"}, confirm=asked.value.token
    )
    assert "confirmed warning, level 2" in change.summary
    assert service.overview(tid).settings["regulations"]["forbidden"] == "1-2-3"
    service.edit_regulations(tid, detail_changes={"forbidden": "1-2"})  # 4 left: playable
    with pytest.raises(ConfirmationNeeded):  # the whole details replaced: the same check
        service.edit_regulations(tid, details={"forbidden": "4-5-6-1"})
    service.edit_regulations(tid, details={"venue": "Hall", "forbidden": "1-2"})  # unchanged
    free = registered(service, 6, system=System.SWISS_DUTCH, rounds=4, details={"fide_mode": "off"})
    service.edit_regulations(free, detail_changes={"forbidden": "1-2-3"})  # outside FIDE mode


def test_q62_a_player_removed_before_round_1_from_a_field_too_small_for_the_rounds(
    service: Service,
) -> None:
    tid = registered(service, 5, system=System.SWISS_DUTCH, rounds=5)
    with pytest.raises(ConfirmationNeeded) as asked:
        service.remove_player(tid, 5)
    said = asked.value.as_json()
    assert said["level"] == 2
    assert "with 4 players registered, 5 rounds cannot all be played" in said["message"]
    assert len(service.overview(tid).players) == 5  # nothing removed yet
    change = service.remove_player(tid, 5, confirm=asked.value.token)
    assert "confirmed warning, level 2" in change.summary
    assert len(service.overview(tid).players) == 4
    playable = registered(service, 6, system=System.SWISS_DUTCH, rounds=5)
    service.remove_player(playable, 6)  # 5 players still play 5 rounds (one PAB each)
    unset = registered(service, 4, system=System.SWISS_DUTCH)
    service.remove_player(unset, 4)  # no rounds set: nothing to warn about
    club = registered(service, 4)
    service.remove_player(club, 4)  # a round robin's rounds follow its field


def test_q62_the_command_line_asks_to_acknowledge_a_removal(
    db_url: str, store: object, capsys: pytest.CaptureFixture[str]
) -> None:
    service = Service(store)  # type: ignore[arg-type]
    tid = registered(service, 5, system=System.SWISS_DUTCH, rounds=5)
    where = ["--db", db_url, "--tournament", str(tid)]
    assert main(["player", "remove", "5", *where]) == 2
    said = capsys.readouterr().err
    assert "warning (level 2)" in said and "5 rounds cannot all be played" in said
    token = re.search(r"--confirm ([0-9a-f]+)", said)
    assert token is not None and len(service.overview(tid).players) == 5
    assert main(["player", "remove", "5", *where, "--confirm", token.group(1)]) == 0
    assert len(service.overview(tid).players) == 4


def test_q62_the_api_and_the_manage_page_ask_to_acknowledge(tmp_path: Path) -> None:
    service = Service(open_store(f"sqlite:///{tmp_path / 'web.db'}"))
    accounts = Accounts(service.store)
    user = accounts.create_user("organiser", "password-organiser", is_master=True)
    tids = []
    for name in ("Open A", "Open B"):
        tid = service.create_tournament(
            Regulations(name=name, system=System.SWISS_DUTCH, rounds=5)
        ).tournament_id
        accounts.claim(tid, user)
        accounts.set_access(tid, approval="approved")
        for index in range(5):
            service.add_player(tid, PlayerInfo(f"P{index}"))
        tids.append(tid)
    headers = {"Authorization": f"Bearer {accounts.create_token(user.id, 'api')}"}
    with TestClient(create_app(service=service)) as client:
        asked = client.delete(f"/api/v1/tournaments/{tids[0]}/players/5", headers=headers)
        assert asked.status_code == 409
        warning = asked.json()["warning"]
        assert warning["level"] == 2 and "5 rounds cannot all be played" in warning["message"]
        done = client.delete(
            f"/api/v1/tournaments/{tids[0]}/players/5?confirm={warning['confirm']}",
            headers=headers,
        )
        assert done.status_code == 200, done.text
        assert len(service.overview(tids[0]).players) == 4
        csrf = csrf_of(client.get("/signin").text)
        client.post(
            "/signin",
            data={"username": "organiser", "password": "password-organiser", "csrf_token": csrf},
        )
        page = client.get(f"/t/{tids[1]}/manage").text
        form = {"csrf_token": csrf_of(page)}
        shown = client.post(f"/t/{tids[1]}/manage/players/5/remove", data=form)
        assert shown.status_code == 409 and "level 2" in shown.text
        assert "5 rounds cannot all be played" in shown.text
        assert len(service.overview(tids[1]).players) == 5
        token = re.search(r'name="confirm" value="([0-9a-f]+)"', shown.text)
        assert token is not None
        form = {"csrf_token": csrf_of(shown.text), "confirm": token.group(1)}
        client.post(f"/t/{tids[1]}/manage/players/5/remove", data=form)
        assert len(service.overview(tids[1]).players) == 4
