"""Issue 18, items 1 and 2: Cut-2 and beyond cut every value they name, and forfeit wins
count in WON, BWG and BPG of a round robin under the 2026 text (C.07 15.2).

Each test here failed before its fix: ``cut_sums`` once cut only the lowest score
whatever the cut (BH/C2 = BH/C1), and WON, BWG, BPG counted games over the board only
in every round robin.
"""

from __future__ import annotations

import json
from fractions import Fraction as F  # noqa: N817 - reads like ½ in the expectations
from pathlib import Path

import pytest

from crosstable.cli import main
from crosstable.core.model import RulesEdition, System
from crosstable.core.standings import compute_standings
from crosstable.core.standings.live import LiveStandings
from crosstable.core.tiebreaks import REGISTRY, compile_field, parse_code
from crosstable.core.tiebreaks.definitions import definition
from crosstable.formats.trf import read_trf
from crosstable.formats.trf_model import TrfDocument
from crosstable.formats.trf_write import write_trf
from tests.test_tiebreak_helpers import tour

R2024 = RulesEdition.C07_2024
R2026 = RulesEdition.C07_2026


def column(t, code, rules=None):  # type: ignore[no-untyped-def]
    f = compile_field(t, edition=rules)
    spec = parse_code(code)
    col = REGISTRY[spec.name].compute(f, spec)
    return [col.natural(p) for p in range(f.n)]


# -- item 1: Cut-2 (C.07 14.2) ----------------------------------------------------------


def rr4_as_swiss():  # type: ignore[no-untyped-def]
    """C.07 14.2's case: a 4-player round robin read as a Swiss; player 1 scores 2.5
    against opponents who finish on 1, 1 and 1.5 (BH 3.5)."""
    return tour(
        4,
        [["1-2 1-0", "3-4 =="], ["3-1 0-1", "4-2 =="], ["1-4 ==", "2-3 =="]],
        system=System.SWISS_DUTCH,
    )


@pytest.mark.parametrize("rules", [R2024, R2026])
def test_buchholz_cut_2_cuts_the_two_lowest_scores(rules: RulesEdition) -> None:
    t = rr4_as_swiss()
    assert column(t, "PTS", rules)[0] == F(5, 2)
    assert column(t, "BH", rules)[0] == F(7, 2)
    assert column(t, "BH/C1", rules)[0] == F(5, 2)
    assert column(t, "BH/C2", rules)[0] == F(3, 2)  # was 2.5: only one value cut
    assert column(t, "BH/M1", rules)[0] == 1
    assert column(t, "BH/M2", rules)[0] == 0  # two low, then the one left is the highest
    assert column(t, "BH/C3", rules)[0] == 0


@pytest.mark.parametrize("code", ["BH/C2", "FB/C2", "AOB/C2", "SB/C2", "BH/M2", "FB/M2"])
def test_cut_2_table_explain_and_definition_agree(code: str) -> None:
    t = rr4_as_swiss()
    table = compute_standings(t, code)
    f = table.field
    spec = parse_code(code)
    for row in table.rows:
        p = row.start - 1
        shown = table.explain(row.start)[1]
        assert shown.value == row.values[0] == definition(f, spec, p), (code, row.start)


def test_fore_buchholz_cut_2() -> None:
    # round 3 decided (1 beats 4, 2 beats 3); as draws (8.3) the scores are those of
    # C.07 14.2's case again: 2.5, 1, 1, 1.5
    t = tour(
        4,
        [["1-2 1-0", "3-4 =="], ["3-1 0-1", "4-2 =="], ["1-4 1-0", "2-3 1-0"]],
        system=System.SWISS_DUTCH,
    )
    assert column(t, "BH")[0] == 3  # 1.5 + 0.5 + 1
    assert column(t, "FB")[0] == F(7, 2)  # 1 + 1 + 1.5
    assert column(t, "FB/C1")[0] == F(5, 2)
    assert column(t, "FB/C2")[0] == F(3, 2)  # was 2.5
    assert column(t, "FB/C2")[0] == definition(compile_field(t), parse_code("FB/C2"), 0)


def test_cut_2_in_the_live_table() -> None:
    t = tour(
        4,
        [["1-2 1-0", "3-4 =="], ["3-1 0-1", "4-2 =="], ["1-4 ==", "2-3 .."]],
        system=System.SWISS_DUTCH,
    )
    live = LiveStandings(t, "BH,BH/C1,BH/C2")
    live.record(3, 2, 3, parse_result("=="))
    assert live.standings().row(1).values == (F(7, 2), F(5, 2), F(3, 2))


def parse_result(text: str):  # type: ignore[no-untyped-def]
    from tests.test_tiebreak_helpers import result

    return result(text)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_cut_2_differs_from_cut_1_on_a_generated_swiss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trf = tmp_path / "open.trf"
    code, _, err = run(
        capsys, "generate", "--players", "60", "--rounds", "7", "--seed", "18", "-o", str(trf)
    )
    assert code == 0, err
    codes = "PTS,BH,BH/C1,BH/C2,FB/C1,FB/C2"
    code, out, err = run(capsys, "standings", str(trf), "--tiebreaks", codes, "--format", "json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    assert len(rows) == 60
    differ = sum(1 for row in rows if row["BH/C2"] != row["BH/C1"])
    assert differ >= 0.8 * len(rows)  # equal only when the two lowest scores... are 0
    assert sum(1 for row in rows if row["FB/C2"] != row["FB/C1"]) >= 0.8 * len(rows)
    # each value is the definition's: the sum of the opponents' scores, two lowest cut
    f = compile_field(read_trf(trf).tournament)
    for row in rows:
        p = row["start"] - 1
        scores = sorted(f.points(f.adjusted[o]) for o in f.opp[p] if o >= 0)
        assert F(str(row["BH/C2"])) == sum(scores[2:]), row["start"]
    # and --explain shows the table's number
    first = rows[0]["start"]
    code, out, _ = run(
        capsys,
        "standings",
        str(trf),
        "--tiebreaks",
        codes,
        "--explain",
        str(first),
        "--format",
        "json",
    )
    explained = {e["code"]: e["value"] for e in json.loads(out)["explain"]}
    assert explained["BH/C2"] == rows[0]["BH/C2"]
    assert explained["FB/C2"] == rows[0]["FB/C2"]


# -- item 2: forfeit wins in a 2026 round robin (C.07 15.2 with 7.2–7.4) ----------------


def forfeit_win_with_black():  # type: ignore[no-untyped-def]
    """Player 1 wins all three: with Black over the board (round 1), with Black by
    forfeit (round 2), with White over the board (round 3). Round 3's 4-2 is a double
    forfeit (a forfeit loss for both, 2 with Black)."""
    return tour(
        4,
        [["2-1 0-1", "3-4 =="], ["4-1 -+", "2-3 1-0"], ["1-3 1-0", "4-2 --"]],
    )


def test_forfeit_win_counts_in_won_bwg_bpg_under_2026() -> None:
    t = forfeit_win_with_black()
    assert column(t, "WON", R2026)[0] == 3
    assert column(t, "BWG", R2026)[0] == 2
    assert column(t, "BPG", R2026)[0] == 2
    # a forfeit loss stays an unplayed round for Type B (15.2): player 2 lost the double
    # forfeit with Black (0), player 4 lost by forfeit with White (1: round 1)
    assert column(t, "BPG", R2026) == [2, 0, 2, 1]
    assert column(t, "WON", R2026) == [3, 1, 0, 0]
    assert column(t, "WIN", R2026) == [3, 1, 0, 0]


def test_the_2024_text_keeps_over_the_board() -> None:
    t = forfeit_win_with_black()
    assert [column(t, code, R2024)[0] for code in ("WON", "BWG", "BPG")] == [2, 1, 1]
    # /V2026 on the code follows the 2026 text whatever the tournament's edition
    assert [column(t, f"{code}/V2026", R2024)[0] for code in ("WON", "BWG", "BPG")] == [3, 2, 2]


def test_swiss_forfeit_wins_stay_out_of_won_under_2026() -> None:
    # art. 16, not 15.2: in a Swiss event a forfeit win is an unplayed round
    t = tour(4, [["2-1 0-1", "3-4 =="], ["4-1 -+", "2-3 1-0"]], system=System.SWISS_DUTCH)
    assert [column(t, code, R2026)[0] for code in ("WON", "BWG", "BPG")] == [1, 1, 1]


def test_2026_round_robin_explanation_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    t = forfeit_win_with_black()
    table = compute_standings(t, "WON,BWG,BPG", rules=R2026)
    assert table.row(1).values == (3, 2, 2)
    won = table.explain(1)[1]
    assert won.value == 3 and len(won.items) == 3
    assert "forfeit win" in won.items[1].text
    assert "15.2" in won.note


def test_cli_2026_round_robin_forfeit_win(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trf = tmp_path / "rr.trf"
    trf.write_text(write_trf(TrfDocument(forfeit_win_with_black())))
    base = ["standings", str(trf), "--system", "round-robin", "--tiebreaks", "WON,BWG,BPG"]
    for rules, want in (("2026", [3, 2, 2]), ("2024", [2, 1, 1])):
        code, out, err = run(capsys, *base, "--rules", rules, "--format", "json")
        assert code == 0, err
        row = next(r for r in json.loads(out)["rows"] if r["start"] == 1)
        assert [row["WON"], row["BWG"], row["BPG"]] == want, rules


# -- found by the properties of tests/test_tiebreak_definitions.py ------------------------


@pytest.mark.parametrize("code", ["APRO", "APPO", "APRO/C1", "APPO/U1500"])
def test_one_players_average_of_the_opponents_performances(code: str) -> None:
    # player_value of APRO and APPO raised NotImplementedError (the base class's
    # per-player form needed per_player, which they do not define)
    t = tour(
        4,
        [["1-4 1-0", "2-3 =="], ["4-3 0-1", "1-2 =="], ["2-4 1-0", "3-1 0-1"]],
        ratings=[2000, 1900, 1800, 1700],
    )
    f = compile_field(t)
    spec = parse_code(code)
    tb = REGISTRY[spec.name]
    column_values = tb.compute(f, spec).values
    assert [tb.player_value(f, spec, p) for p in range(4)] == column_values
    assert column_values == [definition(f, spec, p) for p in range(4)]
