"""Corrections meant for the rating report only (FIDE's checklist Q192–193): kept apart
from the games, so the pairings and the standings keep the game as it stands, written
into the TRF export with a ``### Report correction`` line, in the history and undone by
undo — through the service (SQLite and PostgreSQL), the command line and the JSON API."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support and test_web_swiss

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from test_service_support import db_url, service, started, store  # noqa: F401
from test_web_swiss import Site, site  # noqa: F401

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod
from crosstable.formats.trf_read import parse_trf
from crosstable.service import Service


def _results(trf: str) -> dict[tuple[int, int], str]:
    """(round, board) → the result label of each game of a TRF file."""
    document = parse_trf(trf)
    return {
        (rnd.number, game.board): game.result.label()
        for rnd in document.tournament.rounds
        for game in rnd.games
        if game.result is not None
    }


def test_r_b_1_a_correction_reaches_the_report_and_nothing_else(service: Service) -> None:
    tid = started(service, 4)
    service.record_result(tid, 1, 1, "1-0")
    service.record_result(tid, 1, 2, "½-½")
    standings = replace(service.crosstable(tid)[1], revision=0)
    before = service.export_trf(tid)
    change = service.correct_for_report(tid, 1, 1, "0-1", reason="the report's result")
    assert "reported as 0-1 in the rating report only (the report's result)" in str(change.summary)
    assert replace(service.crosstable(tid)[1], revision=0) == standings  # the game kept
    assert service.tournament(tid).rounds[0].games[0].result.label() == "1-0"
    after = service.export_trf(tid)
    assert _results(before)[(1, 1)] == "1-0" and _results(after)[(1, 1)] == "0-1"
    assert _results(after)[(1, 2)] == "½-½"
    assert "### Report correction @ Round 1: board 1: 0-1 (the report's result)" in after
    assert [(c.round, c.board, c.label) for c in service.report_corrections(tid)] == [(1, 1, "0-1")]
    # an edit of the regulations keeps them; undo takes the correction back
    details = dict(service.overview(tid).settings.regulations)
    service.edit_regulations(tid, details={k: v for k, v in details.items() if k != "venue"})
    assert len(service.report_corrections(tid)) == 1
    service.revert_to(tid, change.seq - 1)
    assert service.report_corrections(tid) == ()
    assert service.export_trf(tid) == before


def test_r_b_1_a_correction_is_refused_without_its_reason_or_its_game(service: Service) -> None:
    tid = started(service, 4)
    service.record_result(tid, 1, 1, "1-0")
    with pytest.raises(RuleError, match="needs its reason"):
        service.correct_for_report(tid, 1, 1, "0-1")
    with pytest.raises(RuleError, match="round 1 has no board 9"):
        service.correct_for_report(tid, 1, 9, "0-1", reason="x")
    with pytest.raises(RuleError, match="is not a result"):
        service.correct_for_report(tid, 1, 1, "*", reason="x")
    with pytest.raises(RuleError, match="has no correction for the rating report"):
        service.correct_for_report(tid, 1, 1, None)
    assert service.report_corrections(tid) == ()
    service.correct_for_report(tid, 1, 1, "+-", reason="forfeit for the report")
    service.correct_for_report(tid, 1, 1, None)  # taken back
    assert service.report_corrections(tid) == ()


def test_r_b_1_the_command_line_and_the_api_correct_for_the_report(
    site: Site, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "cli.db")
    assert main(["new", "Club", "--db", db]) == 0
    for name in ("A", "B", "C", "D"):
        assert main(["player", "add", name, "--db", db]) == 0
    assert main(["draw", "--by", "hand", "--order", "1,2,3,4", "--db", db]) == 0
    assert main(["start", "--db", db]) == 0
    assert main(["result", "1", "1", "1-0", "--db", db]) == 0
    capsys.readouterr()
    assert main(["report-correction", "1", "1", "0-1", "--db", db]) == 2
    assert "needs its reason" in capsys.readouterr().err
    args = ["report-correction", "1", "1", "0-1", "--reason", "report", "--db", db]
    assert main(args) == 0
    assert "round 1 board 1: 0-1 (report)" in capsys.readouterr().out
    tid = site.create(name="Api", list="A\nB\nC\nD")
    if site.service.overview(tid).status == "registration":
        site.service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
        site.service.start(tid)
    site.service.record_result(tid, 1, 1, "1-0")
    url = f"/api/v1/tournaments/{tid}/report-corrections"
    made = site.client.post(
        url, json={"round": 1, "board": 1, "result": "0-1", "reason": "x"}, headers=site.auth
    )
    assert made.status_code == 200, made.text
    listed = site.client.get(url, headers=site.auth).json()["corrections"]
    assert [(c["round"], c["board"], c["label"]) for c in listed] == [(1, 1, "0-1")]
    bad = site.client.post(url, json={"round": 1, "board": 1, "result": "0-1"}, headers=site.auth)
    assert bad.status_code == 422 and "needs its reason" in bad.text
    wrong = site.client.get(url, headers={"Authorization": "Bearer not-a-token"})
    assert wrong.status_code == 401


def test_r_b_1_the_organisers_page_corrects_for_the_report_and_takes_it_back(site: Site) -> None:
    tid = site.create(name="Page", list="A\nB\nC\nD")
    if site.service.overview(tid).status == "registration":
        site.service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
        site.service.start(tid)
    site.service.record_result(tid, 1, 1, "1-0")
    url = f"/t/{tid}/report-corrections"
    assert url in site.client.get(f"/t/{tid}/manage").text  # linked from the manage page
    empty = site.client.get(url).text
    assert "No corrections for the rating report." in empty
    made = site.post(url, **{"round": "1", "board": "1", "result": "0-1", "reason": "arbiter"})
    assert made.status_code == 200, made.text
    assert "reported as 0-1 in the rating report only (arbiter)" in made.text
    row = made.text.split('id="report-corrections"', 1)[1].split("</table>", 1)[0]
    assert "<td>0-1</td><td>arbiter</td>" in row
    assert site.service.crosstable(tid)[0].games[0].result == "1-0"  # the game stands
    # a correction without its reason, or of a board that does not exist: the page says
    # so, and what is kept does not change
    bad = site.post(url, **{"round": "1", "board": "1", "result": "0-1", "reason": ""})
    assert "needs its reason" in bad.text
    missing = site.post(url, **{"round": "1", "board": "9", "result": "0-1", "reason": "x"})
    assert "round 1 has no board 9" in missing.text
    wrong = site.post(url, **{"round": "x", "board": "1", "result": "0-1", "reason": "x"})
    assert "is not a whole number" in wrong.text
    assert len(site.service.report_corrections(tid)) == 1
    back = site.post(url, **{"action": "withdraw", "round": "1", "board": "1"})
    assert "taken back" in back.text and site.service.report_corrections(tid) == ()
    site.client.cookies.clear()  # signed out: not the organiser's page
    assert site.client.get(url, follow_redirects=False).status_code in (303, 401, 403)
