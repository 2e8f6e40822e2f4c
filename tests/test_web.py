"""The web app through HTTP (no browser): the API flow, CSRF, sign-in, rate limits, exports."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from test_service_support import migrated

from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.web_support import csrf_of

SIX = [
    ("Григорьев, Павел", 1874),
    ("Тарасов, Олег", 1790),
    ("Белова, Дарья", 1752),
    ("Орлов, Никита", 1815),
    ("Савельева, Мария", 1688),
    ("Крылов, Иван", 1731),
]


@pytest.fixture()
def site(tmp_path: Path):  # type: ignore[no-untyped-def]
    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'web.db'}")))
    app = create_app(service=service)
    accounts = Accounts(service.store)
    with TestClient(app) as client:
        yield client, service, accounts


def token_for(accounts: Accounts, name: str, **flags: bool) -> str:
    user = accounts.create_user(name, "password-" + name, **flags)
    return accounts.create_token(user.id, "test")


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_api_round_robin_end_to_end(site) -> None:  # type: ignore[no-untyped-def]
    client, _service, accounts = site
    admin = token_for(accounts, "arbiter", is_admin=True)
    body = {
        "name": "Club",
        "tiebreaks": "rr",
        "players": [{"name": n, "rating": r} for n, r in SIX],
    }
    created = client.post("/api/v1/tournaments", json=body, headers=auth(admin))
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    order = list(range(1, 7))
    lots = client.post(
        f"/api/v1/tournaments/{tid}/lots",
        json={"method": "manual", "order": order},
        headers=auth(admin),
    )
    assert lots.status_code == 200, lots.text
    assert client.post(f"/api/v1/tournaments/{tid}/start", headers=auth(admin)).status_code == 200
    # seed 003's crosstable, entered game by game through the API
    rounds = client.get(f"/api/v1/tournaments/{tid}/rounds/1").json()
    assert [(g["white"], g["black"]) for g in rounds["games"]] == [(1, 6), (2, 5), (3, 4)]
    results = _seed_003_results()
    for rnd in range(1, 6):
        games = client.get(f"/api/v1/tournaments/{tid}/rounds/{rnd}").json()["games"]
        for game in games:
            result = results[(game["white"], game["black"])]
            answer = client.post(
                f"/api/v1/tournaments/{tid}/rounds/{rnd}/boards/{game['board']}/result",
                json={"result": result, "idempotency_key": f"r{rnd}b{game['board']}"},
                headers=auth(admin),
            )
            assert answer.status_code == 200, answer.text
        if rnd == 1:  # (after the last result the tournament is finished: no conflict then)
            # a retry with the same key is answered with the first answer, not a conflict
            again = client.post(
                f"/api/v1/tournaments/{tid}/rounds/1/boards/1/result",
                json={"result": results[(1, 6)], "idempotency_key": "r1b1"},
                headers=auth(admin),
            )
            assert again.status_code == 200 and again.json()["replayed"] is True
            conflict = client.post(
                f"/api/v1/tournaments/{tid}/rounds/1/boards/1/result",
                json={"result": "1-0"},
                headers=auth(admin),
            )
            assert conflict.status_code == 409 and conflict.json()["current"] == "½-½"
    # the last result finished it; the organiser's Finish then changes nothing
    finish = client.post(f"/api/v1/tournaments/{tid}/finish", headers=auth(admin))
    assert finish.status_code == 200 and finish.json()["replayed"] is True
    standings = client.get(f"/api/v1/tournaments/{tid}/standings").json()
    rows = {row["start"]: row for row in standings["rows"]}
    assert [row["start"] for row in standings["rows"]] == [1, 2, 3, 4, 5, 6]
    assert [rows[s]["SB"] for s in range(1, 7)] == [9, 6.5, 5.25, 4.75, 4, 4.5]
    assert standings["final"] is True
    explained = client.get(f"/api/v1/tournaments/{tid}/players/2/explain").json()
    sb = next(e for e in explained if e["code"] == "SB")
    assert sb["value"] == 6.5 and sb["items"]
    trf = client.get(f"/api/v1/tournaments/{tid}/export/trf2026")
    assert trf.status_code == 200 and "Григорьев" in trf.text
    pdf = client.get(f"/t/{tid}/pdf/crosstable.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert client.get(f"/t/{tid}/pdf/certificates.pdf").content.startswith(b"%PDF")


def _seed_003_results() -> dict[tuple[int, int], str]:
    """Seed 003's six-player table (crosstable/examples/club_rr6.trf), by (white, black)."""
    from importlib import resources

    from crosstable.formats.trf import parse_trf

    text = resources.files("crosstable").joinpath("examples", "club_rr6.trf").read_text("utf-8")
    tournament = parse_trf(text).tournament
    out = {}
    for rnd in tournament.rounds:
        for game in rnd.games:
            assert game.result is not None
            out[(game.white, game.black)] = game.result.label()
    return out


def test_pages_render_in_both_languages(site) -> None:  # type: ignore[no-untyped-def]
    client, service, _accounts = site
    from crosstable.web.demo import build_demo

    demo = build_demo(service)
    page = client.get(demo["path"])
    assert page.status_code == 200 and "Crosstable" in page.text
    russian = client.get(demo["path"], headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    assert "Турнирная таблица" in russian.text
    client.cookies.set("lang", "en")
    assert "Crosstable" in client.get(demo["path"], headers={"Accept-Language": "ru"}).text
    for path in ("/", "/t/1", "/t/1/standings", "/t/1/players/3", "/t/1/history", "/t/2/rounds/1"):
        assert client.get(path).status_code == 200, path
    # the table shows seed 000's first round: 1 beat 10, 4 and 7 drew
    fragment = client.get("/t/2/live").text
    assert "½" in fragment and "1" in fragment


def test_csrf_is_required_for_session_forms(site) -> None:  # type: ignore[no-untyped-def]
    client, _service, accounts = site
    accounts.create_user("ann", "correct horse battery", is_admin=True)
    page = client.get("/signin")
    token = csrf_of(page.text)
    refused = client.post("/signin", data={"username": "ann", "password": "correct horse battery"})
    assert refused.status_code == 403
    signed = client.post(
        "/signin",
        data={"username": "ann", "password": "correct horse battery", "csrf_token": token},
        follow_redirects=False,
    )
    assert signed.status_code == 303
    # signed in with the cookie: an API change without the header is refused
    body = {"name": "Blitz", "players": [{"name": n} for n, _ in SIX[:4]]}
    assert client.post("/api/v1/tournaments", json=body).status_code == 403
    fresh = csrf_of(client.get("/").text)
    made = client.post("/api/v1/tournaments", json=body, headers={"X-CSRF-Token": fresh})
    assert made.status_code == 201, made.text


def test_sign_in_is_rate_limited(site) -> None:  # type: ignore[no-untyped-def]
    client, _service, accounts = site
    accounts.create_user("bob", "correct horse battery")
    token = csrf_of(client.get("/signin").text)
    codes = [
        client.post(
            "/signin",
            data={"username": "bob", "password": "wrong", "csrf_token": token},
            follow_redirects=False,
        ).status_code
        for _ in range(12)
    ]
    assert codes[:10] == [303] * 10 and codes[-1] == 429


def test_open_redirect_is_refused(site) -> None:  # type: ignore[no-untyped-def]
    client, _service, _accounts = site
    answer = client.get("/lang/ru?next=https://evil.example/", follow_redirects=False)
    assert answer.headers["location"] == "/"


def test_bad_api_token_is_401(site) -> None:  # type: ignore[no-untyped-def]
    client, _service, _accounts = site
    answer = client.post(
        "/api/v1/tournaments/1/rounds/1/boards/1/result",
        json={"result": "1-0"},
        headers=auth("nope"),
    )
    assert answer.status_code == 401


def test_russian_catalog_is_compiled_and_complete() -> None:
    """The shipped .mo is the compiled .po, and every message of the templates is translated."""
    from babel.messages.mofile import read_mo
    from babel.messages.pofile import read_po

    from crosstable.web.i18n import LOCALE_DIR

    folder = LOCALE_DIR / "ru" / "LC_MESSAGES"
    with open(folder / "messages.po", "rb") as po, open(folder / "messages.mo", "rb") as mo:
        source, compiled = read_po(po), read_mo(mo)
    untranslated = [m.id for m in source if m.id and not m.string]
    assert untranslated == []

    def table(catalog: object) -> dict[str, object]:
        out: dict[str, object] = {}
        for m in catalog:  # type: ignore[attr-defined]
            if not m.id:
                continue
            key = str(m.id[0] if isinstance(m.id, (list, tuple)) else m.id)
            out[key] = tuple(m.string) if isinstance(m.string, (list, tuple)) else m.string
        return out

    assert table(source) == table(compiled)
    with open(LOCALE_DIR / "messages.pot", "rb") as pot:
        template = {str(m.id) for m in read_po(pot) if m.id}
    assert template <= {str(m.id) for m in source if m.id}


def test_undo_from_the_history_page_takes_a_result_back(site) -> None:  # type: ignore[no-untyped-def]
    client, service, _accounts = site
    from crosstable.web.demo import PASSWORD, USERNAME, build_demo

    build_demo(service)
    token = csrf_of(client.get("/signin").text)
    client.post("/signin", data={"username": USERNAME, "password": PASSWORD, "csrf_token": token})
    token = csrf_of(client.get("/t/2/rounds/2").text)
    tapped = client.post(
        "/t/2/rounds/2/boards/1",
        data={"csrf_token": token, "action": "record", "result": "0-1", "key": "k1"},
        headers={"HX-Request": "true"},
    )
    assert tapped.status_code == 200 and "done" in tapped.text
    crossing = client.get("/api/v1/tournaments/2/crosstable").json()["players"]
    assert crossing[9]["results"]["6"][0]["result"] == "0"  # 10 lost to 6 in round 2
    undone = client.post("/t/2/manage/undo", data={"csrf_token": token}, follow_redirects=False)
    assert undone.status_code == 303
    crossing = client.get("/api/v1/tournaments/2/crosstable").json()["players"]
    assert crossing[9]["results"]["6"][0]["result"] == ""
    history = client.get("/t/2/history").text
    assert "undone" in history and "undo #" in history


def test_registration_window_and_approval() -> None:
    import datetime as dt

    from crosstable.service import FixedClock, Regulations

    clock = FixedClock(dt.datetime(2026, 5, 1, 12, tzinfo=dt.UTC))
    service = Service(open_store("sqlite:///:memory:"), clock=clock)
    accounts = Accounts(service.store, clock=clock)
    master = accounts.create_user("master", "password-master", is_master=True)
    player = accounts.create_user("player", "password-player")
    tid = service.create_tournament(Regulations(name="Open")).tournament_id
    assert accounts.claim(tid, master).approval == "pending"
    problems = accounts.registration_problems(tid, player)
    assert any("approval" in p for p in problems)
    accounts.set_access(
        tid,
        approval="approved",
        self_registration=True,
        opens_at="2026-05-02T10:00",
        closes_at="2026-05-03T10:00",
    )
    assert accounts.registration_problems(tid, player) == ["registration opens at 2026-05-02T10:00"]
    accounts.set_access(tid, opens_at="2026-04-01T10:00", closes_at="2026-04-30T10:00")
    assert accounts.registration_problems(tid, player) == [
        "registration closed at 2026-04-30T10:00"
    ]
    accounts.set_access(tid, closes_at=None)
    assert accounts.registration_problems(tid, player) == []
