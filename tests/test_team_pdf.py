"""A team league's papers as PDF: the team crosstable with the board prizes, the board
prizes alone and the match sheets (all rounds, or one), each saying what the team page
says, in English, Russian and Armenian; before the start and for an unknown paper, a
404 with the reason."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_service_support import make_service, migrated

from crosstable.core.scoring import format_points
from crosstable.service import Service
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.test_team_service import SETTINGS
from tests.test_team_web import played_league
from tests.test_web_print import read_pdf


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Service, int]]:
    db = tmp_path_factory.mktemp("team-pdf") / "teams.db"
    service = make_service(open_store(migrated(f"sqlite:///{db}")))
    tid = played_league(service)
    with TestClient(create_app(service=service)) as client:
        yield client, service, tid


def text_of(client: TestClient, address: str) -> str:
    answer = client.get(address)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/pdf"
    assert "attachment" in answer.headers["content-disposition"]
    return " ".join(read_pdf(answer.content).strings)


def test_r_b_3_the_team_table_pdf_says_what_the_page_says(league: Any) -> None:
    client, service, tid = league
    text = text_of(client, f"/t/{tid}/teams/pdf/table.pdf")
    assert "Team table" in text and "Board prizes" in text and "EMGSB" in text
    for row in service.team_standings(tid).rows:
        assert f"{row.team}. {row.name}" in text
        assert format_points(row.gp) in text
    prizes = text_of(client, f"/t/{tid}/teams/pdf/prizes.pdf")
    best = service.board_prizes(tid)[0]
    names = {m.start: m.name for t in service.team_list(tid) for m in t.members}
    assert f"{best.record.player}. {names[best.record.player]}" in prizes


def test_r_b_3_match_sheets_pdf_by_round(league: Any) -> None:
    client, service, tid = league
    every = text_of(client, f"/t/{tid}/teams/pdf/matches.pdf")
    names = {t.start: t.name for t in service.team_list(tid)}
    rounds = service.team_matches(tid)
    for number, matches in enumerate(rounds, 1):
        for m in matches:
            assert f"Round {number}: {names[m.white]} – {names[m.black]}" in every
    assert every.count("Captain of") == 2 * sum(len(r) for r in rounds)
    one = text_of(client, f"/t/{tid}/teams/pdf/matches.pdf?round=2")
    assert "Round 2:" in one and "Round 1:" not in one and "Round 3:" not in one
    client.cookies.set("lang", "ru")
    russian = text_of(client, f"/t/{tid}/teams/pdf/matches.pdf?round=1")
    assert "Капитан команды" in russian and "Судья" in russian
    client.cookies.set("lang", "hy")
    armenian = text_of(client, f"/t/{tid}/teams/pdf/table.pdf")
    assert "Թիմերի աղյուսակ" in armenian
    client.cookies.clear()


def test_r_b_3_team_pdfs_refused_before_the_start_and_unknown(league: Any) -> None:
    client, service, tid = league
    assert client.get(f"/t/{tid}/teams/pdf/other.pdf").status_code == 404
    new = service.create_team_tournament("Next", SETTINGS).tournament_id
    service.add_team(new, "Ararat")
    answer = client.get(f"/t/{new}/teams/pdf/table.pdf")
    assert answer.status_code == 404 and "no rounds yet" in answer.text


def test_r_b_3_team_page_links_its_papers(league: Any) -> None:
    client, _service, tid = league
    page = client.get(f"/t/{tid}/teams").text
    for name in ("table.pdf", "matches.pdf", "prizes.pdf"):
        assert f"/t/{tid}/teams/pdf/{name}" in page
