"""Drawing of lots for starting numbers (R-RR-4; FIDE C.04.2 art. 2.2 for the rating order)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.lots import (
    Entrant,
    draw_by_hand,
    draw_by_lot,
    draw_by_rating,
    draw_lots,
    entrants_from_players,
)
from crosstable.core.model import Draw, LotsMethod, Player

FIELD = [
    Entrant("1", "Petrosian", 2400, "IM"),
    Entrant("2", "Anand", 2400, "GM"),
    Entrant("3", "Carlsen", 2400, "GM"),
    Entrant("4", "Botvinnik", 2500),
    Entrant("5", "Dvoretsky", None),
    Entrant("6", "abel", 2400),
    Entrant("7", "Zukertort", 2400, "wg"),  # TRF code for WGM
]


def test_by_rating_is_fide_order() -> None:
    lots = draw_by_rating(FIELD)
    # rating first; at 2400: GM (alphabetically Anand, Carlsen), IM, WGM, then untitled;
    # unrated last
    assert lots.draw == Draw(LotsMethod.RATING, None, ("4", "2", "3", "1", "7", "6", "5"))
    assert lots.numbers["4"] == 1 and lots.numbers["5"] == 7


def test_by_rating_ties_go_by_name_then_entry() -> None:
    field = [Entrant("x", "Same", 2000), Entrant("y", "same", 2000), Entrant("z", "Alpha", 2000)]
    assert draw_by_rating(field).draw.order == ("z", "x", "y")


def test_by_lot_is_reproducible_and_order_free() -> None:
    a = draw_by_lot(FIELD, 20260725)
    b = draw_by_lot(list(reversed(FIELD)), 20260725)
    assert a == b
    assert a.draw.method is LotsMethod.RANDOM and a.draw.seed == 20260725
    # anyone can check it: sort the keys, shuffle with random.Random(seed)
    keys = sorted((e.key for e in FIELD), key=int)
    random.Random(20260725).shuffle(keys)
    assert a.draw.order == tuple(keys)


def test_by_lot_numeric_keys_sort_numerically() -> None:
    field = [Entrant(str(k)) for k in (10, 2, 1)]
    keys = ["1", "2", "10"]
    random.Random(3).shuffle(keys)
    assert draw_by_lot(field, 3).draw.order == tuple(keys)


def test_by_lot_needs_a_seed() -> None:
    with pytest.raises(RuleError, match="needs a seed"):
        draw_lots(FIELD, "random")
    with pytest.raises(RuleError, match="needs a seed"):
        draw_by_lot(FIELD, True)  # type: ignore[arg-type]


def test_by_hand() -> None:
    order = ["7", "6", "5", "4", "3", "2", "1"]
    lots = draw_lots(FIELD, LotsMethod.MANUAL, order=order)
    assert lots.draw == Draw(LotsMethod.MANUAL, None, tuple(order))
    assert lots.starting_number("7") == 1


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (["1", "2", "3", "4", "5", "6"], "no starting number for '7'"),
        (["1", "2", "3", "4", "5", "6", "7", "8"], "starting number 8 is '8'"),
        (["1", "2", "3", "4", "5", "6", "6"], "'6' is listed twice \\(starting numbers 6 and 7\\)"),
        ([], "no starting number for '1', '2'"),
    ],
)
def test_by_hand_errors(order: list[str], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        draw_by_hand(FIELD, order)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: draw_lots(FIELD, "coin"), "use one of random, rating, manual"),
        (lambda: draw_lots([], "rating"), "no entrants"),
        (lambda: draw_lots([Entrant("a"), Entrant("a")], "rating"), "'a' is entered twice"),
        (lambda: draw_lots(FIELD, "rating", order=["1"]), "only when the numbers are assigned"),
        (lambda: draw_lots(FIELD, "rating", seed=4), "a seed is given only"),
        (lambda: draw_by_rating(FIELD).starting_number("99"), "no entrant '99'"),
    ],
)
def test_errors(call: object, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        call()  # type: ignore[operator]


def test_players_and_entrants_from_players() -> None:
    players = (Player(1, "Ann", 1500), Player(2, "Bob", 1700, "FM"))
    entrants = entrants_from_players(players)
    lots = draw_by_rating(entrants)
    assert [(p.start, p.name, p.rating, p.title) for p in lots.players(entrants)] == [
        (1, "Bob", 1700, "FM"),
        (2, "Ann", 1500, ""),
    ]


keys = st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=40, unique=True)


@given(keys, st.integers(min_value=-(2**63), max_value=2**63))
def test_lot_is_a_reproducible_permutation(names: list[str], seed: int) -> None:
    field = [Entrant(k, k, None) for k in names]
    lots = draw_by_lot(field, seed)
    assert sorted(lots.draw.order) == sorted(names)
    assert sorted(lots.numbers.values()) == list(range(1, len(names) + 1))
    assert all(lots.draw.order[lots.numbers[k] - 1] == k for k in names)
    assert draw_by_lot(list(reversed(field)), seed) == lots


@given(
    st.lists(
        st.tuples(
            st.one_of(st.none(), st.integers(min_value=0, max_value=2900)),
            st.sampled_from(["", "GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM", "f"]),
            st.text(max_size=5),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_rating_order_is_sorted(rows: list[tuple[int | None, str, str]]) -> None:
    field = [Entrant(str(i), name, rating, title) for i, (rating, title, name) in enumerate(rows)]
    lots = draw_by_rating(field)
    ratings = [field[int(k)].rating or 0 for k in lots.draw.order]
    assert ratings == sorted(ratings, reverse=True)
    assert sorted(lots.numbers.values()) == list(range(1, len(field) + 1))
    by_hand = draw_by_hand(field, list(lots.draw.order))
    assert by_hand.numbers == lots.numbers
