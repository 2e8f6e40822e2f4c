"""Each imported rating list keeps the month it is valid for, and a tournament's ratings
are checked against the lists and their months (FIDE's checklist, Q133 and Q137): the
service, the command line, the administrators' page and the JSON API, on SQLite and
PostgreSQL."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import datetime as dt
import io
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.service.errors import NotFoundError
from crosstable.service.list_month import list_month, month_key, month_of_name, parse_month
from crosstable.service.rating_list_month import RatingListMonths
from crosstable.service.rating_lists import RatingLists
from crosstable.store import Store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.rating_list_files import PLAYERS, fide_txt, zipped
from tests.test_service_support import db_url, make_service, service, store  # noqa: F401
from tests.web_support import signed_in


def _import(service: Service, tmp_path: Path, name: str, players: Any, **kw: Any) -> Any:
    return RatingLists(service).import_file(
        zipped(tmp_path, name, "list.txt", fide_txt(players)), **kw
    )


def test_r_b_1_q137_each_list_keeps_its_month(service: Service, tmp_path: Path) -> None:
    # the service's clock says 1 May 2026
    assert _import(service, tmp_path, "players_list.zip", PLAYERS[:1]).month == "2026-05"
    assert _import(service, tmp_path, "standard_apr26frl.zip", PLAYERS[1:2]).month == "2026-04"
    given_month = _import(service, tmp_path, "club.zip", PLAYERS[2:3], month="2026-03")
    assert given_month.month == "2026-03"
    months = {row.name: row.month for row in RatingLists(service).imported()}
    assert months == {
        "players_list.zip": "2026-05",
        "standard_apr26frl.zip": "2026-04",
        "club.zip": "2026-03",
    }
    # a bad month is refused before anything is read: nothing changes
    with pytest.raises(RuleError, match="rating list month '2026-13': write it as YYYY-MM"):
        _import(service, tmp_path, "other.zip", PLAYERS[3:], month="2026-13")
    assert {row.name for row in RatingLists(service).imported()} == set(months)
    # imported again with another month: the newer month holds
    _import(service, tmp_path, "club.zip", PLAYERS[2:3], month="2026-02")
    assert {r.name: r.month for r in RatingLists(service).imported()}["club.zip"] == "2026-02"


def test_r_b_1_q133_q137_the_check_names_differences_and_the_lists_month(
    service: Service, tmp_path: Path
) -> None:
    _import(service, tmp_path, "standard_apr26frl.zip", PLAYERS[:3])
    lists, months = RatingLists(service), RatingListMonths(service)

    def tournament(start: dt.date | None, **details: str) -> int:
        regulations = Regulations(name="Club", start_date=start, details=details)
        tid = service.create_tournament(regulations).tournament_id
        lists.add_player(tid, 1503014)  # 2831 from the list
        service.add_player(tid, PlayerInfo("Caruana, Fabiano", 2700, fide_id="2020009"))
        service.add_player(tid, PlayerInfo("Guest", 1500, fide_id="999"))  # not listed
        service.add_player(tid, PlayerInfo("Nobody", 1400))  # no FIDE id: not checked
        return tid

    may = months.check(tournament(dt.date(2026, 5, 10)))
    assert (may.month, may.rating_type.value) == ("2026-05", "standard")
    assert [p.number for p in may.players] == [1, 2, 3]
    assert [p.number for p in may.other_month] == [1, 2]
    assert [(p.number, p.rating, p.listed) for p in may.differing] == [(2, 2700, 2805)]
    assert [p.number for p in may.not_listed] == [3]
    assert [str(w) for w in may.warnings()] == [
        "player 1 Carlsen, Magnus: the rating list is of 2026-04, not of 2026-05 "
        "(the tournament's month)",
        "player 2 Caruana, Fabiano: the rating list is of 2026-04, not of 2026-05 "
        "(the tournament's month)",
        "player 2 Caruana, Fabiano: rating 2700 in the tournament, 2805 in the list",
    ]
    said = may.as_json()
    assert said["consistent"] is False and said["month"] == "2026-05"
    assert said["players"][2] == {
        "number": 3,
        "name": "Guest",
        "fide_id": 999,
        "rating": 1500,
        "listed": None,
        "month": None,
        "in_lists": False,
    }
    # a tournament that started in April: the April list is the right one
    april = months.check(tournament(dt.date(2026, 4, 2)))
    assert april.month == "2026-04" and not april.other_month and not april.month_warnings()
    # an event of more than 30 days, or one without a start date: the current month
    long = months.check(tournament(dt.date(2026, 4, 2), long_event="yes"))
    assert long.month == "2026-05" and [p.number for p in long.other_month] == [1, 2]
    assert months.check(tournament(None)).month == "2026-05"
    with pytest.raises(NotFoundError):
        months.check(9999)


@given(st.text(max_size=30))
def test_r_b_1_q137_any_month_text_is_read_or_refused_clearly(text: str) -> None:
    try:
        month = parse_month(text)
    except RuleError as error:
        assert "write it as YYYY-MM" in str(error)
    else:
        year, number = month.split("-")
        assert 2000 <= int(year) <= 2099 and 1 <= int(number) <= 12


@given(st.text(max_size=300), st.text(max_size=12))
def test_r_b_1_q137_any_list_name_gives_a_month_and_a_bounded_key(name: str, day: str) -> None:
    month = list_month(name, "2026-12-03")
    assert month == (month_of_name(name) or "2026-12")
    assert len(month_key(name, day)) <= 100


def test_r_b_1_q137_fides_archive_names_carry_their_month() -> None:
    assert month_of_name("standard_dec26frl.zip") == "2026-12"
    assert month_of_name("rapid_jan27frl_xml.zip") == "2027-01"
    assert month_of_name("BLITZ_MAR26FRL.ZIP") == "2026-03"
    assert month_of_name("summary.zip") is None  # "mar" inside a word is no month


def test_r_b_1_q137_the_command_line_imports_checks_and_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "t.db")
    listed = zipped(tmp_path, "standard_nov26frl.zip", "list.txt", fide_txt())
    assert main(["ratinglist", "import", str(listed), "--db", db]) == 0
    assert "(txt, the list of 2026-11)" in capsys.readouterr().out
    assert main(["new", "Club", "--start-date", "2026-12-05", "--db", db]) == 0
    assert main(["ratinglist", "add", "1503014", "--db", db]) == 0
    capsys.readouterr()
    assert main(["ratinglist", "check", "--format", "json", "--db", db]) == 1
    checked = json.loads(capsys.readouterr().out)
    assert (checked["month"], checked["players"][0]["month"]) == ("2026-12", "2026-11")
    assert main(["player", "edit", "1", "--rating", "2500", "--db", db]) == 0
    capsys.readouterr()
    assert main(["ratinglist", "update", "--db", db]) == 0
    out, err = capsys.readouterr()
    assert "2500 → 2831" in out
    assert err == (
        "warning: player 1 Carlsen, Magnus: the rating list is of 2026-11, not of 2026-12 "
        "(the tournament's month)\n"
    )
    assert main(["ratinglist", "import", str(listed), "--month", "2026-13", "--db", db]) == 2
    err = capsys.readouterr().err
    assert err == "crosstable: rating list month '2026-13': write it as YYYY-MM, e.g. 2026-12\n"
    assert main(["ratinglist", "import", str(listed), "--month", "2026-12", "--db", db]) == 0
    capsys.readouterr()
    assert main(["ratinglist", "check", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "Carlsen, Magnus" in out and "standard ratings; the tournament's month: 2026-12" in out
    assert "warning" not in out


@pytest.fixture
def site(store: Store) -> Iterator[tuple[TestClient, Service]]:
    service = make_service(store)
    Accounts(service.store).create_user("admin", "password-admin", is_admin=True)
    with TestClient(create_app(service=service)) as client:
        yield client, service


def _zip(text: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("players_list_foa.txt", text.encode("utf-8"))
    return out.getvalue()


def test_r_b_1_q137_the_page_takes_the_month_and_the_api_checks(site: Any) -> None:
    client, service = site
    token = signed_in(client, "admin")
    page = client.get("/admin/rating-lists").text
    assert 'type="month" name="month"' in page
    sent = client.post(
        "/admin/rating-lists",
        data={"csrf_token": token, "kind": "", "month": "2026-04"},
        files={"list": ("players_list.zip", _zip(fide_txt()))},
    )
    assert "the list of 2026-04" in sent.text
    assert '<td class="count">5</td><td>2026-04</td>' in sent.text
    refused = client.post(
        "/admin/rating-lists",
        data={"csrf_token": token, "kind": "", "month": "April"},
        files={"list": ("players_list.zip", _zip(fide_txt()))},
        headers={"Accept-Language": "ru"},
    )
    assert "&#39;April&#39;" in refused.text  # the flash says why, in the reader's language
    assert "YYYY-MM" in refused.text and "write it as" not in refused.text
    assert [(r.name, r.month) for r in RatingLists(service).imported()] == [
        ("players_list.zip", "2026-04")
    ]
    tid = service.create_tournament(
        Regulations(name="Club", start_date=dt.date(2026, 5, 2))
    ).tournament_id
    RatingLists(service).add_player(tid, 1503014)
    answer = client.get(f"/api/v1/tournaments/{tid}/rating-check")
    assert answer.status_code == 200
    body = answer.json()
    assert (body["month"], body["consistent"], body["players"][0]["month"]) == (
        "2026-05",
        False,
        "2026-04",
    )
    russian = client.get(
        f"/api/v1/tournaments/{tid}/rating-check", headers={"Accept-Language": "ru"}
    ).json()
    assert "2026-04" in russian["warnings"][0] and "player" not in russian["warnings"][0]
    assert client.get("/api/v1/tournaments/9999/rating-check").status_code == 404
    assert client.get("/api/v1/tournaments/0/rating-check").status_code == 422
