"""History lines in the reader's language (issue 14 item 4): every summary is made as a
Message whose template and values the event keeps in its data (``summary_message``); the
history page, the history API and the flash after a form show it translated; English is
as before, and an event without a kept message (older ones) stays English. On SQLite and
PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import select
from test_service_support import db_url, make_service, store  # noqa: F401

from crosstable.core.model import LotsMethod, Reason, System
from crosstable.core.text import Message
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.service.frame import summary_of
from crosstable.store import Store
from crosstable.store.models import EventRow
from crosstable.web.app import create_app
from crosstable.web.messages import translate
from tests.asgi_client import TestClient
from tests.web_support import signed_in

NAMES = ("Anna", "Boris", "Clara", "Dmitri")


@pytest.fixture
def site(store: Store) -> Iterator[tuple[TestClient, Service]]:
    service = make_service(store)
    accounts = Accounts(service.store)
    accounts.create_user("org", "password-org", is_admin=True)
    with TestClient(create_app(service=service)) as client:
        yield client, service


def _running(service: Service) -> int:
    """A round robin of four, its regulations changed once, started."""
    tid = service.create_tournament(
        Regulations(name="Club", system=System.ROUND_ROBIN)
    ).tournament_id
    for index, name in enumerate(NAMES):
        service.add_player(tid, PlayerInfo(name, rating=2400 - 10 * index))
    service.edit_regulations(tid, name="Club championship")
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    return tid


def _lines(html: str) -> list[str]:
    return [
        re.sub(r"\s+", " ", s).strip() for s in re.findall(r'<div class="sum">(.*?)</div>', html)
    ]


def test_a_russian_history_page_shows_results_undo_and_regulations_in_russian(site: Any) -> None:
    client, service = site
    tid = _running(service)
    service.record_result(tid, 1, 1, "1-0")
    service.record_result(tid, 1, 2, "0-1")
    undone = service.undo(tid)
    assert undone.summary.startswith("undo #")
    service.correct_result(tid, 1, 1, "½-½")
    client.cookies.set("lang", "ru")
    russian = _lines(client.get(f"/t/{tid}/history").text)
    joined = "\n".join(russian)
    assert "регламент изменён (name)" in joined, joined
    assert "тур 1, доска 1: 1-0 (1 Anna – 4 Dmitri)" in joined, joined
    assert re.search(r"отмена №\d+: тур 1, доска 2: 0-1", joined), joined
    assert "тур 1, доска 1: 1-0 исправлено на ½-½" in joined, joined
    assert "участник 1 Anna зарегистрирован" in joined
    assert "стартовые номера назначены вручную: 1. Anna" in joined
    assert "round 1 board" not in joined and "regulations changed" not in joined
    # English: the lines as they always were
    client.cookies.set("lang", "en")
    english = "\n".join(_lines(client.get(f"/t/{tid}/history").text))
    assert "regulations changed (name)" in english
    assert "round 1 board 1: 1-0 (1 Anna – 4 Dmitri)" in english
    assert re.search(r"undo #\d+: round 1 board 2: 0-1", english), english
    assert "round 1 board 1: 1-0 corrected to ½-½" in english
    assert "тур" not in english


def test_the_history_api_answers_in_the_accept_language(site: Any) -> None:
    client, service = site
    tid = _running(service)
    service.record_result(tid, 1, 1, "1-0", reason=Reason.ADJUDICATED)
    service.revert_to(tid, service.history(tid)[-2].seq)
    russian = client.get(
        f"/api/v1/tournaments/{tid}/history", headers={"Accept-Language": "ru"}
    ).json()
    english = client.get(f"/api/v1/tournaments/{tid}/history").json()
    assert [e["seq"] for e in russian] == [e["seq"] for e in english]
    assert russian[-2]["summary"] == "тур 1, доска 1: 1-0 (присуждено судьёй) (1 Anna – 4 Dmitri)"
    assert english[-2]["summary"] == "round 1 board 1: 1-0 (adjudicated) (1 Anna – 4 Dmitri)"
    assert re.fullmatch(r"возврат к №\d+: отменено 1 последующее событие", russian[-1]["summary"])
    assert re.fullmatch(r"reverted to #\d+: 1 later event taken back", english[-1]["summary"])
    # the summary column keeps the English text
    assert [h.summary for h in service.history(tid)] == [e["summary"] for e in english]


def test_a_flash_after_a_form_is_in_russian(site: Any) -> None:
    client, service = site
    tid = _running(service)
    service.record_result(tid, 1, 1, "1-0")
    token = signed_in(client, "org")
    client.cookies.set("lang", "ru")
    client.post(
        f"/t/{tid}/manage/players/2/edit",
        data={"csrf_token": token, "name": "Boris Spassky"},
        follow_redirects=False,
    )
    shown = client.get(f"/t/{tid}/manage").text
    assert "данные участника 2 Boris Spassky изменены: " in shown, shown
    client.post(f"/t/{tid}/manage/undo", data={"csrf_token": token}, follow_redirects=False)
    back = client.get(f"/t/{tid}/history").text
    assert re.search(r'class="flash ok"[^>]*>отмена №\d+: данные участника 2', back), back
    # in English the flash is the summary as it was
    client.cookies.set("lang", "en")
    client.post(f"/t/{tid}/manage/undo", data={"csrf_token": token}, follow_redirects=False)
    again = client.get(f"/t/{tid}/history").text
    assert re.search(r'class="flash ok"[^>]*>undo #\d+: round 1 board 1: 1-0', again), again


def test_the_event_keeps_the_message_on_both_result_paths(site: Any) -> None:
    _client, service = site
    tid = _running(service)
    for fast, board in ((True, 1), (False, 2)):
        service.fast_path = fast
        service.record_result(tid, 1, board, "1-0")
        last = service.history(tid)[-1]
        assert isinstance(last.summary, Message), fast
        assert last.summary.template == "{where}: {result}{players}"
        assert translate(last.summary, "ru").startswith(f"тур 1, доска {board}: 1-0 (")
    with service.store.reading() as session:
        event = session.scalars(
            select(EventRow).where(EventRow.tournament_id == tid).order_by(EventRow.seq.desc())
        ).first()
        assert event is not None
        assert event.data["summary_message"]["template"] == "{where}: {result}{players}"
        assert event.summary == "round 1 board 2: 1-0 (2 Boris – 3 Clara)"


def test_an_event_without_its_message_stays_english() -> None:
    old = EventRow(summary="round 1 board 1: 1-0", data={})
    assert summary_of(old) == "round 1 board 1: 1-0"
    assert translate(summary_of(old), "ru") == "round 1 board 1: 1-0"
    kept = Message("round {round} board {board}", round=1, board=1).to_json()
    # a kept message that does not read as the stored text is not trusted
    odd = EventRow(summary="something else", data={"summary_message": kept})
    assert summary_of(odd) == "something else" and not isinstance(summary_of(odd), Message)
    good = EventRow(summary="round 1 board 1", data={"summary_message": kept})
    assert translate(summary_of(good), "ru") == "тур 1, доска 1"
    broken = EventRow(summary="x", data={"summary_message": {"params": {}}})
    assert summary_of(broken) == "x"


def test_the_start_and_a_withdrawal_read_in_russian(site: Any) -> None:
    client, service = site
    tid = _running(service)
    service.withdraw(tid, 4)
    client.cookies.set("lang", "ru")
    russian = "\n".join(_lines(client.get(f"/t/{tid}/history").text))
    assert "турнир начат: туров — 3, участников — 4" in russian, russian
    assert "игрок 4 Dmitri выбыл с 1-го тура: партий засчитано без игры: 3" in russian, russian
    english = [h.summary for h in service.history(tid)]
    assert "tournament started: 3 rounds, 4 players" in english
    assert "player 4 Dmitri withdrew from round 1: 3 games forfeited" in english


def test_reports_and_the_organisers_confirmation_read_in_russian(site: Any) -> None:
    client, service = site
    tid = _running(service)
    service.report_result(tid, 1, 1, "1-0", player=1)
    service.report_result(tid, 1, 2, "1-0", player=2)
    service.report_result(tid, 1, 2, "0-1", player=3)
    service.confirm_result(tid, 1, 1)
    service.confirm_result(tid, 1, 2, "½-½")
    api = f"/api/v1/tournaments/{tid}/history"
    russian = [e["summary"] for e in client.get(api, headers={"Accept-Language": "ru"}).json()]
    assert "тур 1, доска 1: участник 1 сообщает результат 1-0 (ждёт подтверждения)" in russian
    assert (
        "тур 1, доска 2: участник 3 сообщает результат 0-1; соперник сообщил 1-0: "
        "результат оспаривается"
    ) in russian, russian
    assert "тур 1, доска 1: 1-0 подтверждено организатором (1 Anna – 4 Dmitri)" in russian
    assert "тур 1, доска 2: ½-½ — решение организатора (2 Boris – 3 Clara)" in russian
    english = [h.summary for h in service.history(tid)]
    assert "round 1 board 1: player 1 reports 1-0 (awaiting confirmation)" in english
    assert "round 1 board 2: ½-½ decided by the organiser (2 Boris – 3 Clara)" in english
