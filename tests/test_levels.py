"""Classes and levels (seed 002): the administrator's register of rating bands, a
player's level set by hand or by rating, a class or level tournament that accepts only
players of its level and starts only with at least 11, and petitions that name a level
of the register (SQLite and PostgreSQL)."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support and test_web_swiss

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_portal_rules import accounts_of, enter, open_tournament, person, start
from test_series_news import _series, _service
from test_series_petitions import ELEVEN
from test_service_support import db_url, migrated, service, store  # noqa: F401
from test_web_swiss import Site, site  # noqa: F401

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.levels import HIGHEST, MIN_PLAYERS, Band, Levels
from crosstable.service import FixedClock, PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.service.clockwork import tick_all
from crosstable.store import Store, open_store
from crosstable.store.models import TournamentRow
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

BANDS = "Level 1: 1-1199; Level 2: 1200-1599; Level 3: 1600-"


# -- the register ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("Level 1 0-1199", "is not written as name: low-high"),
        ("A: 0-1500; B: 1400-", "A and B overlap"),
        ("A: 1500-1400", "ratings run from 0 to 4000, low first"),
        ("A: 0-5000", "ratings run from 0 to 4000"),
        ("A: 0-100; a: 200-300", "a is named twice"),
        ("A: 0-; B: 100-200", "A and B overlap"),
    ],
)
def test_r_se_7_a_register_that_does_not_read_is_refused(text: str, error: str) -> None:
    with pytest.raises(RuleError, match=error):
        Levels.parse(text)


@st.composite
def registers(draw: st.DrawFn) -> Levels:
    cuts = sorted(draw(st.sets(st.integers(1, HIGHEST - 1), min_size=0, max_size=8)))
    lows = [0, *[c + 1 for c in cuts]]
    highs: list[int | None] = [*cuts, None if draw(st.booleans()) else HIGHEST]
    pairs = enumerate(zip(lows, highs, strict=True))
    return Levels.of(Band(f"L{i}", low, high) for i, (low, high) in pairs)


@given(registers(), st.integers(1, HIGHEST))
def test_r_se_7_a_rating_falls_in_the_one_band_that_covers_it(levels: Levels, rating: int) -> None:
    covering = [b.name for b in levels.bands if b.covers(rating)]
    assert len(covering) <= 1
    assert levels.by_rating(rating) == (covering[0] if covering else None)
    assert Levels.parse(levels.text()) == levels  # the text reads back as written
    assert Levels.from_json(levels.as_json()) == levels
    assert levels.by_rating(None) is None and levels.by_rating(0) is None  # unrated: set by hand


@given(st.text(max_size=300))
def test_r_se_7_any_text_either_reads_or_is_refused_with_a_reason(text: str) -> None:
    try:
        levels = Levels.parse(text)
    except RuleError as error:
        assert str(error).startswith("levels: ")
    else:
        assert Levels.parse(levels.text()) == levels


# -- accounts ----------------------------------------------------------------------------


def test_r_se_7_a_level_comes_from_the_rating_or_is_set_by_an_administrator(
    service: Service,
) -> None:
    accounts = accounts_of(service)
    accounts.set_levels(BANDS)
    assert accounts.levels().names == ("Level 1", "Level 2", "Level 3")
    rated = person(accounts, "rated")
    accounts.set_user(rated.id, rating=1450)
    unrated = person(accounts, "unrated")
    assert accounts.level(rated.id).as_dict() == {"level": "Level 2", "how": "rating"}
    assert accounts.level(unrated.id).as_dict() == {"level": None, "how": None}
    assert accounts.set_level(unrated.id, "level 1", reason="club games").level == "Level 1"
    assert accounts.level(unrated.id).how == "assigned"
    with pytest.raises(RuleError, match="level Level 9 is not one of the portal's levels"):
        accounts.set_level(unrated.id, "Level 9")
    lines = [(e.kind, str(e.summary)) for e in accounts.account_history(unrated.id)]
    assert lines == [("level", "level set to Level 1: club games")]
    accounts.set_level(unrated.id, None, actor="ann")
    assert accounts.level(unrated.id).level is None
    assert accounts.account_history(unrated.id)[-1].summary == "level by rating again"


def test_r_se_7_a_level_tournament_takes_only_its_level_and_starts_with_eleven(
    service: Service,
) -> None:
    accounts = accounts_of(service)
    accounts.set_levels(BANDS)
    admin = person(accounts, "admin", is_admin=True)
    tid = open_tournament(service, accounts, admin, "Level 2 evening", level="Level 2")
    players = []
    for index in range(MIN_PLAYERS - 1):
        user = person(accounts, f"p{index}")
        accounts.set_user(user.id, rating=1300 + index)
        players.append(user)
    strong = person(accounts, "strong")
    accounts.set_user(strong.id, rating=1900)
    assert accounts.registration_problems(tid, strong) == [
        "this tournament is for players of Level 2; your level is Level 3"
    ]
    newcomer = person(accounts, "newcomer")
    assert "you have no level yet" in str(accounts.registration_problems(tid, newcomer))
    with pytest.raises(RuleError, match="your level is Level 3"):
        accounts.check_entry(tid, strong.id)
    for user in players:
        assert accounts.registration_problems(tid, user) == []
        enter(service, accounts, tid, user)
    with pytest.raises(RuleError, match="at least 11 players of its level \\(10 registered\\)"):
        start(service, tid)
    # a guest of another level by rating is refused at the start; one without a rating
    # is the organiser's word
    number = int(service.add_player(tid, PlayerInfo("Guest", 2100)).data["number"])
    with pytest.raises(RuleError, match="Guest — not of this level"):
        start(service, tid)
    service.remove_player(tid, number)
    service.add_player(tid, PlayerInfo("Visitor"))
    start(service, tid)
    assert service.overview(tid).status == "running"


def test_r_se_7_a_petition_names_a_level_of_the_register(store: Store) -> None:
    service, _clock = _service(store)
    sid = _series(service)
    accounts = accounts_of(service)
    accounts.set_levels("Class 3: 1-1399; Class 2: 1400-")
    with pytest.raises(RuleError, match="level class 9 is not one of the portal's levels"):
        service.petition(sid, "class 9", ELEVEN)
    pid = service.petition(sid, "class 3", ELEVEN)
    assert service.petition_info(pid)["level"] == "Class 3"  # as the register spells it
    tid = service.accept_petition(pid)
    with store.reading() as session:
        row = session.get(TournamentRow, tid)
        assert row is not None and row.status == "running"
        assert (row.regulations or {}).get("level") == "Class 3"


# -- the command line --------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_r_se_7_the_levels_commands(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    store = open_store(db_url)
    try:
        accounts = Accounts(store)
        ann = accounts.create_user("ann", "password-ann")
        accounts.set_user(ann.id, rating=1500)
    finally:
        store.close()
    code, out, _ = run(capsys, "levels", "set", "Level 1: 1-1199\nLevel 2: 1200-", "--db", db_url)
    assert (code, out) == (0, "Level 1: 1-1199\nLevel 2: 1200-\n")
    code, out, _ = run(capsys, "levels", "show", "--format", "json", "--db", db_url)
    assert json.loads(out)["levels"][1] == {"name": "Level 2", "low": 1200, "high": None}
    assert run(capsys, "levels", "user", "ann", "--db", db_url)[1] == "@ann: Level 2 (by rating)\n"
    code, out, _ = run(
        capsys, "levels", "user", "@ann", "level 1", "--reason", "club games", "--db", db_url
    )
    assert (code, out) == (0, "@ann: Level 1 (set by an administrator)\n")
    code, out, _ = run(
        capsys, "levels", "user", "ann", "--clear", "--format", "json", "--db", db_url
    )
    assert json.loads(out) == {"username": "ann", "level": "Level 2", "how": "rating"}
    # refused, nothing changed
    code, _, err = run(capsys, "levels", "set", "A: 1-100; B: 50-", "--db", db_url)
    assert code == 2 and "levels: A and B overlap" in err and "Traceback" not in err
    assert run(capsys, "levels", "show", "--db", db_url)[1].startswith("Level 1: 1-1199")
    code, _, err = run(capsys, "levels", "user", "ann", "Level 7", "--db", db_url)
    assert code == 2 and "level Level 7 is not one of the portal's levels" in err


# -- the web -----------------------------------------------------------------------------


def signed_in(client: TestClient, name: str) -> str:
    token = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/signin").text)
    assert token is not None
    client.post(
        "/signin",
        data={"username": name, "password": f"password-{name}", "csrf_token": token.group(1)},
        follow_redirects=False,
    )
    page = client.get("/admin/levels")
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', page.text)
    return "" if csrf is None else csrf.group(1)


def test_r_se_7_the_administrators_page_and_the_api(tmp_path: Path) -> None:
    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'levels.db'}")))
    accounts = accounts_of(service)
    admin = person(accounts, "admin", is_admin=True)
    ann = person(accounts, "ann")
    accounts.set_user(ann.id, rating=1500)
    client = TestClient(create_app(service=service))
    try:
        csrf = signed_in(client, "admin")
        form = {"csrf_token": csrf, "levels": "Level 1: 1-1199\nLevel 2: 1200-"}
        assert client.post("/admin/levels", data=form).status_code == 200
        page = client.get("/admin/levels", headers={"Accept-Language": "ru"}).text
        assert "Классы и уровни" in page and "Level 2" in page and "1200–" in page
        refused = client.post("/admin/levels", data=form | {"levels": "A: 1-100; B: 50-"})
        assert "levels: A and B overlap" in refused.text  # said on the page
        assert accounts.levels().names == ("Level 1", "Level 2")  # unchanged
        form = {"csrf_token": csrf, "username": "@ann", "level": "Level 1", "reason": "club"}
        assert client.post("/admin/levels/user", data=form).status_code == 200
        assert accounts.level(ann.id).as_dict() == {"level": "Level 1", "how": "assigned"}
        # the JSON API
        admin_key = {"Authorization": f"Bearer {accounts.create_token(admin.id)}"}
        ann_key = {"Authorization": f"Bearer {accounts.create_token(ann.id)}"}
        assert client.get("/api/v1/levels").json()["levels"][0]["name"] == "Level 1"
        bands = {
            "levels": [
                {"name": "Class B", "low": 1, "high": 1399},
                {"name": "Class A", "low": 1400},
            ]
        }
        assert client.put("/api/v1/levels", json=bands, headers=ann_key).status_code == 403
        answer = client.put("/api/v1/levels", json=bands, headers=admin_key)
        assert answer.status_code == 200 and answer.json()["levels"][1]["high"] is None
        mine = client.get(f"/api/v1/users/{ann.id}/level", headers=ann_key).json()
        assert mine == {"level": "Class A", "how": "rating"}  # "Level 1" is no level any more
        assert client.get(f"/api/v1/users/{admin.id}/level", headers=ann_key).status_code == 403
        body = {"level": "class b", "reason": "juniors"}
        answer = client.put(f"/api/v1/users/{ann.id}/level", json=body, headers=admin_key)
        assert answer.json() == {"level": "Class B", "how": "assigned"}
        wrong = client.put(
            f"/api/v1/users/{ann.id}/level",
            json={"level": "Class Z"},
            headers=admin_key | {"Accept-Language": "ru"},
        )
        assert wrong.status_code == 422 and "не один из уровней портала" in wrong.text
    finally:
        service.store.close()


def test_r_se_7_a_tournament_names_one_of_the_portals_levels(service: Service) -> None:
    with pytest.raises(RuleError, match="the portal keeps no levels yet"):
        service.create_tournament(Regulations(name="Level evening", details={"level": "L2"}))
    accounts_of(service).set_levels(BANDS)
    with pytest.raises(RuleError, match="level L9 is not one of the portal's levels"):
        service.create_tournament(Regulations(name="Level evening", details={"level": "L9"}))
    assert service.tournaments() == []  # nothing stored
    tid = service.create_tournament(
        Regulations(name="Level evening", details={"level": "Level 2"})
    ).tournament_id
    with pytest.raises(RuleError, match="level L9 is not one of the portal's levels"):
        service.edit_regulations(tid, details={"level": "L9"})
    assert service.overview(tid).settings.regulations["level"] == "Level 2"


def test_r_se_7_the_wizard_the_api_and_the_command_line_make_a_level_tournament(
    site: Site, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site.accounts.set_levels(BANDS)
    page = site.client.get("/new").text
    assert '<select name="level">' in page and "<option>Level 2</option>" in page
    tid = site.create(name="Level 2 evening", level="Level 2", list="A\nB\nC\nD")
    assert site.service.overview(tid).settings.regulations["level"] == "Level 2"
    made = site.client.post(
        "/api/v1/tournaments", json={"name": "Api", "level": "Level 9"}, headers=site.auth
    )
    assert (
        made.status_code == 422 and "level Level 9 is not one of the portal's levels" in made.text
    )
    db = str(tmp_path / "cli.db")
    assert main(["new", "Evening", "--level", "Level 1", "--db", db]) == 2
    assert "the portal keeps no levels yet" in capsys.readouterr().err


def test_r_se_7_a_level_tournament_short_of_players_is_postponed_by_its_clock(
    store: Store,
) -> None:
    service = Service(store, clock=FixedClock(dt.datetime(2026, 12, 7, 12, tzinfo=dt.UTC)))
    accounts_of(service).set_levels(BANDS)
    details = {"level": "Level 2", "starts_at": "2026-12-07T18:00:00+00:00"}
    tid = service.create_tournament(Regulations(name="Level 2", details=details)).tournament_id
    for index in range(MIN_PLAYERS - 1):
        service.add_player(tid, PlayerInfo(f"P{index}", 1300 + index))
    service.clock.advance(dt.timedelta(hours=7))  # type: ignore[attr-defined]
    said = tick_all(service)
    assert len(said) == 1 and "at least 11 players of its level" in said[0]
    assert "the start moved to 2026-12-08T18:00:00+00:00" in said[0]
    assert service.overview(tid).status == "registration"
    service.add_player(tid, PlayerInfo("Eleventh", 1450))
    service.clock.advance(dt.timedelta(days=1))  # type: ignore[attr-defined]
    assert "tournament started" in tick_all(service)[0]


def test_r_se_7_a_list_of_too_many_bands_is_refused_before_it_is_read() -> None:
    bands = [{"name": f"L{n}", "low": n, "high": n} for n in range(1, 10_002)]
    with pytest.raises(RuleError, match="at most 50 levels"):
        Levels.from_json(bands)
