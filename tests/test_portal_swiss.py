"""The portal's Swiss (seed 002): the initial order by rating with the unrated placed at
random, reproducible from the recorded seed, and the even-field rule as a setting; and
the circle method chosen in the wizard and the JSON API."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support and test_web_swiss

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_service_support import db_url, make_service, service, store  # noqa: F401
from test_web_swiss import Site, site  # noqa: F401

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.lots import Entrant, rating_order
from crosstable.core.model import LotsMethod, System
from crosstable.core.schedule.kinds import ScheduleKind, round_robin_table
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.swiss.portal import PortalSwiss, portal_order

entrants = st.lists(
    st.builds(
        Entrant,
        key=st.integers(1, 10_000).map(str),
        name=st.sampled_from(["Ann", "Bob", "Cy", "Dan", "Eve"]),
        rating=st.one_of(st.none(), st.just(0), st.integers(1000, 2800)),
        title=st.sampled_from(["", "GM", "FM"]),
    ),
    max_size=30,
    unique_by=lambda e: e.key,
)


@settings(max_examples=200, deadline=None)
@given(entrants, st.integers(0, 2**53 - 1), st.randoms(use_true_random=False))
def test_r_sw_1_portal_order_same_seed_same_order_rated_by_rating(
    field: list[Entrant], seed: int, shuffle: object
) -> None:
    order = portal_order(field, seed)
    assert sorted(order) == sorted(e.key for e in field)  # everyone once
    shuffled = list(field)
    shuffle.shuffle(shuffled)  # type: ignore[attr-defined]
    assert portal_order(shuffled, seed) == order  # the list's order does not matter
    by_key = {e.key: e for e in field}
    rated = [by_key[k] for k in order if by_key[k].rating]
    assert [rating_order(e) for e in rated] == sorted(rating_order(e) for e in rated)
    assert all(by_key[k].rating for k in order[: len(rated)])  # the unrated come last


def test_r_sw_1_portal_order_differs_by_seed_only_among_the_unrated() -> None:
    field = [Entrant(str(i), f"U{i}") for i in range(1, 9)] + [Entrant("9", "R", 2000)]
    orders = {portal_order(field, seed) for seed in range(20)}
    assert len(orders) > 1 and all(order[0] == "9" for order in orders)


def test_r_sw_1_the_settings_are_checked() -> None:
    assert PortalSwiss.from_details({}) == PortalSwiss()
    assert PortalSwiss.from_details(
        {"initial_order": "Portal", "order_seed": "17", "even_field": "yes"}
    ) == PortalSwiss(portal_order=True, seed=17, even_field=True)
    for details, said in (
        ({"initial_order": "age"}, "use rating, portal or lot"),
        ({"order_seed": "-1"}, "a whole number from 0 to 2^53 - 1"),
        ({"order_seed": str(2**53)}, "a whole number from 0 to 2^53 - 1"),
        ({"even_field": "maybe"}, "use yes or no"),
    ):
        with pytest.raises(RuleError, match=said.replace("^", r"\^")):
            PortalSwiss.from_details(details)


# ---------------------------------------------------------------- the service


def _swiss(service: Service, ratings: list[int | None], **details: str) -> int:
    regulations = Regulations(name="Portal", system=System.SWISS_DUTCH, details=details)
    tid = service.create_tournament(regulations).tournament_id
    for index, rating in enumerate(ratings):
        service.add_player(tid, PlayerInfo(f"Player {index + 1}", rating=rating))
    service.draw_lots(tid, LotsMethod.RATING)
    return tid


RATINGS: list[int | None] = [None, 2100, None, 2300, None, 1900, None, None]


def _order(service: Service, tid: int) -> list[str]:
    return [p.name for p in sorted(service.tournament(tid).players, key=lambda p: p.start)]


def test_r_sw_1_the_start_numbers_the_portal_order_and_records_the_seed(
    service: Service,
) -> None:
    tid = _swiss(service, RATINGS, initial_order="portal")
    change = service.start(tid)
    seed = change.data["order_seed"]
    regulations = dict(service.overview(tid).settings["regulations"])
    assert regulations["order_seed"] == str(seed)  # published with the regulations
    order = _order(service, tid)
    assert order[:3] == ["Player 4", "Player 2", "Player 6"]  # by rating
    entrants = [Entrant(str(i + 1), f"Player {i + 1}", r) for i, r in enumerate(RATINGS)]
    assert order == [f"Player {k}" for k in portal_order(entrants, seed)]  # reproducible
    # the same seed given by the organiser gives the same order in another tournament
    again = _swiss(service, RATINGS, initial_order="portal", order_seed=str(seed))
    service.start(again)
    assert _order(service, again) == order
    # FIDE's order (the default) keeps the unrated by name
    fide = _swiss(service, RATINGS)
    service.start(fide)
    assert _order(service, fide)[3:] == ["Player 1", "Player 3", "Player 5", "Player 7", "Player 8"]


def test_r_sw_1_even_field_setting(service: Service) -> None:
    odd = _swiss(service, [2000, 1900, 1800], even_field="yes")
    revision = service.revision(odd)
    with pytest.raises(RuleError, match="even field: 3 players are registered"):
        service.start(odd)
    assert service.revision(odd) == revision and service.overview(odd).status == "registration"
    service.add_player(odd, PlayerInfo("Player 4", rating=1700))
    service.draw_lots(odd, LotsMethod.RATING)
    service.start(odd)
    assert service.overview(odd).status == "running"
    # off (the default): the odd field starts and round 1 has FIDE's pairing-allocated bye
    free = _swiss(service, [2000, 1900, 1800])
    service.start(free)
    proposal = service.propose_round(free)
    assert proposal.as_json()["bye"] is not None


def test_r_sw_1_bad_settings_are_refused_at_creation(service: Service) -> None:
    before = len(service.tournaments())
    for details in ({"initial_order": "age"}, {"order_seed": "x"}, {"even_field": "2"}):
        with pytest.raises(RuleError):
            service.create_tournament(
                Regulations(name="P", system=System.SWISS_DUTCH, details=details)
            )
    with pytest.raises(RuleError, match="a setting of a Swiss, not of a round robin"):
        service.create_tournament(Regulations(name="R", details={"initial_order": "portal"}))
    assert len(service.tournaments()) == before


# ---------------------------------------------------------------- command line and web


def test_r_sw_1_cli_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "p.db")
    args = ["new", "P", "--system", "dutch", "--initial-order", "portal", "--order-seed", "7"]
    assert main([*args, "--even-field", "--db", db]) == 0
    capsys.readouterr()
    assert main(["new", "Q", "--initial-order", "portal", "--db", db]) == 2
    assert "--initial-order is for Swiss tournaments" in capsys.readouterr().err
    assert main(["new", "Q", "--system", "dutch", "--initial-order", "age", "--db", db]) == 2
    assert "--initial-order 'age': use rating, portal or lot" in capsys.readouterr().err


def test_r_sw_1_r_rr_6_wizard_and_api_carry_the_choices(site: Site) -> None:
    tid = site.create(
        name="Portal",
        format="swiss",
        list="\n".join(f"P{i}; {2000 - i if i % 2 else ''}" for i in range(1, 7)),
        initial_order="portal",
        order_seed="99",
        even_field="on",
    )
    regulations = dict(site.service.overview(tid).settings["regulations"])
    assert regulations["initial_order"] == "portal" and regulations["order_seed"] == "99"
    assert regulations["even_field"] == "yes"
    shown = site.client.get(f"/t/{tid}/regulations", headers={"Accept-Language": "ru"}).text
    assert "Начальный порядок" in shown and "по рейтингу, игроки без рейтинга — случайно" in shown
    assert "Зерно жеребьёвки" in shown and "Только чётное число участников (без бая)" in shown
    page = site.client.get("/new").text
    assert 'name="schedule"' in page and 'name="initial_order"' in page
    rr = site.create(name="Circle", format="round-robin", list="A\nB\nC\nD\nE", schedule="circle")
    assert dict(site.service.overview(rr).settings["regulations"])["schedule"] == "circle"
    shown = site.client.get(f"/t/{rr}/regulations", headers={"Accept-Language": "hy"}).text
    assert "Ժամանակացույց" in shown and "շրջանի մեթոդ (1-ը տեղում, մնացածը պտտվում են)" in shown
    site.service.draw_lots(rr, LotsMethod.RATING)
    assert "Start: make the schedule (circle method)" in site.client.get(f"/t/{rr}/manage").text
    site.post(f"/t/{rr}/manage/start")
    first = round_robin_table(ScheduleKind.CIRCLE, 5).rounds[0]
    games = [(g.white, g.black) for g in site.service.tournament(rr).rounds[0].games]
    assert tuple(games) == first.boards
    made = site.client.post(
        "/api/v1/tournaments",
        json={"name": "Api circle", "format": "double-round-robin", "schedule": "circle"},
        headers=site.auth,
    )
    assert made.status_code == 201, made.text
    shown = site.client.get(f"/api/v1/tournaments/{made.json()['id']}").json()
    assert shown["settings"]["regulations"]["schedule"] == "circle"
    swiss = site.client.post(
        "/api/v1/tournaments",
        json={"name": "Api portal", "format": "swiss", "initial_order": "portal", "order_seed": 5},
        headers=site.auth,
    )
    assert swiss.status_code == 201, swiss.text
    refused = site.client.post(
        "/api/v1/tournaments",
        json={"name": "Bad", "format": "round-robin", "initial_order": "portal"},
        headers={**site.auth, "Accept-Language": "ru"},
    )
    assert refused.status_code == 422  # the service's setting error, in Russian
    assert "initial_order: это настройка турнира по швейцарской системе" in refused.text
    unknown = site.client.post(
        "/api/v1/tournaments",
        json={"name": "Bad", "format": "round-robin", "schedule": "spiral"},
        headers=site.auth,
    )
    assert unknown.status_code == 422
