"""Tie-break cases the real data lacks, each worked out by hand from C.07.

Round robins with forfeits and double forfeits, Swiss events with every kind of
bye (U, F, H, Z) under the 2024 and the 2026 texts, unrated players, 3-1-0,
modifiers, the rating tables and seed 003's walk-through.
"""

from __future__ import annotations

from fractions import Fraction as F  # noqa: N817 - reads like ½ in the expectations

import pytest

from crosstable.core.errors import RuleError
from crosstable.core.model import RulesEdition, System
from crosstable.core.scoring import PointSystem
from crosstable.core.standings import compute_standings
from crosstable.core.tiebreaks import REGISTRY, compile_field, parse_code
from crosstable.core.tiebreaks.direct import mini_table
from crosstable.core.tiebreaks.fide_tables import dp, expected
from crosstable.core.tiebreaks.ratings import perfect_performance, performance
from crosstable.formats.trf import read_trf
from tests.conftest import DATA
from tests.test_tiebreak_helpers import tour

R2024 = RulesEdition.C07_2024
R2026 = RulesEdition.C07_2026


def values(t, code, rules=None, system=None):  # type: ignore[no-untyped-def]
    f = compile_field(t, edition=rules, system=system)
    spec = parse_code(code)
    col = REGISTRY[spec.name].compute(f, spec)
    return [col.natural(p) for p in range(f.n)]


# -- seed 003 ---------------------------------------------------------------------------


def test_seed_003_sonneborn_berger_walk_through() -> None:
    t = read_trf(DATA / "tiebreaks/seed-examples/vibe_chess_rr6.trf").tournament
    assert values(t, "SB") == [9, F(13, 2), F(21, 4), F(19, 4), 4, F(9, 2)]
    assert values(t, "DSB") == [18, 13, F(21, 2), F(19, 2), 8, 9]
    table = compute_standings(t, "SB")
    assert [row.start for row in table.rows] == [1, 2, 3, 4, 5, 6]
    sb = table.explain(2)[1]
    assert sb.formula == "2.5 + 0.5 × (4 + 1.5 + 2.5) = 6.5"
    assert table.explain(3)[1].formula == "(2.5 + 2) + 0.5 × (1.5) = 5.25"
    # Buchholz is useless in a round robin (seed 003): 12.5 for all three on 2½
    assert values(t, "BH")[1:4] == [F(25, 2)] * 3
    assert "Buchholz tie-breaks must not be used" in str(
        compute_standings(t, "BH", rules=R2026).notes
    )


# -- round robins: forfeits are games (C.07 15.2) ---------------------------------------

RATINGS = [2000, 1900, 1800, 1700]


def forfeit_rr(last: str = "2-4 1-0"):  # type: ignore[no-untyped-def]
    # Berger 4: R1 1-4 2-3, R2 4-3 1-2, R3 2-4 3-1; 1 beats 2 by forfeit in round 2
    return tour(
        4,
        [["1-4 1-0", "2-3 =="], ["4-3 0-1", "1-2 +-"], [last, "3-1 0-1"]],
        ratings=RATINGS,
    )


def test_round_robin_forfeit_counts_as_a_game() -> None:
    t = forfeit_rr()
    assert values(t, "PTS") == [3, F(3, 2), F(3, 2), 0]
    assert values(t, "SB") == [3, F(3, 4), F(3, 4), 0]
    assert values(t, "BH") == [3, F(9, 2), F(9, 2), 6]
    assert values(t, "WIN") == [3, 1, 1, 0]
    assert values(t, "WON") == [2, 1, 1, 0]  # over the board only (7.2)
    assert values(t, "KS") == [2, F(1, 2), F(1, 2), 0]  # bar: 50 % of 3 = 1.5
    assert values(t, "ARO") == [1750, 1750, 1867, 1900]  # forfeits never count (art. 10)
    assert values(t, "REP") == [3, 2, 3, 3]
    table = compute_standings(t, "DE,WIN,SB,KS")
    assert [(r.start, r.rank) for r in table.rows] == [(1, 1), (2, 2), (3, 2), (4, 4)]


def test_round_robin_forfeit_decides_direct_encounter() -> None:
    # 1 and 2 finish level; their only game was 1's forfeit win: DE counts it (15.2)
    t = tour(
        4,
        [["1-4 0-1", "2-3 1-0"], ["4-3 0-1", "1-2 +-"], ["2-4 1-0", "3-1 0-1"]],
    )
    assert values(t, "PTS")[:2] == [2, 2]
    table = compute_standings(t, "DE")
    assert [r.start for r in table.rows][:2] == [1, 2]
    assert table.rows[0].values == (1,)
    assert "direct encounter" in table.why(2, 1)


def test_round_robin_double_forfeit() -> None:
    t = forfeit_rr(last="2-4 --")
    assert values(t, "PTS") == [3, F(1, 2), F(3, 2), 0]
    assert values(t, "WIN")[1] == 0
    assert values(t, "BH")[3] == 5  # 3 + 1.5 + 2's ½: the double forfeit is a game
    assert values(t, "SB")[3] == 0
    # STD: a forfeit is an unplayed round, compared with a draw: ½ + 0 + 0
    assert values(t, "STD")[1] == F(1, 2)
    assert values(t, "REP")[1] == 1


def test_odd_round_robin_free_round_is_not_an_element() -> None:
    # 3 players: each has one free round; max score 2 (not 3) for Koya
    t = tour(3, [["2-3 1-0", "1 free"], ["3-1 ==", "2 free"], ["1-2 1-0", "3 free"]])
    assert values(t, "PTS") == [F(3, 2), 1, F(1, 2)]
    assert values(t, "BH") == [F(3, 2), 2, F(5, 2)]
    assert values(t, "KS") == [1, 0, F(1, 2)]  # bar 1 (50 % of 2): players 1 and 2
    assert values(t, "KS/L+1") == [0, 0, F(1, 2)]  # bar 1.5: player 1 only
    assert values(t, "KS/L-2") == [F(3, 2), 1, F(1, 2)]  # bar 0: everyone
    assert values(t, "WIN") == [1, 1, 0]


# -- Swiss: every kind of bye, art. 16 -------------------------------------------------


def byes_swiss(rules: RulesEdition = R2024):  # type: ignore[no-untyped-def]
    return tour(
        5,
        [
            ["1-2 1-0", "3-4 ==", "5 U"],
            ["1-3 ==", "2-5 0-1", "4 H"],
            ["1-5 1-0", "3-4 +-", "2 Z"],
        ],
        system=System.SWISS_DUTCH,
        rules=rules,
    )


def test_swiss_byes_2024() -> None:
    t = byes_swiss()
    f = compile_field(t)
    assert values(t, "PTS") == [F(5, 2), 0, 2, 1, 2]
    # 16.3: 2's zero-point bye in the last round counts as a draw for the opponents
    assert [f.points(a) for a in f.adjusted] == [F(5, 2), F(1, 2), 2, 1, 2]
    assert [f.category(1, 2), f.category(3, 1), f.category(3, 2), f.category(4, 0)] == [5, 5, 4, 1]
    assert f.category(2, 2) == 2
    assert values(t, "BH") == [F(9, 2), F(9, 2), F(11, 2), 4, 5]
    assert values(t, "SB") == [F(7, 2), 0, F(15, 4), F(3, 2), F(5, 2)]
    assert values(t, "BH/C1") == [4, F(9, 2), F(9, 2), 3, F(9, 2)]
    assert values(t, "SB/C1") == [3, 0, F(13, 4), F(3, 2), 2]
    assert values(t, "WIN") == [2, 0, 1, 0, 2]
    assert values(t, "WON") == [2, 0, 0, 0, 1]
    assert values(t, "REP") == [3, 2, 3, 1, 3]
    assert values(t, "PS") == [5, 0, F(7, 2), F(5, 2), 5]


def test_swiss_byes_2026_caps() -> None:
    t = byes_swiss(R2026)
    # 16.4.1: 3's forfeit win dummy ≤ 4's adjusted score (1); 16.4.2: 5's PAB ≤ ½ × 3
    assert values(t, "BH") == [F(9, 2), F(9, 2), F(9, 2), 4, F(9, 2)]
    assert values(t, "SB") == [F(7, 2), 0, F(11, 4), F(3, 2), 2]
    explained = compute_standings(t, "BH").explain(5)[1].text()
    assert "capped" in explained


def test_full_point_bye_is_category_one() -> None:
    t = tour(
        4,
        [["1-2 1-0", "3-4 1-0"], ["1-3 ==", "2 F", "4 Z"]],
        system=System.SWISS_DUTCH,
    )
    f = compile_field(t)
    assert f.category(1, 1) == 1
    assert values(t, "PTS") == [F(3, 2), 1, F(3, 2), 0]
    assert values(t, "WIN") == [1, 1, 1, 0]  # a full-point bye is a win's points (7.1)
    # 4's Z in the last round counts as a draw for 3 (16.3.2): 3's BH = ½ + 3/2
    assert values(t, "BH")[2] == 2
    assert values(t, "BH")[1] == F(5, 2)  # 1's 1.5 + dummy with 2's own score 1


def test_cut_takes_the_vur_first() -> None:
    # 4 has a half-point bye (a VUR) and a weaker opponent: Cut-1 removes the bye (16.5)
    t = tour(
        4,
        [["1-4 0-1", "2-3 1-0"], ["1-2 ==", "4 H", "3 U"], ["4-2 0-1", "3-1 1-0"]],
        system=System.SWISS_DUTCH,
    )
    f = compile_field(t)
    assert values(t, "PTS") == [F(1, 2), F(5, 2), 2, F(3, 2)]
    assert f.is_vur(3, 1)
    # 4: player 1 (½), the bye's dummy (own score 1.5, a VUR), player 2 (2.5)
    assert values(t, "BH")[3] == F(9, 2)
    assert values(t, "BH/C1")[3] == 3  # the VUR's 1.5 goes, not the lowest ½
    # SB: ½·1, 1.5·½ (VUR), 2.5·0: the higher of the VUR's ¾ and the least ½ is cut
    assert values(t, "SB")[3] == F(5, 4)
    assert values(t, "SB/C1")[3] == F(1, 2)


# -- unrated players (art. 10) ----------------------------------------------------------


def test_rating_tie_breaks_are_dropped_with_unrated_players() -> None:
    t = forfeit_rr()
    t2 = tour(4, [["1-4 1-0", "2-3 =="]], ratings=[2000, None, 1800, 1700])
    assert values(t2, "ARO") == [None] * 4
    assert values(t2, "ARO/U1000") == [1700, 1800, 1000, 2000]
    assert values(t2, "ARO_RATED") == [1700, 1800, None, 2000]
    assert values(t2, "RTNG") == [None] * 4
    assert values(t2, "RTNG/U1500") == [2000, 1500, 1800, 1700]
    table = compute_standings(t2, "ARO")
    assert any("unrated" in note and "art. 10" in note for note in table.notes)
    assert table.to_json()["rows"][0]["ARO"] is None  # type: ignore[index]
    assert values(t, "TPR")[0] is not None


def test_performance_ratings() -> None:
    games = [(0, 1500, 2), (1, 1600, 2), (2, 1700, 0)]  # 2 of 3: p = 0.67 → dp 125
    assert performance(games) == 1600 + 125
    assert dp(67) == 125
    assert perfect_performance([(0, 2000, 2)]) == 2736  # 1.00 needs a difference > 735
    # ½ against 2000: the table gives .50 for differences 0–3, so 1997 suffices
    assert perfect_performance([(0, 2000, 1)]) == 1997
    assert perfect_performance([(0, 1500, 0), (1, 1600, 0)]) == 700  # lowest − 800
    two = [(0, 1500, 2), (1, 1600, 0)]
    ptp = perfect_performance(two)
    assert ptp is not None
    assert sum(expected(ptp - r) for r in (1500, 1600)) >= 100
    assert sum(expected(ptp - 1 - r) for r in (1500, 1600)) < 100


def test_average_of_opponents_performances() -> None:
    t = forfeit_rr()
    tpr = values(t, "TPR")
    apro = values(t, "APRO")
    # player 1 met 4 and 3 over the board
    assert apro[0] == (tpr[3] + tpr[2] + 1) // 2
    assert values(t, "APPO")[0] is not None


# -- custom point systems -----------------------------------------------------------------


def test_three_one_zero() -> None:
    t = tour(
        4,
        [["1-4 1-0", "2-3 =="], ["4-3 0-1", "1-2 =="], ["2-4 1-0", "3-1 0-1"]],
        points=PointSystem.three_one_zero(),
    )
    assert values(t, "PTS") == [7, 5, 4, 0]
    assert values(t, "STD") == [F(5, 2), 2, F(3, 2), 0]  # 1-½-0 restored (7.7)
    assert values(t, "WIN") == [2, 1, 1, 0]
    # SB: opponent's score × points scored: 1: 0×3 + 5×1 + 4×3
    assert values(t, "SB") == [17, 4 + 7, 5, 0]
    assert values(t, "KS") == [1, 1, 1, 0]  # bar: 50 % of 9 = 4.5: players 1 and 2


# -- direct encounter -----------------------------------------------------------------------


def test_direct_encounter_when_not_all_met() -> None:
    # 1 beat 2 and 3, who never met: 1 is first whatever; 2 and 3 stay tied (6.3)
    t = tour(
        6,
        [
            ["1-2 1-0", "3-4 0-1", "5-6 1-0"],
            ["3-1 0-1", "2-5 1-0", "4-6 1-0"],
            ["1-4 0-1", "2-6 0-1", "3-5 1-0"],
        ],
        system=System.SWISS_DUTCH,
    )
    assert [values(t, "PTS")[p] for p in (0, 1, 2)] == [2, 1, 1]
    group = [0, 1, 2]
    de = REGISTRY["DE"]
    f = compile_field(t)
    parts = de.split(f, parse_code("DE"), group)  # type: ignore[attr-defined]
    assert parts == [[0], [1, 2]]


def test_direct_encounter_not_all_met_nothing_resolved() -> None:
    t = tour(
        4,
        [["1-2 1-0", "3-4 =="], ["1-3 ==", "2-4 =="]],
        system=System.SWISS_DUTCH,
    )
    f = compile_field(t)
    de = REGISTRY["DE"]
    # 1, 2 … : give a group where 1 beat 2 but 3 never met 2 and could still catch 1
    parts = de.split(f, parse_code("DE"), [0, 1, 2])  # type: ignore[attr-defined]
    assert len(parts) == 1


def test_direct_encounter_averages_repeated_games() -> None:
    # 1 and 2 meet twice (1 and ½ for player 1): the average counts, ¾ to ¼ (6.1.2)
    t = tour(2, [["1-2 1-0"], ["2-1 =="]], cycles=2)
    f = compile_field(t)
    totals, met = mini_table(f, parse_code("DE"), [0, 1])
    assert totals == {0: F(3, 2), 1: F(1, 2)}  # scaled by 2: ¾ and ¼
    assert met == {0: 1, 1: 1}
    # three games ½, 1, 0: the true average is ½ each, so they stay tied (the reference
    # calculator's running mean would give 0.375 and 0.625 here)
    t = tour(2, [["1-2 =="], ["2-1 0-1"], ["1-2 0-1"]], cycles=3)
    parts = REGISTRY["DE"].split(compile_field(t), parse_code("DE"), [0, 1])  # type: ignore[attr-defined]
    assert parts == [[0, 1]]


# -- modifiers and codes -------------------------------------------------------------------


def test_modifiers() -> None:
    t = byes_swiss()
    assert values(t, "PS/C1") == [4, 0, 3, 2, 4]
    assert values(t, "BH/M1") == [2, 2, 2, 1, 2]
    assert values(t, "TPN") == [1, 2, 3, 4, 5]
    assert [r.start for r in compute_standings(t, "TPN").rows] == [1, 3, 5, 4, 2]
    assert [r.start for r in compute_standings(t, "TPN/R").rows] == [1, 5, 3, 4, 2]
    with pytest.raises(RuleError, match="no /L modifier"):
        parse_code("BH/L-1")
    with pytest.raises(RuleError, match="unknown code"):
        parse_code("XYZ")
    assert parse_code("BH-C1").cut_low == 1
    assert parse_code("KS/L60%").limit_percent == 60
    assert parse_code("SB/V2026").edition is R2026


def test_fore_buchholz_and_average_of_buchholz() -> None:
    t = tour(
        4,
        [["1-2 1-0", "3-4 1-0"], ["1-3 ..", "2-4 .."]],
        system=System.SWISS_DUTCH,
    )
    # final round taken as drawn: 1 and 3 have 1.5, 2 and 4 have 0.5
    assert values(t, "FB") == [2, 2, 2, 2]
    # AOB over the games played over the board (round 1): 2's Buchholz is 1
    assert values(t, "AOB")[0] == 1
    assert values(t, "AOB/F")[0] == 2  # 2's Fore Buchholz
