"""Every surface shows a free round's points only once its round has begun (issue 27
item 6): a five-player round robin under 3-1-0 with a free round worth 3 points, run
through the service; the JSON API's standings, the crosstable and standings pages and
the command line's ``show`` agree with the core's live table after every result, and
the finished tournament's table equals the final one."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from crosstable.cli import main
from crosstable.core.model import LotsMethod
from crosstable.core.scoring import PointSystem
from crosstable.core.standings import compute_standings
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

NAMES = ("Anna", "Boris", "Clara", "Dmitri", "Elena")


@pytest.fixture()
def site(tmp_path: Path) -> Any:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    service = Service(open_store(url))
    accounts = Accounts(service.store)
    user = accounts.create_user("admin", "password-admin", is_admin=True)
    token = accounts.create_token(user.id, "script")
    with TestClient(create_app(service=service)) as client:
        yield client, service, {"Authorization": f"Bearer {token}"}, url


def _started(service: Service) -> int:
    regulations = Regulations(
        name="Football scoring",
        point_system=PointSystem.three_one_zero(),
        bye_points=Fraction(3),
        tiebreaks=("SB", "WIN"),
    )
    tid = service.create_tournament(regulations).tournament_id
    for name in NAMES:
        service.add_player(tid, PlayerInfo(name))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4, 5))
    service.start(tid)
    return tid


def _api_points(client: Any, tid: int) -> dict[int, float]:
    body = client.get(f"/api/v1/tournaments/{tid}/standings").json()
    return {row["start"]: row["points"] for row in body["rows"]}


def _page_points(client: Any, path: str, row_id: str) -> dict[int, float]:
    html = client.get(path).text
    found = re.findall(
        rf'<tr id="{row_id}(\d+)"[^>]*>.*?<td class="pts"><b>([^<]*)</b>', html, re.S
    )
    return {int(start): float(text.replace(",", ".")) for start, text in found}


def _show_points(url: str, tid: int, capsys: pytest.CaptureFixture[str]) -> dict[int, float]:
    capsys.readouterr()
    assert main(["show", "--tournament", str(tid), "--db", url]) == 0
    out = capsys.readouterr().out
    standings = out[out.index("standings") :]
    points: dict[int, float] = {}
    for line in standings.splitlines():
        cells = [c.strip() for c in re.split(r"[│┃|]", line) if c.strip()]
        if len(cells) >= 4 and cells[1].isdigit() and cells[2] in NAMES:
            points[int(cells[1])] = float(cells[3])
    return points


def _core_points(service: Service, tid: int) -> dict[int, float]:
    table = compute_standings(service.tournament(tid), ("SB", "WIN"))
    return {row.start: float(row.points) for row in table.rows}


def test_r_rr_12_every_surface_counts_a_free_round_once_its_round_has_begun(
    site: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    client, service, auth, url = site
    tid = _started(service)
    tournament = service.tournament(tid)
    sitters = {rnd.number: rnd.byes[0].player for rnd in tournament.rounds}
    assert len(sitters) == 5 and sorted(sitters.values()) == [1, 2, 3, 4, 5]
    nobody = dict.fromkeys(range(1, 6), 0.0)
    assert _api_points(client, tid) == nobody  # before: 3 points each, five rounds early
    assert _page_points(client, f"/t/{tid}", "p") == nobody
    assert _show_points(url, tid, capsys) == nobody

    results = ["1-0", "1/2-1/2", "0-1"]
    played = 0
    for rnd in tournament.rounds:
        for game in rnd.games:
            result = results[played % 3]
            played += 1
            posted = client.post(
                f"/api/v1/tournaments/{tid}/rounds/{rnd.number}/boards/{game.board}/result",
                json={"result": result},
                headers=auth,
            )
            assert posted.status_code == 200, posted.text
            want = _core_points(service, tid)
            begun = {n for n in sitters if n <= rnd.number}
            for start in want:
                own = [n for n in begun if sitters[n] == start]
                assert want[start] >= 3 * len(own)
            assert _api_points(client, tid) == want
            if game is rnd.games[0] or played % 4 == 0:  # the pages and the CLI now and then
                assert _page_points(client, f"/t/{tid}", "p") == want
                assert _page_points(client, f"/t/{tid}/standings", "s") == want
                assert _show_points(url, tid, capsys) == want
        if rnd.number < 5:  # the next round's sitter has nothing of it yet
            later = sitters[rnd.number + 1]
            earned = 0.0
            for other in tournament.rounds[: rnd.number]:
                for g in other.games:
                    if later in (g.white, g.black):
                        earned += _earned(service, tid, other.number, g.board, later)
            earned += 3 * sum(1 for n in range(1, rnd.number + 1) if sitters[n] == later)
            assert _api_points(client, tid)[later] == earned
    final = compute_standings(service.tournament(tid), ("SB", "WIN"), final=True)
    body = client.get(f"/api/v1/tournaments/{tid}/standings").json()
    assert [(r["start"], r["rank"], r["points"]) for r in body["rows"]] == [
        (row.start, row.rank, float(row.points)) for row in final.rows
    ]
    # seven decisive games (3 points each), three draws (1 + 1), five free rounds of 3
    assert sum(r["points"] for r in body["rows"]) == 7 * 3 + 3 * 2 + 5 * 3


def _earned(service: Service, tid: int, number: int, board: int, start: int) -> float:
    game = next(g for g in service.tournament(tid).rounds[number - 1].games if g.board == board)
    assert game.result is not None
    outcome = game.result.white if start == game.white else game.result.black
    return float(outcome.points(PointSystem.three_one_zero()))
