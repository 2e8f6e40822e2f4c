"""FIDE ratings (B.02, in force since 1 March 2024): crosstable.core.ratings.

Where each expected figure comes from is written next to it: "table" is B.02
table 8.1.2 (rating difference -> expected score) or 8.1.1 (score -> dp) read
by hand; the real tournament's figures were computed by hand from its TRF lines.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.model import (
    Game,
    GameResult,
    Outcome,
    Player,
    Round,
    Settings,
    Tournament,
)
from crosstable.core.ratings import (
    KInputs,
    PlayerHistory,
    RatingType,
    counted_difference,
    expected_score,
    initial_rating,
    k_factor,
    rate_tournament,
    round_change,
)
from crosstable.core.standings import compute_standings
from crosstable.formats.trf_read import parse_trf

# --- expected score per game: table 8.1.2 and the 400-point rule (8.3.1) ---------------------


@pytest.mark.parametrize(
    ("own", "opponent", "pd"),
    [
        (2000, 2000, 50),  # row 0-3
        (2003, 2000, 50),
        (2004, 2000, 51),  # row 4-10
        (2100, 2000, 64),  # row 99-106
        (2000, 2100, 36),  # the lower-rated side of the same row
        (2392, 2000, 92),  # row 392-411
        (2400, 2000, 92),  # exactly 400: no cap needed
    ],
)
def test_expected_score_reads_table_8_1_2(own: int, opponent: int, pd: int) -> None:
    assert expected_score(own, opponent) == pd


def test_400_point_rule_caps_below_2650_and_not_from_2650() -> None:
    # 8.3.1 as amended from 1 October 2025
    assert counted_difference(2000, 2500) == -400
    assert expected_score(2000, 2500) == 8  # row 392-411, lower side
    assert expected_score(2649, 2100) == 92  # 549 counted as 400
    assert counted_difference(2650, 2100) == 550
    assert expected_score(2650, 2100) == 97  # row 518-559
    assert expected_score(2700, 1900) == 100  # 800 > 735: 1.0
    # the weaker player of the same game still counts 400
    assert expected_score(2100, 2650) == 8


def test_rapid_and_blitz_cap_always_and_leave_600_point_games_unrated() -> None:
    # rapid/blitz regulations 7.3.1: plain 400 cap; from 1 December 2024 a game 600 or
    # more apart is not rated when one player is rated above 2600
    assert expected_score(2700, 2200, RatingType.RAPID) == 92
    assert expected_score(2700, 2100, RatingType.BLITZ) is None
    assert expected_score(2100, 2700, RatingType.RAPID) is None
    assert expected_score(2600, 2000, RatingType.BLITZ) == 92  # 2600 is not above 2600
    assert expected_score(2700, 2100) == 98  # standard: rated, real 600 (row 560-619)


# --- K (8.3.3) and rounding (8.3.4) --------------------------------------------------------


@pytest.mark.parametrize(
    ("inputs", "games", "k"),
    [
        (KInputs(2100), 9, 20),
        (KInputs(2399), 9, 20),
        (KInputs(2400), 9, 10),
        (KInputs(2350, reached_2400=True), 9, 10),  # once 2400, always 10
        (KInputs(2100, rated_games_before=29), 9, 40),  # fewer than 30 games before
        (KInputs(2100, rated_games_before=30), 9, 20),
        (KInputs(2299, birth_year=2008, year=2026), 9, 40),  # the year of the 18th birthday
        (KInputs(2299, birth_year=2007, year=2026), 9, 20),  # 19 this year
        (KInputs(2300, birth_year=2010, year=2026), 9, 20),  # junior but 2300
        (KInputs(2100, rated_games_before=0), 17, 40),  # 40 x 17 = 680 <= 700
        (KInputs(2100, rated_games_before=0), 18, 38),  # 40 x 18 > 700: 700 // 18
        (KInputs(2100, games_in_period=30), 9, 17),  # 20 x 39 > 700: 700 // 39
    ],
)
def test_k_factor(inputs: KInputs, games: int, k: int) -> None:
    assert k_factor(inputs, games).value == k


def test_round_change_half_away_from_zero() -> None:
    assert [round_change(Fraction(x, 10)) for x in (44, 45, -45, -44, 0, -256)] == [
        4,
        5,
        -5,
        -4,
        0,
        -26,
    ]


# --- first rating (8.2, 7.1.4) -------------------------------------------------------------


def test_initial_rating_with_two_hypothetical_draws() -> None:
    # 5 games, 3 points, opponents 1900+1850+2000+1700+2057 = 9507;
    # Ra = (9507 + 2 x 1800) / 7 = 1872.43; p = 4/7 = .57 -> dp 50 (table 8.1.1); Ru = 1922
    first = initial_rating([(1, 1900, 2), (2, 1850, 1), (3, 2000, 0), (4, 1700, 2), (5, 2057, 1)])
    assert (first.average, first.percentage, first.dp, first.rating) == (
        Fraction(13107, 7),
        57,
        50,
        1922,
    )
    assert first.published


def test_initial_rating_limits() -> None:
    # 5 wins against 2300: Ra = (11500 + 3600) / 7 = 2157.14; p = 6/7 = .86 -> 309: 2466 -> 2200
    assert initial_rating([(r, 2300, 2) for r in range(1, 6)]).rating == 2200
    # 4 games: figures given, not yet published (7.1.4: 5 games)
    four = initial_rating([(r, 1500, 1) for r in range(1, 5)])
    assert four.rating is not None and not four.published and "5 games" in four.note
    # Ra = (6000 + 3600) / 6 = 1600, p = 3/6 = .50: 1600, published
    assert initial_rating([(r, 1500, 1) for r in range(1, 5)]).rating == 1600
    # below 1400: not published. 5 losses to 1400: Ra = 10600/7 = 1514.29, p = 1/7 = .14: -309
    low = initial_rating([(r, 1400, 0) for r in range(1, 6)])
    assert low.rating is None  # a zero score: disregarded in a first event
    weak = initial_rating([(1, 1400, 1)] + [(r, 1400, 0) for r in range(2, 6)])
    # Ra = 10600/7 = 1514.29, p = 1.5/7 = .21 -> -230: 1284 -> not published
    assert weak.rating == 1284 and not weak.published


# --- a tournament's figures ----------------------------------------------------------------


def _real(data_dir: Path, name: str) -> Tournament:
    path = data_dir / "tiebreaks" / "real" / name
    return parse_trf(path.read_text(encoding="utf-8"), source=str(path)).tournament


def test_real_swiss_by_hand(data_dir: Path) -> None:
    """Domloup 2026, tournament A (5 rounds, every player FIDE-rated, no birth dates: K 20).

    Player 1 (2229): 13 (1922) won, 9 (2034) won, 8 (2045) won, 4 (2098) drew, 7 (2045) drew.
    D 307, 195, 184, 131, 184 -> PD .86, .75, .74, .68, .74 (table 8.1.2) = 3.77;
    score 4; 20 x 0.23 = +4.6 -> +5; ARO 10144 / 5 = 2028.8 -> 2029; TPR 2029 + dp(.80) 240.
    Player 19 (1862): 7 (2045) lost, 2 (2169) drew, 10 (1976) lost, 18 (1871) lost,
    24 (1829) lost. D -183, -307, -114, -9, +33 -> PD .26, .14, .34, .49, .55 = 1.78;
    score 0.5; 20 x -1.28 = -25.6 -> -26; ARO 9890 / 5 = 1978; TPR 1978 + dp(.10) -366.
    """
    rows = rate_tournament(_real(data_dir, "fr_domloup_fide_41_a.trf"), year=2026)
    first, nineteenth = rows[0], rows[18]
    assert (first.games_rated, first.score, first.expected) == (5, 4, Fraction(377, 100))
    assert first.k is not None and first.k.value == 20
    assert (first.change, first.change_rounded) == (Fraction(46, 10), 5)
    assert (first.aro, first.tpr) == (2029, 2269)
    assert (nineteenth.expected, nineteenth.change_rounded) == (Fraction(178, 100), -26)
    assert (nineteenth.aro, nineteenth.tpr) == (1978, 1612)


def test_real_tpr_and_aro_agree_with_the_tiebreak_reference(data_dir: Path) -> None:
    """In a fully rated event without forfeits, ARO here equals the reference calculator's ARO."""
    import json

    name = "fr_domloup_fide_41_a"
    expected = json.loads(
        (data_dir / "tiebreaks" / "real" / f"{name}.expected.json").read_text(encoding="utf-8")
    )
    rows = rate_tournament(_real(data_dir, f"{name}.trf"))
    for row in rows:
        reference = expected["players"][str(row.start)]["ARO"]
        assert reference is None or row.aro == reference


def _rr(players: list[Player], results: dict[tuple[int, int], str]) -> Tournament:
    """A round robin whose every pair (a, b) in ``results`` is one game, one round each."""
    rounds = []
    for number, ((white, black), text) in enumerate(results.items(), start=1):
        game = Game(number, 1, white, black, GameResult.parse(text) if text else None)
        rounds.append(Round(number, (game,)))
    return Tournament(Settings(), tuple(players), tuple(rounds))


def test_forfeits_and_short_games_are_not_rated() -> None:
    # R-RR-14: + and - are worth points in the table but are not rated; W/L neither
    players = [Player(1, "A", 2000), Player(2, "B", 2000), Player(3, "C", 2000)]
    t = _rr(players, {(1, 2): "+-", (1, 3): "1-0", (2, 3): "WL"})
    rows = rate_tournament(t)
    assert rows[0].games_rated == 1 and rows[0].score == 1
    assert rows[0].change == 10  # K 20 x (1 - .50)
    assert rows[1].games_rated == 0 and rows[1].change is None


def test_withdrawn_players_games_stay_rated() -> None:
    """R-RR-13: player 4 withdrew after 1 of 3 games, so the 50 % rule annuls their
    result in the final standings — but the game they played is still rated."""
    players = [Player(s, f"P{s}", 2000) for s in (1, 2, 3, 4)]
    t = _rr(players, {(1, 4): "0-1", (2, 3): "1-0", (1, 2): "=", (3, 4): "+-", (1, 3): "1-0"})
    t = Tournament(t.settings, t.players, t.rounds, withdrawn=frozenset({4}))
    final = compute_standings(t, ("PTS",), final=True, withdrawn=frozenset({4}))
    assert 4 not in {row.start for row in final.rows}  # annulled in the table
    rows = rate_tournament(t)
    assert rows[3].games_rated == 1 and rows[3].change == 10
    assert rows[0].games_rated == 3  # lost to 4, drew 2, beat 3: all rated


def test_rated_player_against_unrated_is_not_rated_and_the_unrated_gets_figures() -> None:
    players = [Player(1, "Rated", 2000), Player(2, "New")]
    rows = rate_tournament(_rr(players, {(1, 2): "0-1"}))
    assert rows[0].games_rated == 0 and rows[0].change is None
    assert rows[0].games[0].note == "opponent unrated: not rated"
    first = rows[1].initial
    assert first is not None and first.games == 1 and not first.published
    # Ra = (2000 + 3600) / 3 = 1866.67; p = 2/3 = .67 -> 125: 1991.67 -> 1992
    assert first.rating == 1992


def test_history_sets_k() -> None:
    players = [Player(1, "A", 2000), Player(2, "B", 2000)]
    t = _rr(players, {(1, 2): "1-0"})
    rows = rate_tournament(
        t, history={1: PlayerHistory(rated_games_before=3), 2: PlayerHistory(k=10)}
    )
    assert (rows[0].change, rows[1].change) == (20, -5)


def test_junior_k_from_the_birth_date() -> None:
    players = [Player(1, "Young", 2000, birth_date="2009/05/01"), Player(2, "B", 2000)]
    rows = rate_tournament(_rr(players, {(1, 2): "1-0"}), year=2026)
    assert rows[0].k is not None and rows[0].k.value == 40
    assert rate_tournament(_rr(players, {(1, 2): "1-0"}), year=2028)[0].k.value == 20  # type: ignore[union-attr]


def test_pending_and_unknown_results_are_not_rated() -> None:
    players = [Player(1, "A", 2000), Player(2, "B", 2100)]
    rows = rate_tournament(_rr(players, {(1, 2): ""}))
    assert rows[0].games == () and rows[0].change is None
    assert Outcome.UNKNOWN.is_rated is False


# --- properties -----------------------------------------------------------------------------

ratings = st.integers(min_value=1000, max_value=2900)


@given(ratings, ratings)
@settings(max_examples=200)
def test_expected_scores_of_a_pair_sum_to_one(a: int, b: int) -> None:
    pa, pb = expected_score(a, b), expected_score(b, a)
    assert pa is not None and pb is not None
    if max(a, b) < 2650 or abs(a - b) <= 400:
        assert pa + pb == 100
    else:  # the 2650+ player counts the real difference, the other 400
        assert pa + pb >= 100


@given(ratings, ratings, st.sampled_from(["1-0", "½-½", "0-1"]), st.sampled_from([10, 20, 40]))
@settings(max_examples=200)
def test_rating_change_antisymmetric_for_equal_k(a: int, b: int, result: str, k: int) -> None:
    players = [Player(1, "A", a), Player(2, "B", b)]
    t = _rr(players, {(1, 2): result})
    history = {1: PlayerHistory(k=k), 2: PlayerHistory(k=k)}
    first, second = rate_tournament(t, history=history)
    assert first.change is not None and second.change is not None
    if max(a, b) < 2650 or abs(a - b) <= 400:
        assert first.change == -second.change
        assert first.change_rounded == -(second.change_rounded or 0)


@given(ratings, ratings, ratings)
@settings(max_examples=200)
def test_expected_score_never_falls_as_the_own_rating_rises(a: int, b: int, opponent: int) -> None:
    low, high = sorted((a, b))
    assert (expected_score(low, opponent) or 0) <= (expected_score(high, opponent) or 0)


@given(
    st.lists(st.tuples(ratings, st.sampled_from([0, 1, 2])), min_size=1, max_size=15),
)
@settings(max_examples=200)
def test_initial_rating_bounded_and_rises_with_the_score(games: list[tuple[int, int]]) -> None:
    rows = [(r, rating, halves) for r, (rating, halves) in enumerate(games, start=1)]
    first = initial_rating(rows)
    if first.rating is None:
        assert all(h == 0 for _, _, h in rows)
        return
    assert first.rating <= 2200
    better = [(r, rating, 2) for r, rating, _ in rows]
    assert (initial_rating(better).rating or 0) >= first.rating


@given(ratings, st.integers(0, 40), st.integers(0, 100), st.integers(0, 60))
@settings(max_examples=200)
def test_k_times_games_never_exceeds_700(rating: int, before: int, games: int, other: int) -> None:
    k = k_factor(KInputs(rating, rated_games_before=before, games_in_period=other), games)
    assert k.value in range(1, 41)
    assert k.value * (games + other) <= 700


@given(st.fractions(min_value=-100, max_value=100))
@settings(max_examples=200)
def test_round_change_is_symmetric(value: Fraction) -> None:
    assert round_change(-value) == -round_change(value)
    assert abs(round_change(value) - value) <= Fraction(1, 2)


def test_one_players_figures_equal_the_whole_fields(data_dir: Path) -> None:
    from crosstable.core.norms import tournament_norms

    t = _real(data_dir, "fr_domloup_fide_41_a.trf")
    everyone = rate_tournament(t, year=2026)
    norms = tournament_norms(t)
    for start in (1, 12, 24):
        assert rate_tournament(t, year=2026, only=start) == (everyone[start - 1],)
        assert tournament_norms(t, only=start) == (norms[start - 1],)
