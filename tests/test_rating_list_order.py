"""The order of rating lists a tournament's players are rated from (FIDE's checklist for
tournament programs, Q118, Q123, Q126, Q128–129): the time control's default order with
the effective rapid and blitz ratings, the organiser's own order, a list chosen for one
player; the service, the command line and the JSON API, on SQLite and PostgreSQL."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.ratings import RatingType
from crosstable.service import Regulations, Service
from crosstable.service.rating_list_order import (
    default_order,
    fide_part,
    order_of,
    order_text,
    parse_order,
    rating_along,
)
from crosstable.service.rating_lists import RatingLists
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.rating_list_files import fide_txt, zipped
from tests.test_service_support import db_url, service, store  # noqa: F401

HOU = 13300474  # standard 2633, no rapid rating, blitz 2611
CIRIC = 4100018  # standard 2310 only
S, R, B = RatingType.STANDARD, RatingType.RAPID, RatingType.BLITZ


def test_r_b_1_q123_the_default_order_follows_the_time_control() -> None:
    assert default_order(S) == (S, R, B)
    assert default_order(R) == (R, S, B)  # the effective rapid rating, then blitz
    assert default_order(B) == (B, S, R)  # the effective blitz rating, then rapid
    assert order_of(R, {}) == (R, S, B)
    assert order_of(R, {"rating_lists": "blitz,rapid"}) == (B, R)
    assert rating_along({S: 2633, R: None, B: 2611}, (R, S, B)) == (2633, S)
    assert rating_along({S: None, R: None, B: None}, (S, R, B)) == (None, None)


@given(st.text(max_size=40))
def test_r_b_1_q126_any_order_text_is_read_or_refused_clearly(text: str) -> None:
    try:
        order = parse_order(text)
    except RuleError as error:
        assert "rating lists" in str(error)
    else:
        assert 1 <= len(order) == len(set(order))
        assert len(fide_part(order)) <= 3
        assert parse_order(order_text(order)) == order


def test_r_b_1_q118_q126_q129_ratings_follow_the_order_of_lists(
    service: Service, tmp_path: Path
) -> None:
    lists = RatingLists(service)
    lists.import_file(zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt()))
    rapid = service.create_tournament(Regulations(name="Rapid", time_control="15+10")).tournament_id
    assert lists.list_order(rapid) == (R, S, B)
    lists.add_player(rapid, HOU)  # no rapid rating: the effective rapid rating is her standard
    lists.add_player(rapid, 1503014)  # rapid 2823
    lists.add_player(rapid, CIRIC, rating_list=B)  # the arbiter's choice: unrated in blitz
    ratings = {p.fide_id: p.rating for p in service.player_details(rapid).values()}
    assert ratings == {str(HOU): 2633, "1503014": 2823, str(CIRIC): None}
    # the organiser's own order: blitz first, standard dropped
    lists.set_list_order(rapid, "Blitz, rapid")
    assert lists.list_order(rapid) == (B, R)
    assert service.overview(rapid).settings["regulations"]["rating_lists"] == "blitz,rapid"
    lists.update_ratings(rapid)
    ratings = {p.fide_id: p.rating for p in service.player_details(rapid).values()}
    assert ratings == {str(HOU): 2611, "1503014": 2886, str(CIRIC): None}
    with pytest.raises(RuleError, match="each list once"):
        lists.set_list_order(rapid, "rapid,rapid")
    with pytest.raises(RuleError, match="name standard, rapid, blitz or custom:NAME"):
        lists.set_list_order(rapid, "bullet")
    assert lists.list_order(rapid) == (B, R)  # nothing changed
    lists.set_list_order(rapid, "")
    assert lists.list_order(rapid) == (R, S, B)


def test_r_b_1_q126_q129_the_command_line_sets_the_order_and_picks_a_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "t.db")
    listed = zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt())
    assert main(["ratinglist", "import", str(listed), "--db", db]) == 0
    assert main(["new", "Blitz", "--time-control", "3+2", "--db", db]) == 0
    assert main(["ratinglist", "order", "--db", db]) == 0
    assert "rating lists, in order: blitz,standard,rapid" in capsys.readouterr().out
    assert main(["ratinglist", "add", str(CIRIC), "--db", db]) == 0  # standard stands in
    assert main(["ratinglist", "add", str(HOU), "--list", "standard", "--db", db]) == 0
    capsys.readouterr()
    main(["ratinglist", "check", "--format", "json", "--db", db])
    shown = {p["name"]: p["rating"] for p in json.loads(capsys.readouterr().out)["players"]}
    assert shown == {"Ćirić, Dragoljub": 2310, "Hou, Yifan": 2633}
    assert main(["ratinglist", "order", "rapid", "--db", db]) == 0
    assert "rating lists, in order: rapid" in capsys.readouterr().out
    assert main(["ratinglist", "order", "bullet", "--db", db]) == 2
    assert (
        "rating lists 'bullet': name standard, rapid, blitz or custom:NAME"
        in capsys.readouterr().err
    )
    assert main(["ratinglist", "add", "1503014", "--list", "bullet", "--db", db]) == 2
    assert "--list 'bullet': use standard, rapid or blitz" in capsys.readouterr().err
    assert main(["ratinglist", "order", "default", "--db", db]) == 0
    assert "rating lists, in order: blitz,standard,rapid" in capsys.readouterr().out


def test_r_b_1_q128_the_api_shows_every_list_and_where_the_rating_comes_from(
    service: Service, tmp_path: Path
) -> None:
    lists = RatingLists(service)
    lists.import_file(zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt()))
    rapid = service.create_tournament(Regulations(name="Rapid", time_control="15+10")).tournament_id
    with TestClient(create_app(service=service)) as client:
        answer = client.get(f"/api/v1/rating-list?q=hou&tournament={rapid}").json()
    (hou,) = answer["players"]
    assert (hou["standard"], hou["rapid"], hou["blitz"]) == (2633, None, 2611)
    assert (hou["rating"], hou["rating_list"], answer["rating_type"]) == (2633, "standard", "rapid")


def test_r_b_1_q126_q146_the_regulations_page_names_the_order_and_the_lot(
    service: Service,
) -> None:
    tid = service.create_tournament(
        Regulations(
            name="Open",
            system=System.SWISS_DUTCH,
            details={"initial_order": "lot", "rating_lists": "rapid,standard"},
        )
    ).tournament_id
    with TestClient(create_app(service=service)) as client:
        shown = client.get(f"/t/{tid}/regulations", headers={"Accept-Language": "ru"}).text
    assert "Рейтинг-листы, по порядку" in shown and "rapid,standard" in shown
    assert "по рейтингу и званию, равные — по жребию" in shown
