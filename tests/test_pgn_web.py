"""PGN on the web and the command line (issue 16 item 4): the JSON API (a game server
posts a game with its result), the game page (moves and final position without
JavaScript, the board picture), the round page's upload, the downloads, Russian, and
`crosstable pgn export/import`. SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess.pgn
import pytest

pytest.importorskip("fastapi")

from test_service_support import db_url, make_service, started, store  # noqa: F401
from web_support import signed_in

from crosstable.cli import main
from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import Store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

MATE = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"


@pytest.fixture
def site(store: Store) -> Iterator[tuple[TestClient, Service, int, dict[str, str]]]:
    service = make_service(store)
    tid = started(service, 4)
    accounts = Accounts(service.store)
    user = accounts.create_user("org", "password-org", is_admin=True)
    token = accounts.create_token(user.id, "game server")
    with TestClient(create_app(service=service)) as client:
        yield client, service, tid, {"Authorization": f"Bearer {token}"}


def _pgn(service: Service, tid: int, board: int, moves: str = MATE) -> str:
    game = next(g for g in service.overview(tid).games if g.round == 1 and g.board == board)
    result = moves.rsplit(" ", 1)[-1]
    names = f'[White "{game.white_name}"]\n[Black "{game.black_name}"]\n'
    return f'{names}[Result "{result}"]\n\n{moves}\n'


def test_a_game_server_posts_a_game_with_its_result(site: Any) -> None:
    client, service, tid, auth = site
    url = f"/api/v1/tournaments/{tid}/rounds/1/boards/1/pgn"
    answer = client.post(
        url, json={"pgn": _pgn(service, tid, 1), "idempotency_key": "k"}, headers=auth
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["kind"] == "moves"
    again = client.post(
        url, json={"pgn": _pgn(service, tid, 1), "idempotency_key": "k"}, headers=auth
    )
    assert again.json()["replayed"] is True
    game = client.get(url).json()
    assert game["result"] == "1-0" and "Qxf7#" in game["pgn"]
    bad = client.post(
        f"/api/v1/tournaments/{tid}/rounds/1/boards/2/pgn",
        json={"pgn": _pgn(service, tid, 2, "1. e4 e5 2. Ke3 *")},
        headers=auth,
    )
    assert bad.status_code == 422
    assert bad.json()["detail"] == "pgn:1: game 1: White's move 2, Ke3, is illegal"
    client.cookies.set("lang", "ru")
    bad = client.post(
        f"/api/v1/tournaments/{tid}/rounds/1/boards/2/pgn",
        json={"pgn": _pgn(service, tid, 2, "1. e4 e5 2. Ke3 *")},
        headers=auth,
    )
    assert bad.json()["detail"] == "pgn:1: партия 1: ход белых 2, Ke3, невозможен"


def test_nobody_else_may_post_moves(site: Any) -> None:
    client, service, tid, _auth = site
    url = f"/api/v1/tournaments/{tid}/rounds/1/boards/1/pgn"
    assert client.post(url, json={"pgn": _pgn(service, tid, 1)}).status_code in (401, 403)
    assert service.game_moves(tid, 1, 1).pgn is None


def test_the_game_page_shows_moves_and_the_final_position_without_javascript(site: Any) -> None:
    client, service, tid, _auth = site
    assert 'id="game-no-moves"' in client.get(f"/t/{tid}/rounds/1/boards/1").text
    service.record_moves(tid, 1, 1, _pgn(service, tid, 1))
    page = client.get(f"/t/{tid}/rounds/1/boards/1").text
    assert 'data-ply="7" data-last="7"' in page  # the final position first
    assert 'board.svg?ply=7"' in page
    assert re.search(r'data-ply="7" class="current" aria-current="true">Qxf7#</a>', page)
    assert f'<li value="2"><a href="/t/{tid}/rounds/1/boards/1?ply=3#game-view"' in page
    stepped = client.get(f"/t/{tid}/rounds/1/boards/1?ply=3").text
    assert 'board.svg?ply=3"' in stepped and 'id="nav-prev" rel="nofollow"' in stepped
    assert f'href="/t/{tid}/rounds/1/boards/1?ply=2#game-view" id="nav-prev"' in stepped
    picture = client.get(f"/t/{tid}/rounds/1/boards/1/board.svg?ply=7")
    assert picture.headers["content-type"].startswith("image/svg+xml")
    assert picture.text.startswith("<svg") and "check" in picture.text  # mate: the king in check
    assert client.get(f"/t/{tid}/rounds/1/boards/1/board.svg?ply=0").text != picture.text
    client.cookies.set("lang", "ru")
    assert "Ходы этой партии не внесены" in client.get(f"/t/{tid}/rounds/1/boards/2").text
    assert client.get(f"/t/{tid}/rounds/1/boards/9").status_code == 404


def test_the_round_page_reads_a_rounds_pgn_file(site: Any) -> None:
    client, service, tid, _auth = site
    token = signed_in(client, "org")
    page = client.get(f"/t/{tid}/rounds/1").text
    assert 'id="round-pgn-upload"' in page and f"/t/{tid}/games.pgn" in page
    text = _pgn(service, tid, 1) + "\n" + _pgn(service, tid, 2, "1. d4 d5 *")
    answer = client.post(
        f"/t/{tid}/rounds/1/pgn",
        data={"csrf_token": token},
        files={"file": ("round1.pgn", text.encode(), "application/x-chess-pgn")},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    assert service.games_with_moves(tid) == {(1, 1), (1, 2)}
    shown = client.get(f"/t/{tid}/rounds/1").text
    assert "round 1: PGN read (games: 2, moves recorded: 2, results recorded: 1)" in shown
    wrong = client.post(
        f"/t/{tid}/rounds/1/pgn",
        data={"csrf_token": token, "pgn": '[White "Nobody"]\n[Black "Else"]\n\n1. e4 *'},
        follow_redirects=False,
    )
    assert wrong.status_code == 303
    assert "no board of round 1 has these players" in client.get(f"/t/{tid}/rounds/1").text
    # the game page's form: pasted, then removed
    game = client.post(
        f"/t/{tid}/rounds/1/boards/2/pgn",
        data={"csrf_token": token, "action": "clear"},
        follow_redirects=False,
    )
    assert game.status_code == 303 and service.games_with_moves(tid) == {(1, 1)}


def test_the_tournaments_pgn_downloads_from_the_print_page_and_the_api(site: Any) -> None:
    client, service, tid, _auth = site
    service.record_moves(tid, 1, 1, _pgn(service, tid, 1))
    assert f'href="/t/{tid}/games.pgn"' in client.get(f"/t/{tid}/print").text
    assert f'href="/t/{tid}/games.pgn" id="pgn-games"' in client.get(f"/t/{tid}").text
    for url in (f"/t/{tid}/games.pgn", f"/api/v1/tournaments/{tid}/pgn"):
        answer = client.get(url)
        assert answer.headers["content-type"].startswith("application/x-chess-pgn")
        assert "attachment" in answer.headers["content-disposition"]
        first = chess.pgn.read_game(io.StringIO(answer.text))
        assert first is not None and first.headers["Round"] == "1.1"
        assert first.headers["Result"] == "1-0" and len(list(first.mainline_moves())) == 7


def test_the_command_line_exports_and_imports(tmp_path: Path, capsys: Any) -> None:
    from crosstable.store import open_store

    url = f"sqlite:///{tmp_path / 'club.db'}"
    store = open_store(url)
    service = make_service(store)
    tid = started(service, 4)
    round_file = tmp_path / "r1.pgn"
    round_file.write_text(_pgn(service, tid, 1), encoding="utf-8")
    store.close()
    assert main(["pgn", "import", str(round_file), "--round", "1", "--db", url]) == 0
    assert "moves recorded from PGN" in capsys.readouterr().out
    out = tmp_path / "all.pgn"
    assert main(["pgn", "export", str(tid), "-o", str(out), "--db", url]) == 0
    first = chess.pgn.read_game(io.StringIO(out.read_text(encoding="utf-8")))
    assert first is not None and first.headers["Result"] == "1-0"
    bad = tmp_path / "bad.pgn"
    bad.write_text("1. e4 e5 2. Ke3 *", encoding="utf-8")
    assert main(["pgn", "import", str(bad), "-r", "1", "-b", "2", "--db", url]) == 2
    assert "bad.pgn:1: game 1: White's move 2, Ke3, is illegal" in capsys.readouterr().err
    assert main(["pgn", "import", str(tmp_path / "none.pgn"), "--db", url]) == 2
    assert "Traceback" not in capsys.readouterr().err
