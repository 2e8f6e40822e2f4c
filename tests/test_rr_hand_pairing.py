"""A round robin's round paired by hand through the service, the CLI and the JSON API:
checked against the table, the cycle re-planned, a level-3 warning in FIDE mode with a
``### Pairing`` line, undone by undo."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import json
import re
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.cli import main
from crosstable.cli.check import render_report
from crosstable.core.checker import check_event
from crosstable.core.errors import RuleError
from crosstable.core.schedule.hand_round import parse_boards
from crosstable.formats.trf import parse_trf
from crosstable.formats.trf_declared import declared_of
from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.service.warning_levels import ConfirmationNeeded
from crosstable.store import Store, open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.fide_support import confirmed
from tests.test_service_support import db_url, service, started, store  # noqa: F401
from tests.web_support import csrf_of


def table(service: Service, tid: int) -> dict[int, list[tuple[int | None, int | None]]]:
    rounds: dict[int, list[tuple[int | None, int | None]]] = {}
    for game in service.overview(tid).games:
        rounds.setdefault(game.round, []).append((game.white, game.black))
    return rounds


def test_r_b_1_q100_q101_a_round_robin_round_paired_by_hand_replans_the_cycle(
    service: Service,
) -> None:
    tid = started(service, 6)
    service.record_result(tid, 1, 1, "1-0")
    service.record_result(tid, 1, 2, "½-½")
    service.record_result(tid, 1, 3, "0-1")
    before = table(service, tid)
    assert before[1] == [(1, 6), (2, 5), (3, 4)]
    revision = service.revision(tid)
    with pytest.raises(ConfirmationNeeded) as asked:  # FIDE mode: level 3
        service.pair_round_robin_round(tid, 2, [(1, 2), (3, 5), (4, 6)])
    said = asked.value.as_json()
    assert (said["level"], said["code"]) == (3, "round-robin-hand-pairing")
    assert service.revision(tid) == revision  # nothing stored before the confirmation
    change = service.pair_round_robin_round(
        tid, 2, [(1, 2), (3, 5), (4, 6)], confirm=asked.value.token
    )
    assert "confirmed warning, level 3" in change.summary
    after = table(service, tid)
    assert after[1] == before[1] and after[2] == [(1, 2), (3, 5), (4, 6)]
    met = sorted(tuple(sorted(p)) for games in after.values() for p in games)  # type: ignore[type-var]
    assert met == list(combinations(range(1, 7), 2))
    assert "### Pairing @ Round 2: round 2 paired by hand (1-2, 3-5, 4-6)" in (
        service.export_trf(tid)
    )
    service.undo(tid)  # the table comes back, with its ### line gone
    assert table(service, tid) == before
    assert "### Pairing" not in service.export_trf(tid)


def test_r_b_1_q101_a_rematch_or_a_played_round_is_refused_and_nothing_changes(
    service: Service,
) -> None:
    tid = started(service, 4)
    service.record_result(tid, 1, 1, "1-0")
    before = table(service, tid)
    revision = service.revision(tid)
    with pytest.raises(RuleError, match="met in round 1"):
        service.pair_round_robin_round(tid, 2, [(1, 4), (2, 3)])
    with pytest.raises(RuleError, match="has begun"):
        service.pair_round_robin_round(tid, 1, [(1, 3), (2, 4)])
    with pytest.raises(RuleError, match="player 3 is given twice"):
        service.pair_round_robin_round(tid, 2, [(1, 3), (2, 3)])
    assert (table(service, tid), service.revision(tid)) == (before, revision)


def test_r_b_1_q100_an_odd_field_moves_the_free_round(service: Service) -> None:
    tid = started(service, 5)
    change = confirmed(service.pair_round_robin_round, tid, 1, [(1, 2), (3, 4)], 5)
    assert change.data["round"] == 1
    rounds = table(service, tid)
    assert rounds[1] == [(1, 2), (3, 4)]
    met = sorted(tuple(sorted(p)) for games in rounds.values() for p in games)  # type: ignore[type-var]
    assert met == list(combinations(range(1, 6), 2))
    trf = service.export_trf(tid)
    assert "### Pairing @ Round 1: round 1 paired by hand (1-2, 3-4, 5 free)" in trf


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_r_b_1_q100_the_boards_parser_reads_or_refuses_any_text(text: str) -> None:
    try:
        boards = parse_boards(text)
    except RuleError as refused:
        assert "board " in str(refused) or "longer than" in str(refused)
        return
    assert boards and all(len(b) == 2 for b in boards)


def test_r_b_1_q100_q101_the_command_line_pairs_a_round_robin_round_by_hand(
    db_url: str, store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    service = Service(store)
    tid = started(service, 4)
    where = ["--db", db_url, "--tournament", str(tid)]
    assert main(["pair-round", "--round", "2", "--hand", "1-x", *where]) == 2
    assert "board 1: '1-x' is not WHITE-BLACK" in capsys.readouterr().err
    assert main(["pair-round", "--round", "2", "--hand", "1-3,2-4", *where]) == 2
    asked = capsys.readouterr().err
    assert "warning (level 3)" in asked and "round 2 paired by hand" in asked
    token = re.search(r"--confirm ([0-9a-f]+)", asked)
    assert token is not None
    command = ["pair-round", "--round", "2", "--hand", "1-3,2-4", "--format", "json"]
    assert main([*command, "--confirm", token.group(1), *where]) == 0
    said = json.loads(capsys.readouterr().out)
    assert (said["round"], said["boards"]) == (2, [[1, 3], [2, 4]])
    assert table(service, tid)[2] == [(1, 3), (2, 4)]
    assert main(["pair-round", "--round", "1", "--hand", "1-1,2-3", *where]) == 2
    assert "cannot play themselves" in capsys.readouterr().err


def test_r_b_1_q100_q101_the_json_api_pairs_a_round_robin_round_by_hand(tmp_path: Path) -> None:
    service = Service(open_store(f"sqlite:///{tmp_path / 'web.db'}"))
    accounts = Accounts(service.store)
    user = accounts.create_user("organiser", "password-organiser", is_master=True)
    tid = started(service, 6)
    accounts.claim(tid, user)
    accounts.set_access(tid, approval="approved")
    auth = {"Authorization": f"Bearer {accounts.create_token(user.id, 'api')}"}
    base = f"/api/v1/tournaments/{tid}/rounds/3/hand"
    body: dict[str, object] = {"boards": [[1, 2], [3, 4], [5, 6]]}
    with TestClient(create_app(service=service)) as client:
        assert client.post(base, json=body).status_code == 401
        asked = client.post(base, json=body, headers=auth)
        assert asked.status_code == 409, asked.text
        warning = asked.json()["warning"]
        assert (warning["level"], warning["code"]) == (3, "round-robin-hand-pairing")
        done = client.post(base, json=body | {"confirm": warning["confirm"]}, headers=auth)
        assert done.status_code == 200, done.text
        assert "round 3 paired by hand (1-2, 3-4, 5-6)" in done.json()["summary"]
        service.record_result(tid, 3, 1, "1-0")
        again = client.post(f"/api/v1/tournaments/{tid}/rounds/4/hand", json=body, headers=auth)
        assert again.status_code in (400, 422), again.text
        assert "met in round 3" in again.text
        wrong = client.post(base, json={"boards": [[1, "x"]]}, headers=auth)
        assert wrong.status_code == 422
    met = sorted(tuple(sorted(p)) for games in table(service, tid).values() for p in games)  # type: ignore[type-var]
    assert met == list(combinations(range(1, 7), 2))


def test_r_b_1_q101_the_check_reads_the_hand_rounds_of_the_exported_trf(
    service: Service,
) -> None:
    tid = started(service, 6)
    for board in (1, 2, 3):
        service.record_result(tid, 1, board, "1-0")
    confirmed(service.pair_round_robin_round, tid, 2, [(1, 2), (3, 6), (4, 5)])
    for number in range(2, 6):
        for board in (1, 2, 3):
            service.record_result(tid, number, board, "½-½")
    trf = service.export_trf(tid)
    assert (
        "### Pairing @ Round 2: round 2 paired by hand (1-2, 3-6, 4-5); rounds re-planned:" in trf
    )
    doc = parse_trf(trf)
    report = check_event(doc.tournament, declared_of(doc))
    assert all(v.agrees for v in report.rounds)
    assert [v.round for v in report.rounds if v.expected is None] == [2, 3, 4, 5]
    assert "Round 2: paired by hand, no pair twice in its cycle" in render_report(report)
    # rounds re-planned but not stated so are checked against the table again
    kept = parse_trf(trf.replace("rounds re-planned: 3, 4, 5", "rounds re-planned: 3"))
    assert declared_of(kept).hand_rounds == {2, 3}
    assert not all(v.agrees for v in check_event(kept.tournament, declared_of(kept)).rounds)


def test_r_b_1_q100_the_manage_page_pairs_a_round_robin_round_by_hand(tmp_path: Path) -> None:
    service = Service(open_store(f"sqlite:///{tmp_path / 'page.db'}"))
    accounts = Accounts(service.store)
    user = accounts.create_user("organiser", "password-organiser", is_master=True)
    tid = started(service, 4)
    accounts.claim(tid, user)
    accounts.set_access(tid, approval="approved")
    with TestClient(create_app(service=service)) as client:
        csrf = csrf_of(client.get("/signin").text)
        client.post(
            "/signin",
            data={"username": "organiser", "password": "password-organiser", "csrf_token": csrf},
        )
        page = client.get(f"/t/{tid}/manage").text
        assert f'action="/t/{tid}/manage/hand-round"' in page
        form = {"csrf_token": csrf_of(page), "round": "2", "boards": "1-3, 2-4"}
        asked = client.post(f"/t/{tid}/manage/hand-round", data=form, follow_redirects=False)
        assert asked.status_code == 409 and "round 2 paired by hand instead of the table" in (
            asked.text
        )
        token = re.search(r'name="confirm" value="([0-9a-f]+)"', asked.text)
        assert token is not None
        done = client.post(
            f"/t/{tid}/manage/hand-round",
            data=form | {"csrf_token": csrf_of(asked.text), "confirm": token.group(1)},
            follow_redirects=False,
        )
        assert done.status_code == 303 and done.headers["location"] == f"/t/{tid}/rounds/2"
        assert table(service, tid)[2] == [(1, 3), (2, 4)]
        fresh = csrf_of(client.get(f"/t/{tid}/manage").text)
        bad = form | {"csrf_token": fresh, "boards": "1-3; 2-4"}
        refused = client.post(f"/t/{tid}/manage/hand-round", data=bad, follow_redirects=True)
        assert "is not WHITE-BLACK" in refused.text


def test_r_b_1_q101_a_double_round_robin_counts_each_cycle_apart(service: Service) -> None:
    tid = started(service, 4, cycles=2)
    for number in (1, 2, 3):
        for board in (1, 2):
            service.record_result(tid, number, board, "½-½")
    before = table(service, tid)
    # cycle 2 (rounds 4-6): round 4 re-paired with pairs of cycle 1, rounds 5 and 6 re-planned
    wanted = [before[6][0], before[6][1]]
    assert all(w is not None and b is not None for w, b in wanted)
    change = confirmed(
        service.pair_round_robin_round, tid, 4, [(w or 0, b or 0) for w, b in wanted]
    )
    after = table(service, tid)
    assert after[4] == wanted and {r: after[r] for r in (1, 2, 3)} == {
        r: before[r] for r in (1, 2, 3)
    }
    second = sorted(tuple(sorted(p)) for r in (4, 5, 6) for p in after[r])  # type: ignore[type-var]
    assert second == list(combinations(range(1, 5), 2))
    assert change.data["replanned"] == [6]


def test_r_b_1_q100_outside_fide_mode_no_confirmation_and_still_the_trf_line(
    service: Service,
) -> None:
    tid = started(service, 4)
    confirmed(service.leave_fide_mode, tid)
    change = service.pair_round_robin_round(tid, 1, [(1, 3), (2, 4)])
    assert "confirmed warning" not in change.summary
    assert "### Pairing @ Round 1: round 1 paired by hand (1-3, 2-4)" in service.export_trf(tid)
