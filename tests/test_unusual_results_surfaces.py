"""Unusual results and games played but not rated through every surface: the command
line (``crosstable result R B 0.5-0``, ``0-0.5``, ``0-0``, ``1-0u``; a contradiction is
exit status 2), the JSON API (accepted, or a 422 that says what is wrong) and the round
page (the "More…" choice; a refusal shown on the page); a Swiss is paired on around
them (FIDE checklist Q180–186)."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

from typing import Any

import pytest

from crosstable.cli import main
from crosstable.service import Service
from tests.result_surfaces_support import result_of, site, swiss  # noqa: F401
from tests.test_service_support import db_url, store  # noqa: F401
from tests.web_support import csrf_of


def test_r_b_1_q180_unusual_results_on_the_command_line(
    db_url: str, store: object, capsys: pytest.CaptureFixture[str]
) -> None:
    service = Service(store)  # type: ignore[arg-type]
    tid = swiss(service)
    where = ["--db", db_url, "--tournament", str(tid)]
    assert main(["pair-round", "--publish", *where]) == 0
    for bad, said in (
        ("1-1", "result 1-1: the two players together get more than one game gives"),
        ("+-u", "only a game played at the board can be played but unrated"),
        ("2-0", "an arbiter's ½-0, 0-½ or 0-0; played but not rated 1-0u"),
    ):
        capsys.readouterr()
        assert main(["result", "1", "1", bad, *where]) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1 and "Traceback" not in err
    assert result_of(service, tid, 1, 1) is None  # nothing stored by a refusal
    assert main(["result", "1", "1", "0.5-0", *where]) == 0
    assert "round 1 board 1: ½-0" in capsys.readouterr().out
    assert main(["result", "1", "2", "0-0u", *where]) == 0
    assert (result_of(service, tid, 1, 1), result_of(service, tid, 1, 2)) == ("½-0", "LL")
    assert main(["pair-round", "--publish", *where]) == 0  # paired around them
    rounds = {(g.white, g.black) for g in service.overview(tid).games if g.round == 1}
    again = {frozenset((g.white, g.black)) for g in service.overview(tid).games if g.round == 2}
    assert not again & {frozenset(pair) for pair in rounds}  # they played: no rematch
    assert main(["result", "2", "1", "0-0.5", *where]) == 0
    assert main(["result", "2", "2", "1-0u", *where]) == 0
    capsys.readouterr()
    assert main(["history", *where]) == 0
    history = capsys.readouterr().out
    assert "round 2 board 1: 0-½" in history and "round 2 board 2: WL" in history
    assert main(["export", "--to", "trf2026", *where]) == 0
    trf = capsys.readouterr().out
    assert trf.count("### Arbiter's decision @ Round") == 3  # ½-0, 0-0 unrated, 0-½


def test_r_b_1_q180_unusual_results_in_the_json_api(site: Any) -> None:
    client, service, tid, auth = site
    url = f"/api/v1/tournaments/{tid}/rounds/1/boards/{{board}}/result"
    for bad, said in (("1-1", "more than one game gives"), ("--u", "played but unrated")):
        refused = client.post(url.format(board=1), json={"result": bad}, headers=auth)
        assert refused.status_code == 422 and said in refused.text
    assert result_of(service, tid, 1, 1) is None
    done = client.post(url.format(board=1), json={"result": "0-½"}, headers=auth)
    assert done.status_code == 200 and "0-½" in done.json()["summary"]
    done = client.post(url.format(board=2), json={"result": "½-½u"}, headers=auth)
    assert done.status_code == 200, done.text
    assert (result_of(service, tid, 1, 1), result_of(service, tid, 1, 2)) == ("0-½", "DD")
    table = client.get(f"/api/v1/tournaments/{tid}/crosstable").json()
    shown = {
        (row["start"], item["round"]): item["result"]
        for row in table["players"]
        for games in row["results"].values()
        for item in games
    }
    assert sorted(shown.values()) == ["0", "½", "½", "½"]


def test_r_b_1_q180_the_round_page_offers_them_behind_more(site: Any) -> None:
    client, service, tid, _ = site
    page = client.get(f"/t/{tid}/rounds/1").text
    assert "More…" in page and "Arbiter’s decision" in page and "Played, not rated" in page
    for result in ("½-0", "0-½", "0-0", "1-0u", "½-½u", "0-1u"):
        assert f'data-result="{result}"' in page
    form = {"csrf_token": csrf_of(page), "action": "record", "result": "1-1"}
    page = client.post(f"/t/{tid}/rounds/1/boards/1", data=form).text  # (the round page)
    assert "result 1-1: the two players together get more than one game gives" in page
    assert result_of(service, tid, 1, 1) is None
    form = {"csrf_token": csrf_of(page), "action": "record", "result": "0-0"}
    done = client.post(f"/t/{tid}/rounds/1/boards/1", data=form, headers={"HX-Request": "1"})
    assert done.status_code == 200 and '<span class="result">0-0</span>' in done.text
    form["result"] = "0-1u"
    done = client.post(f"/t/{tid}/rounds/1/boards/2", data=form, headers={"HX-Request": "1"})
    assert 'class="result">0-1 <small class="unrated">game not rated</small>' in done.text
    assert (result_of(service, tid, 1, 1), result_of(service, tid, 1, 2)) == ("0-0", "LW")
    # a correction offers them too
    page = client.get(f"/t/{tid}/rounds/1").text
    form = {"csrf_token": csrf_of(page), "action": "correct", "result": "½-0", "expected": "0-0"}
    client.post(f"/t/{tid}/rounds/1/boards/1", data=form)
    assert result_of(service, tid, 1, 1) == "½-0"


def test_r_b_1_q180_the_choices_and_a_refusal_in_russian_and_armenian(site: Any) -> None:
    client, _, tid, auth = site
    for language, words, refusal in (
        ("ru", ("Ещё…", "Решение судьи", "Сыграно, без обсчёта рейтинга"), "больше, чем даёт"),
        ("hy", ("Ավելին…", "Մրցավարի որոշում"), "ավելին, քան տալիս է մեկ պարտիան"),
    ):
        headers = {"Accept-Language": language}
        page = client.get(f"/t/{tid}/rounds/1", headers=headers).text
        assert all(word in page for word in words), language
        refused = client.post(
            f"/api/v1/tournaments/{tid}/rounds/1/boards/1/result",
            json={"result": "1-1"},
            headers=auth | headers,
        )
        assert refused.status_code == 422 and refusal in refused.text, refused.text
