"""The tournament rating chosen by the regulations' rating method (FIDE, NRO, FIDON,
NIDOF, HBFN: FIDE's checklist's names), a player's national and manual ratings beside
the FIDE one, and players not entitled to half-point byes — through the core, the
service (SQLite and PostgreSQL), the command line, the pages and the JSON API."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support and test_web_swiss

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_service_support import db_url, service, store  # noqa: F401
from test_web_swiss import Site, site  # noqa: F401

from crosstable.cli import main
from crosstable.core.errors import InputError, RuleError
from crosstable.core.model import LotsMethod, System
from crosstable.core.rating_method import RatingMethod, rating_method, tournament_rating
from crosstable.service import PlayerInfo, Regulations, Service

ratings = st.one_of(st.none(), st.integers(100, 4000))


@given(ratings, ratings, ratings)
def test_r_b_1_each_method_chooses_the_rating_its_name_says(
    fide: int | None, national: int | None, manual: int | None
) -> None:
    def chosen(method: RatingMethod) -> int | None:
        return tournament_rating(method, fide=fide, national=national, manual=manual)

    assert chosen(RatingMethod.FIDE) == fide
    assert chosen(RatingMethod.NRO) == national
    assert chosen(RatingMethod.FIDON) == (fide if fide is not None else national)
    assert chosen(RatingMethod.NIDOF) == (national if national is not None else fide)
    known = [r for r in (fide, national, manual) if r is not None]
    assert chosen(RatingMethod.HBFN) == (max(known) if known else None)


@given(st.text(max_size=12))
def test_r_b_1_a_method_name_reads_or_is_refused_with_the_choices(text: str) -> None:
    try:
        method = rating_method({"rating_method": text})
    except RuleError as error:
        assert "choose FIDE, NRO, FIDON, NIDOF or HBFN" in str(error)
    else:
        assert method.value == (text.strip().upper() or "FIDE")


def _field(service: Service, method: str = "") -> int:
    details = {"rating_method": method} if method else {}
    tid = service.create_tournament(
        Regulations(name="Open", system=System.SWISS_DUTCH, rounds=3, details=details)
    ).tournament_id
    for name, fide, national, manual in (
        ("Anna", 2100, None, None),
        ("Boris", None, 2300, None),
        ("Clara", 1900, 2000, 2400),
        ("Dmitri", 2000, 1800, None),
    ):
        service.add_player(
            tid, PlayerInfo(name, fide, national_rating=national, manual_rating=manual)
        )
    return tid


@pytest.mark.parametrize(
    ("method", "order"),
    [
        ("", ["Anna", "Dmitri", "Clara", "Boris"]),  # FIDE; the unrated last
        ("NRO", ["Boris", "Clara", "Dmitri", "Anna"]),
        ("FIDON", ["Boris", "Anna", "Dmitri", "Clara"]),
        ("NIDOF", ["Boris", "Anna", "Clara", "Dmitri"]),
        ("HBFN", ["Clara", "Boris", "Anna", "Dmitri"]),
    ],
)
def test_r_b_1_the_draw_by_rating_and_the_pairings_follow_the_rating_method(
    service: Service, method: str, order: list[str]
) -> None:
    tid = _field(service, method)
    service.draw_lots(tid, LotsMethod.RATING)
    players = sorted(service.tournament(tid).players, key=lambda p: p.start)
    assert [p.name for p in players] == order
    # the core's players carry the tournament rating (what the pairings and ARO read)
    chosen = rating_method({"rating_method": method})
    details = service.player_details(tid)
    by_name = {info.name: info for info in details.values()}
    for player in players:
        info = by_name[player.name]
        assert player.rating == tournament_rating(
            chosen, fide=info.rating, national=info.national_rating, manual=info.manual_rating
        )


def test_r_b_1_a_national_rating_change_clears_a_draw_by_rating_it_upsets(
    service: Service,
) -> None:
    tid = _field(service, "NIDOF")
    service.draw_lots(tid, LotsMethod.RATING)
    change = service.edit_player(tid, 4, national_rating=2500)  # Dmitri ahead of everyone
    assert "national rating 1800 → 2500" in str(change.summary)
    assert service.tournament(tid).players == ()  # the draw no longer holds
    service.draw_lots(tid, LotsMethod.RATING)
    first = min(service.tournament(tid).players, key=lambda p: p.start)
    assert (first.name, first.rating) == ("Dmitri", 2500)


def test_r_b_1_the_method_is_checked_and_fixed_at_the_start(service: Service) -> None:
    before = len(service.tournaments())
    with pytest.raises(RuleError, match="rating method 'ELO'"):
        service.create_tournament(Regulations(name="X", details={"rating_method": "ELO"}))
    assert len(service.tournaments()) == before
    tid = _field(service, "FIDON")
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    details = dict(service.overview(tid).settings.regulations)
    with pytest.raises(RuleError, match="rating method cannot change after the start"):
        service.edit_regulations(tid, details=details | {"rating_method": "NRO"})
    plain = _field(service)
    service.draw_lots(plain, LotsMethod.RATING)
    service.start(plain)
    details = dict(service.overview(plain).settings.regulations)
    with pytest.raises(RuleError, match="rating method cannot change after the start"):
        service.edit_regulations(plain, details=details | {"rating_method": "HBFN"})


def test_r_b_1_the_trf_keeps_the_fide_rating_whatever_ranks(service: Service) -> None:
    tid = _field(service, "NRO")
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    lines = [line for line in service.export_trf(tid).splitlines() if line.startswith("001")]
    by_name = {line[14:47].strip(): line[48:52].strip() for line in lines}
    assert by_name == {"Boris": "", "Clara": "1900", "Dmitri": "2000", "Anna": "2100"}


def test_r_b_1_a_bad_national_rating_is_refused_naming_it(service: Service) -> None:
    tid = _field(service)
    with pytest.raises(RuleError, match="national rating 99999 is out of range"):
        service.add_player(tid, PlayerInfo("Eva", 2000, national_rating=99999))
    with pytest.raises(RuleError, match="manual rating 5 is out of range"):
        service.edit_player(tid, 1, manual_rating=5)
    assert len(service.player_details(tid)) == 4


def test_r_b_1_the_json_export_keeps_the_ratings_and_the_bye_entitlement(
    service: Service,
) -> None:
    tid = _field(service, "HBFN")
    service.edit_player(tid, 2, half_byes=False)
    again = service.import_json(service.export_json(tid))
    assert service.player_details(again) == service.player_details(tid)
    document = service.export_json(tid)
    document["players"][0]["national_rating"] = 9000
    with pytest.raises(InputError, match=r"players\[0\]\.national_rating: rating: 9000 is out"):
        service.import_json(document)


def test_r_b_1_a_player_not_entitled_to_half_point_byes_is_refused_one(
    service: Service,
) -> None:
    tid = _field(service)
    service.edit_player(tid, 3, half_byes=False)
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    with pytest.raises(RuleError, match="player 3 Clara is not entitled to half-point byes"):
        service.request_bye(tid, 3, 2, "H")
    assert service.byes(tid) == []
    service.request_bye(tid, 3, 2, "Z")  # a zero-point bye stays possible
    service.request_bye(tid, 4, 2, "H")  # and others keep theirs
    assert {(b.start, b.kind) for b in service.byes(tid)} == {(3, "Z"), (4, "H")}
    change = service.edit_player(tid, 3, half_byes=True)
    assert "half-point byes no → yes" in str(change.summary)
    service.request_bye(tid, 3, 3, "H")


def test_r_b_1_the_command_line_sets_the_method_the_ratings_and_the_byes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "cli.db")
    assert main(["new", "Open", "--system", "dutch", "--rating-method", "nidof", "--db", db]) == 0
    assert main(["player", "add", "Anna", "--rating", "2100", "--db", db]) == 0
    args = ["player", "add", "Boris", "--national-rating", "2300", "--no-half-byes"]
    assert main([*args, "--db", db]) == 0
    assert main(["player", "edit", "1", "--manual-rating", "2200", "--db", db]) == 0
    assert main(["player", "edit", "1", "--national-rating", "x", "--db", db]) == 2
    assert main(["new", "Bad", "--rating-method", "elo", "--db", db]) == 2
    err = capsys.readouterr().err
    assert "--national-rating 'x': a whole number" in err
    assert "rating method 'elo': choose FIDE, NRO, FIDON, NIDOF or HBFN" in err
    assert main(["draw", "--by", "rating", "--db", db]) == 0
    capsys.readouterr()
    assert main(["export", "--to", "json", "--db", db]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["tournament"]["regulations"]["rating_method"] == "NIDOF"
    players = sorted(document["players"], key=lambda p: p["start"])  # Boris's 2300 first
    assert [(p["name"], p["manual_rating"], p["half_byes"]) for p in players] == [
        ("Boris", None, False),
        ("Anna", 2200, True),
    ]


def test_r_b_1_the_pages_and_the_api_set_them(site: Site) -> None:
    tid = site.create(name="Club", list="Anna, 2100\nBoris, 2000\nClara\nDmitri")
    page = site.client.get(f"/t/{tid}/manage").text
    assert 'name="national_rating"' in page and 'name="detail_rating_method"' in page
    form = {"national_rating": "2350", "half_byes_shown": "1"}  # the box left unticked
    assert site.post(f"/t/{tid}/manage/players/3/edit", **form).status_code == 200
    clara = site.service.player_details(tid)[3]
    assert (clara.national_rating, clara.half_byes) == (2350, False)
    saved = site.post(f"/t/{tid}/manage/regulations", detail_rating_method="NIDOF")
    assert saved.status_code == 200
    assert site.service.overview(tid).settings.regulations["rating_method"] == "NIDOF"
    shown = site.client.get(f"/t/{tid}/regulations", headers={"Accept-Language": "ru"}).text
    assert "Рейтинг, по которому ранжируются участники" in shown
    made = site.client.post(
        "/api/v1/tournaments",
        json={"name": "Api", "rating_method": "FIDON", "players": [{"name": "A"}]},
        headers=site.auth,
    )
    assert made.status_code == 201, made.text
    api = made.json()["id"]
    assert site.service.overview(api).settings.regulations["rating_method"] == "FIDON"
    added = site.client.post(
        f"/api/v1/tournaments/{api}/players",
        json={"name": "B", "national_rating": 1900, "half_byes": False},
        headers=site.auth,
    )
    assert added.status_code == 201, added.text
    b = site.service.player_details(api)[2]
    assert (b.national_rating, b.half_byes) == (1900, False)
    patched = site.client.patch(
        f"/api/v1/tournaments/{api}/players/2", json={"half_byes": True}, headers=site.auth
    )
    assert patched.status_code == 200, patched.text
    assert site.service.player_details(api)[2].half_byes is True
    wizard = site.create(name="Wiz", rating_method="HBFN", list="A\nB\nC")
    assert site.service.overview(wizard).settings.regulations["rating_method"] == "HBFN"
