"""Questions of FIDE's checklist for tournament programs that docs/fide.md answers with
behaviour no other test names: an imported TRF in FIDE mode, the point systems and the
pairing-allocated bye's value, every mandatory round-robin tie-break, the acceleration
kept after the start, a lot instead of names for players equal in rating and title."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.lots import Entrant, rating_order
from crosstable.core.model import Colour, LotsMethod, System
from crosstable.core.pairing.dutch.colours import board_order
from crosstable.core.pairing.dutch.players import Float, PlayerState
from crosstable.core.scoring import PointSystem
from crosstable.core.standings import compute_standings
from crosstable.formats.trf import parse_trf
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.players import EDITABLE, check_tiebreaks
from crosstable.service.swiss.portal import lot_order
from tests.test_service_support import db_url, service, started, store  # noqa: F401
from tests.test_service_swiss import swiss
from tests.test_tiebreak_helpers import tour

#: FIDE's mandatory round-robin tie-breaks (the checklist's Q104)
ROUND_ROBIN_MANDATORY = (
    "DE",
    "BPG",
    "BWG",
    "REP",
    "STD",
    "SB",
    "SB/C1",
    "SB/C2",
    "RTNG",
    "RTNG/R",
    "WIN",
    "TPN",
    "TPN/R",
    "KS",
    "KS/L1",
    "KS/L2",
    "KS/L-1",
    "KS/L-2",
)


def test_r_b_1_q56_an_imported_trf_starts_in_fide_mode(service: Service) -> None:
    exported = service.export_trf(started(service, 4))
    document = parse_trf(exported)
    tid = service.import_tournament(document.tournament, source="club.trf").tournament_id
    assert service.fide_mode(tid).on


def test_r_b_1_q70_q74_point_systems_and_two_draws_against_a_win_and_a_loss() -> None:
    assert PointSystem.parse("1-0.5-0") == PointSystem.classic()
    assert PointSystem.parse("3-1-0") == PointSystem.three_one_zero()
    assert PointSystem.parse("2-1-0").label() == "2-1-0"
    with pytest.raises(RuleError, match=r"two draws .* would outscore a win and a loss"):
        PointSystem.parse("3-2-0")
    with pytest.raises(RuleError, match="two draws"):
        PointSystem(win=Fraction(1), draw=Fraction(3, 4), loss=Fraction(0))


@settings(max_examples=60, deadline=None)
@given(st.fractions(min_value=0, max_value=3, max_denominator=4))
def test_r_b_1_q79_q84_the_pab_is_worth_a_win_or_the_value_the_regulations_give(
    value: Fraction,
) -> None:
    # a 3-1-0 Swiss of three players: 1 beats 2, 3 has the PAB
    chosen = PointSystem(win=Fraction(3), draw=Fraction(1), loss=Fraction(0), pairing_bye=value)
    t = tour(3, [["1-2 1-0", "3 U"]], system=System.SWISS_DUTCH, points=chosen)
    points = {row.start: row.points for row in compute_standings(t, "PTS").rows}
    assert points == {1: 3, 2: 0, 3: value}
    default = tour(3, [["1-2 1-0", "3 U"]], system=System.SWISS_DUTCH)
    assert {r.start: r.points for r in compute_standings(default, "PTS").rows}[3] == 1


def test_r_b_1_q104_every_mandatory_round_robin_tiebreak_is_offered() -> None:
    assert check_tiebreaks(ROUND_ROBIN_MANDATORY) == ROUND_ROBIN_MANDATORY
    # a round robin of four, every game played: each code gives a value to every player
    t = tour(
        4,
        [["1-4 1-0", "2-3 =="], ["4-3 0-1", "1-2 =="], ["2-4 1-0", "3-1 0-1"]],
        ratings=[2100, 2000, 1900, 1800],
    )
    table = compute_standings(t, ROUND_ROBIN_MANDATORY)
    assert [row.start for row in table.rows] == [1, 2, 3, 4]  # 2½, 2, 1½, 0 points
    assert table.tiebreaks == ROUND_ROBIN_MANDATORY
    for row in table.rows:
        assert None not in row.values, (row.start, row.values)


def test_r_b_1_q109_the_acceleration_stays_after_the_start(service: Service) -> None:
    tid = swiss(service, 8, rounds=3, acceleration="baku")
    with pytest.raises(RuleError, match="acceleration cannot change after the start"):
        service.edit_regulations(tid, details={"initial_colour": "white"})
    assert service.overview(tid).settings["regulations"]["acceleration"] == "baku"


# -- the initial ranking's last criterion (Q146) ---------------------------------------------


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([None, 1800, 2000]), st.sampled_from(["", "FM", "IM"])),
        min_size=1,
        max_size=12,
    ),
    st.integers(0, 2**53 - 1),
)
def test_r_b_1_q146_a_lot_orders_players_equal_in_rating_and_title(
    field: list[tuple[int | None, str]], seed: int
) -> None:
    entrants = [Entrant(str(n), f"Name {n}", r, t) for n, (r, t) in enumerate(field, 1)]
    ordered = lot_order(entrants, seed)
    assert sorted(ordered, key=int) == [e.key for e in entrants]
    by_key = {e.key: e for e in entrants}
    keys = [rating_order(by_key[k])[:2] for k in ordered]
    assert keys == sorted(keys)  # FIDE's rating and title order first
    assert lot_order(list(reversed(entrants)), seed) == ordered  # the list's order is no lot


def test_r_b_1_q146_a_swiss_places_equal_players_by_lot_not_by_name(service: Service) -> None:
    names = ("Zoe", "Yan", "Xia", "Will", "Vera", "Uma")
    regulations = Regulations(
        name="Open",
        system=System.SWISS_DUTCH,
        rounds=3,
        details={"initial_order": "lot", "order_seed": "7"},
    )
    tid = service.create_tournament(regulations).tournament_id
    for name in names:
        service.add_player(tid, PlayerInfo(name, rating=2000))
    service.add_player(tid, PlayerInfo("Top", rating=2300))
    service.draw_lots(tid, LotsMethod.RATING)
    change = service.start(tid)
    assert "players equal in both placed by lot (seed 7)" in str(change.summary)
    starts = {p.name: p.start for p in service.overview(tid).players}
    entrants = [Entrant(str(n), name, 2000) for n, name in enumerate(names, 1)]
    top, *equal = lot_order([*entrants, Entrant("7", "Top", 2300)], 7)
    drawn = [names[int(key) - 1] for key in equal]
    assert top == "7"
    assert [name for name, _ in sorted(starts.items(), key=lambda kv: kv[1])] == ["Top", *drawn]
    assert drawn != sorted(names)  # not alphabetical
    with pytest.raises(RuleError, match="use rating, portal or lot"):
        service.create_tournament(
            Regulations(name="Bad", system=System.SWISS_DUTCH, details={"initial_order": "age"})
        )


# -- board order under acceleration (Q187–188) ----------------------------------------------


def _state(start: int, score: int, virtual: int) -> PlayerState:
    return PlayerState(
        start=start,
        rank=start - 1,
        score=Fraction(score),
        pairing_score=Fraction(score + virtual),
        imbalance=0,
        preference=Colour.NONE,
        repeated=Colour.NONE,
        strong=False,
        bye_eligible=True,
        played_games=0,
        played_colours=(),
        floats=(Float.NONE, Float.NONE),
        opponents=frozenset(),
    )


def test_r_b_1_q188_accelerated_boards_are_ordered_by_real_plus_virtual_points() -> None:
    # group A's 1 and 3 (no points yet, one virtual point each), group B's 5 (a point) and 7
    group_a = (_state(1, 0, 1), _state(3, 0, 1))
    group_b = (_state(5, 1, 0), _state(7, 0, 0))
    ordered = board_order([group_b, group_a])
    assert [(w.start, b.start) for w, b in ordered] == [(1, 3), (5, 7)]
    # without acceleration the real points decide: 5's point puts their board first
    plain = (_state(1, 0, 0), _state(3, 0, 0))
    assert [w.start for w, _ in board_order([plain, group_b])] == [5, 1]


def test_r_b_1_q147_pairing_numbers_cannot_be_changed_after_the_start(service: Service) -> None:
    # the checklist's "no" to Q147: once play has begun, no action gives a player another
    # starting number — lots are not drawn again (by lot, by rating or by hand), and a
    # player's editable details do not include the starting number
    tid = swiss(service, 6, rounds=3)
    service.publish_round(tid)
    before = [(p.start, p.name) for p in service.overview(tid).players]
    for method, order in (
        (LotsMethod.RANDOM, ()),
        (LotsMethod.RATING, ()),
        (LotsMethod.MANUAL, (6, 5, 4, 3, 2, 1)),
    ):
        with pytest.raises(RuleError, match="lots are drawn"):
            service.draw_lots(tid, method, seed=1, order=order)
    assert "start" not in EDITABLE and "starting_number" not in EDITABLE
    assert [(p.start, p.name) for p in service.overview(tid).players] == before
