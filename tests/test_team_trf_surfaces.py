"""A team TRF through every surface (docs/teams.md, "Importing a team TRF"): `crosstable
import FILE.trf` makes the team tournament (its team standings on the command line), a
contradictory file is one line and exit status 2 with nothing stored; the JSON API's
import (`POST /api/v1/tournaments/import`) makes it too, its team table served, and
refuses a contradictory file with a 422 naming the record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from crosstable.cli import main
from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.test_team_trf_import import _mutated, club_file
from tests.web_support import csrf_of

WRONG_MP = "310   1 Ararat                                           5.0    4.5   1     1    2    3"


def run(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str, str]:
    code = main([*args, "--db", str(db)])
    out, err = capsys.readouterr()
    return code, out, err


def test_r_b_3_crosstable_import_makes_the_team_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "teams.db"
    good = tmp_path / "club.trf"
    good.write_text(club_file(), encoding="utf-8")
    code, _, err = run(capsys, db, "import", str(good))
    assert code == 0, err
    assert "note: a team played out of its roster order (300): the board order is free" in err
    code, out, err = run(capsys, db, "team", "standings", "--format", "json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    assert [(r["team"], r["MP"], r["GP"]) for r in rows] == [(1, 6, 4.5), (2, 4, 3.5), (3, 2, 1)]
    bad = tmp_path / "bad.trf"
    bad.write_text(_mutated(club_file(), "310   1", WRONG_MP), encoding="utf-8")
    code, _, err = run(capsys, db, "import", str(bad))
    assert code == 2
    assert (
        err.strip()
        .splitlines()[-1]
        .endswith(f"{bad} (record 310): team 1: the file says match points 5, the games give 6")
    )
    code, out, _ = run(capsys, db, "tournaments")
    assert code == 0 and out.count("Club teams") == 1  # nothing stored


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("teams") / "web.db"
    service = Service(open_store(f"sqlite:///{path}"))
    accounts = Accounts(service.store)
    admin = accounts.create_user("admin", "password-admin", is_admin=True)
    token = accounts.create_token(admin.id, "script")
    with TestClient(create_app(service=service)) as client:
        csrf = csrf_of(client.get("/signin").text)
        client.post(
            "/signin", data={"username": "admin", "password": "password-admin", "csrf_token": csrf}
        )
        yield client, service, {"Authorization": f"Bearer {token}"}


def test_r_b_3_the_api_imports_a_team_file_and_refuses_a_contradictory_one(site: Any) -> None:
    client, service, auth = site
    before = len(service.tournaments())
    bad = _mutated(club_file(), "310   1", WRONG_MP)
    refused = client.post("/api/v1/tournaments/import", json={"trf": bad}, headers=auth)
    assert refused.status_code == 422
    assert "upload (record 310): team 1: the file says match points 5" in refused.text
    assert len(service.tournaments()) == before
    made = client.post("/api/v1/tournaments/import", json={"trf": club_file()}, headers=auth)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    body = client.get(f"/api/v1/tournaments/{tid}/teams").json()
    assert [(r["team"], r["MP"]) for r in body["rows"]] == [(1, 6), (2, 4), (3, 2)]
    assert "330 -+ 003   3   1" in client.get(f"/api/v1/tournaments/{tid}/export/trf2026").text


def test_r_b_3_the_import_page_takes_a_team_file(site: Any) -> None:
    client, service, _ = site
    before = len(service.tournaments())
    csrf = csrf_of(client.get("/import").text)
    bad = {"file": ("bad.trf", _mutated(club_file(), "310   1", WRONG_MP).encode(), "text/plain")}
    refused = client.post("/import", data={"csrf_token": csrf}, files=bad)
    assert refused.status_code == 422 and "the file says match points 5" in refused.text
    assert len(service.tournaments()) == before
    files = {"file": ("club.trf", club_file().encode(), "text/plain")}
    done = client.post("/import", data={"csrf_token": csrf}, files=files, follow_redirects=False)
    assert done.status_code == 303, done.text
    tid = int(done.headers["location"].split("/")[2])
    page = client.get(f"/t/{tid}/teams")
    assert page.status_code == 200
    assert all(name in page.text for name in ("Ararat", "Sevan", "Masis"))
