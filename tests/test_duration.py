"""Round-robin arithmetic (R-RR-3), time controls and the duration calculator (R-RR-16).

The literal tables below are transcribed from the seeds:
- seed 004 (``../shared/seeds/004_da7eb776f358ec10.txt``), the arithmetic table
  (players, rounds, games, boards, double rounds, double games) and the duration
  table (hours per time control, club evenings with G/25 d5);
- seed 003 (``../shared/seeds/003_a4606a1dfbd5deeb.txt``), players/rounds/games;
- seed 001 (``../shared/seeds/001_9befd84f4902fb9a.txt``), numbers in its text.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crosstable.core.duration import (
    Period,
    TimeControl,
    estimate_duration,
    format_hours,
    parse_time_control,
    quarter_hours,
    round_robin_arithmetic,
)
from crosstable.core.errors import RuleError

# seed 004: Players, Rounds, Games, Boards, Double RR rounds, Double RR games
SEED_004_ARITHMETIC = [
    (4, 3, 6, 2, 6, 12),
    (6, 5, 15, 3, 10, 30),
    (8, 7, 28, 4, 14, 56),
    (10, 9, 45, 5, 18, 90),
    (12, 11, 66, 6, 22, 132),
    (14, 13, 91, 7, 26, 182),
    (16, 15, 120, 8, 30, 240),
]

# seed 003: Participants, Rounds, Total games
SEED_003_ARITHMETIC = [(4, 3, 6), (6, 5, 15), (8, 7, 28), (10, 9, 45), (12, 11, 66), (16, 15, 120)]

# seed 004: Players, Rounds, G/10+5, G/25 d5, G/60 d5 (hours), club evenings with G/25 d5
SEED_004_DURATION = [
    (4, 3, "2¼ h", "3¾ h", "7¼ h", 2),
    (6, 5, "3¾ h", "6¼ h", "12 h", 3),
    (8, 7, "5¼ h", "8¾ h", "17 h", 4),
    (10, 9, "6¾ h", "11¼ h", "21¾ h", 5),
    (12, 11, "8¼ h", "13¾ h", "26½ h", 6),
    (16, 15, "11¼ h", "18¾ h", "36¼ h", 8),
]


@pytest.mark.parametrize(
    ("players", "rounds", "games", "boards", "d_rounds", "d_games"), SEED_004_ARITHMETIC
)
def test_seed_004_arithmetic_table(
    players: int, rounds: int, games: int, boards: int, d_rounds: int, d_games: int
) -> None:
    a = round_robin_arithmetic(players)
    assert (a.rounds, a.games, a.boards, a.double_rounds, a.double_games) == (
        rounds,
        games,
        boards,
        d_rounds,
        d_games,
    )


@pytest.mark.parametrize(("players", "rounds", "games"), SEED_003_ARITHMETIC)
def test_seed_003_arithmetic_table(players: int, rounds: int, games: int) -> None:
    a = round_robin_arithmetic(players)
    assert (a.rounds, a.games) == (rounds, games)


def test_seed_numbers_in_the_text() -> None:
    # seed 003: "30 participants would need 29 rounds"; seed 001/004: six players
    # double round robin = ten rounds and 30 games; seven players = 7 rounds.
    assert round_robin_arithmetic(30).rounds == 29
    six = round_robin_arithmetic(6)
    assert (six.double_rounds, six.double_games) == (10, 30)
    assert round_robin_arithmetic(7).rounds == 7
    # seed 001: going from 8 to 16 players the games go from 28 to 120
    assert (round_robin_arithmetic(8).games, round_robin_arithmetic(16).games) == (28, 120)


@given(st.integers(min_value=3, max_value=2000))
def test_arithmetic_formulas(players: int) -> None:
    a = round_robin_arithmetic(players)
    assert a.games * 2 == players * (players - 1)
    assert a.boards == players // 2
    assert a.rounds == (players - 1 if players % 2 == 0 else players)
    # every round has ⌊N/2⌋ boards and the games fill the rounds exactly
    assert a.rounds * a.boards == a.games
    assert (a.double_rounds, a.double_games) == (2 * a.rounds, 2 * a.games)


@pytest.mark.parametrize("players", [-1, 0, 1, 2])
def test_arithmetic_needs_three_players(players: int) -> None:
    with pytest.raises(RuleError, match="at least 3 players"):
        round_robin_arithmetic(players)


@pytest.mark.parametrize(
    ("players", "rounds", "fast", "rapid", "slow", "evenings"), SEED_004_DURATION
)
def test_seed_004_duration_table(
    players: int, rounds: int, fast: str, rapid: str, slow: str, evenings: int
) -> None:
    for text, hours in (("G/10+5", fast), ("G/25 d5", rapid), ("G/60 d5", slow)):
        estimate = estimate_duration(players, text)
        assert estimate.rounds == rounds
        assert format_hours(estimate.total_minutes) == hours
    club = estimate_duration(players, "G/25 d5", evening_minutes=180)
    assert club.rounds_per_evening == 2  # seed 004: "two rounds of G/25 d5"
    assert club.evenings == evenings


def test_seed_004_duration_exact_minutes() -> None:
    # the seed rounds to the quarter hour; the calculator keeps exact minutes:
    # a round is 2 × (base + bonus) + 15 = 45, 75 and 145 minutes.
    expected = {
        "G/10+5": [135, 225, 315, 405, 495, 675],
        "G/25 d5": [225, 375, 525, 675, 825, 1125],
        "G/60 d5": [435, 725, 1015, 1305, 1595, 2175],
    }
    for text, totals in expected.items():
        got = [estimate_duration(p, text).total_minutes for p, *_ in SEED_004_DURATION]
        assert got == [Fraction(t) for t in totals]
    # 725 min is 12 h 05 (the seed prints 12 h), 1595 min is 26 h 35 (26½ h)
    assert quarter_hours(Fraction(725)) == 12
    assert quarter_hours(Fraction(1595)) == Fraction(53, 2)


def test_seed_001_quads_under_four_hours() -> None:
    # seed 001: "three rounds of G/25 d5 — less than four hours"
    quad = estimate_duration(4, "G/25 d5")
    assert quad.rounds == 3 and quad.total_minutes < 240


def test_seed_001_twelve_player_classical_season() -> None:
    # seed 001: a 12-player club championship at a classical control is "about
    # eleven weeks": a round longer than the evening still takes one evening.
    e = estimate_duration(12, "90+30")
    assert e.round_longer_than_evening
    assert (e.rounds_per_evening, e.evenings) == (1, 11)


def test_double_doubles_rounds_games_and_total() -> None:
    single = estimate_duration(6, "25+5")
    double = estimate_duration(6, "25+5", double=True)
    assert (double.rounds, double.games) == (10, 30)
    assert double.total_minutes == 2 * single.total_minutes
    assert (double.double_rounds, double.double_games) == (single.double_rounds, 30)
    assert double.evenings == 5


def test_json_shape() -> None:
    data = estimate_duration(8, "G/25 d5").to_json()
    assert list(data) == [
        "players",
        "rounds",
        "games",
        "boards",
        "double_rounds",
        "double_games",
        "minutes_per_player",
        "worst_case_game_minutes",
        "round_minutes",
        "total_minutes",
        "rounds_per_evening",
        "evenings",
    ]
    assert data["total_minutes"] == 525 and isinstance(data["total_minutes"], int)
    assert estimate_duration(4, "20s+1").to_json()["minutes_per_player"] == pytest.approx(4 / 3)


@pytest.mark.parametrize(
    ("text", "base", "bonus", "per_player"),
    [
        ("25+5", 25, 5, 30),
        ("G/25 d5", 25, 5, 30),
        ("G/25;d5", 25, 5, 30),
        ("G/60;d5", 60, 5, 65),
        ("G/60; d5", 60, 5, 65),
        ("90+30", 90, 30, 120),
        ("40/90,30+30", 120, 30, 150),
        ("40/90, 30+30", 120, 30, 150),
        ("G/90+30", 90, 30, 120),
        ("g/90 inc30", 90, 30, 120),
        ("SD/30 d5", 30, 5, 35),
        ("90'+30\"", 90, 30, 120),
        ("90′+30″", 90, 30, 120),
        ("25 min + 10 s", 25, 10, 35),
        ("10 + 5", 10, 5, 15),
        ("G/10+5", 10, 5, 15),
        ("40/120, 20/60, G/30", 210, 0, 210),
        ("G/45", 45, 0, 45),
        # TRF-2026 tag 222 values, in seconds
        ("5400+30", 90, 30, 120),
        ("300+3", 5, 3, 8),
        ("40/6000+30:900+30", 115, 30, 145),
        ("1500s+10", 25, 10, 35),
    ],
)
def test_parse_time_controls(text: str, base: int, bonus: int, per_player: int) -> None:
    tc = parse_time_control(text)
    assert (tc.base_minutes, tc.bonus_seconds, tc.minutes_per_player) == (base, bonus, per_player)


def test_parse_keeps_the_periods() -> None:
    tc = TimeControl.parse("40/90,30+30")
    assert tc.periods == (
        Period(40, Fraction(90)),
        Period(None, Fraction(30), increment_seconds=Fraction(30)),
    )
    assert TimeControl.parse("G/25;d5").periods == (
        Period(None, Fraction(25), delay_seconds=Fraction(5)),
    )
    assert TimeControl.parse("40/6000+30:900+30").notation() == "40/100+30, 15+30"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("abc", "'abc' is not understood"),
        ("G/25 x5", "'x5' is not understood"),
        ("25+", "'25\\+' is not understood"),
        ("40/90", "last period must be for the rest of the game"),
        ("40/90, G/30, 30", "only the last period"),
        ("0+0", "no thinking time"),
        ("0/90, 30", "a period of 0 moves"),
        ("G/25 d5m", "increment or delay is in seconds"),
        ("-5+3", "not understood"),
    ],
)
def test_bad_time_controls(text: str, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        parse_time_control(text)


def test_bad_evening() -> None:
    with pytest.raises(RuleError, match="evening"):
        estimate_duration(8, "25+5", evening_minutes=0)


@given(
    players=st.integers(min_value=3, max_value=60),
    base=st.integers(min_value=1, max_value=180),
    bonus=st.integers(min_value=0, max_value=60),
    evening=st.integers(min_value=30, max_value=600),
    double=st.booleans(),
)
def test_duration_is_exact(players: int, base: int, bonus: int, evening: int, double: bool) -> None:
    e = estimate_duration(players, f"{base}+{bonus}", evening_minutes=evening, double=double)
    arithmetic = round_robin_arithmetic(players)
    rounds = arithmetic.double_rounds if double else arithmetic.rounds
    assert e.rounds == rounds
    assert e.minutes_per_player == base + bonus
    assert e.worst_case_game_minutes == 2 * (base + bonus)
    assert e.round_minutes == 2 * (base + bonus) + 15
    assert e.total_minutes == rounds * (2 * (base + bonus) + 15)
    assert e.rounds_per_evening >= 1
    if not e.round_longer_than_evening:
        assert e.rounds_per_evening * e.round_minutes <= evening
        assert (e.rounds_per_evening + 1) * e.round_minutes > evening
    assert e.evenings * e.rounds_per_evening >= rounds
    assert (e.evenings - 1) * e.rounds_per_evening < rounds


@given(
    players=st.integers(min_value=3, max_value=60),
    base=st.integers(min_value=1, max_value=180),
    bonus=st.integers(min_value=0, max_value=60),
)
def test_duration_is_monotonic(players: int, base: int, bonus: int) -> None:
    e = estimate_duration(players, f"{base}+{bonus}")
    assert estimate_duration(players + 1, f"{base}+{bonus}").total_minutes >= e.total_minutes
    assert estimate_duration(players, f"{base + 1}+{bonus}").total_minutes > e.total_minutes
    assert estimate_duration(players, f"{base}+{bonus + 1}").total_minutes > e.total_minutes
    more = estimate_duration(players + 1, f"{base}+{bonus}")
    assert more.evenings >= e.evenings
    assert estimate_duration(players, f"{base}+{bonus}", double=True).total_minutes == (
        2 * e.total_minutes
    )


def test_format_hours() -> None:
    assert [format_hours(Fraction(m)) for m in (0, 10, 135, 720, 1590)] == [
        "0 h",
        "¼ h",
        "2¼ h",
        "12 h",
        "26½ h",
    ]
