"""Standings: withdrawals (R-RR-13), live vs final, lots, the locked list, the views."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F  # noqa: N817 - reads like ½ in the expectations

import pytest

from crosstable.core.errors import RuleError
from crosstable.core.model import System, WithdrawalRule
from crosstable.core.standings import compute_standings, crosstable_view
from crosstable.core.tiebreaks import change_tiebreaks
from crosstable.formats.trf import read_trf
from tests.conftest import DATA
from tests.test_tiebreak_helpers import tour

SEED = DATA / "tiebreaks/seed-examples/vibe_chess_rr6.trf"

# Berger 6: R1 1-6 2-5 3-4, R2 6-4 5-3 1-2, R3 2-6 3-1 4-5, R4 6-5 1-4 2-3, R5 3-6 4-2 5-1
EARLY = [  # 6 plays two games, then forfeits the rest: fewer than half
    ["1-6 ==", "2-5 ==", "3-4 =="],
    ["6-4 ==", "5-3 ==", "1-2 1-0"],
    ["2-6 +-", "3-1 ==", "4-5 =="],
    ["6-5 -+", "1-4 ==", "2-3 =="],
    ["3-6 +-", "4-2 ==", "5-1 =="],
]
LATE = [  # 6 plays three games and withdraws: the last two are not played
    ["1-6 ==", "2-5 ==", "3-4 =="],
    ["6-4 ==", "5-3 ==", "1-2 1-0"],
    ["2-6 ==", "3-1 ==", "4-5 =="],
    ["6-5 ..", "1-4 ==", "2-3 =="],
    ["3-6 ..", "4-2 ==", "5-1 =="],
]


def points(table) -> dict[int, F]:  # type: ignore[no-untyped-def]
    return {row.start: row.points for row in table.rows}


def test_withdrawal_before_half_annuls_the_games_in_final_standings() -> None:
    t = tour(6, EARLY)
    live = compute_standings(t, "SB")
    assert points(live) == {1: 3, 2: F(5, 2), 3: 3, 4: F(5, 2), 5: 3, 6: 1}
    assert live.row(6).withdrawn == "inferred" and not live.row(6).excluded
    final = compute_standings(t, "SB", final=True)
    assert points(final) == {1: F(5, 2), 2: F(3, 2), 3: 2, 4: 2, 5: 2}
    assert 6 not in {row.start for row in final.rows}
    assert any("fewer than half" in note for note in final.notes)
    starts = [row["start"] for row in final.to_json()["rows"]]  # type: ignore[index]
    assert sorted(starts) == [1, 2, 3, 4, 5]
    # the games stay in the crosstable, marked
    view = crosstable_view(t, final)
    assert view.rows[0].cells[5] == ("(½)",)
    assert view.rows[5].excluded


def test_explicit_withdrawal_shows_its_provisional_effect_live() -> None:
    t = tour(6, EARLY)
    live = compute_standings(t, "SB", withdrawn=[6])
    assert points(live)[1] == F(5, 2)
    six = live.rows[-1]
    assert (six.start, six.rank, six.excluded, six.withdrawn) == (6, None, True, "explicit")
    assert all(note.startswith("provisional") for note in live.notes if "player 6" in note)


def test_withdrawal_after_half_keeps_results_and_forfeits_the_rest() -> None:
    t = tour(6, LATE)
    assert compute_standings(t, "SB").provisional
    final = compute_standings(t, "SB", withdrawn=[6], final=True)
    assert points(final) == {1: 3, 2: 2, 3: 3, 4: F(5, 2), 5: 3, 6: F(3, 2)}
    assert not final.provisional
    view = crosstable_view(t, final)
    assert view.rows[4].cells[5] == ("+",) and view.rows[5].cells[4] == ("−",)
    assert "+" in view.text()


def test_withdrawal_rule_is_a_setting() -> None:
    t = tour(6, LATE)
    annul = replace(t, settings=replace(t.settings, withdrawal_rule=WithdrawalRule.ANNUL))
    final = compute_standings(annul, "SB", withdrawn=[6], final=True)
    assert 6 not in points(final)
    keep = replace(t, settings=replace(t.settings, withdrawal_rule=WithdrawalRule.KEEP))
    early = replace(tour(6, EARLY), settings=keep.settings)
    assert 6 in points(compute_standings(early, "SB", final=True))


def test_swiss_withdrawal_keeps_everything() -> None:
    t = tour(
        4,
        [["1-2 1-0", "3-4 1-0"], ["1-3 ==", "2-4 -+"], ["1-4 ==", "2 Z", "3 U"]],
        system=System.SWISS_DUTCH,
    )
    final = compute_standings(t, "BH", withdrawn=[2], final=True)
    assert len(final.rows) == 4
    assert final.row(2).withdrawn == "explicit" and not final.row(2).excluded


def test_ties_share_a_rank_or_are_broken_by_recorded_lots() -> None:
    t = tour(4, [["1-2 ==", "3-4 =="]], system=System.SWISS_DUTCH)
    shared = compute_standings(t, "BH")
    assert [row.rank for row in shared.rows] == [1, 1, 1, 1]
    drawn = compute_standings(t, "BH", lots_seed=7)
    again = compute_standings(t, "BH", lots_seed=7)
    assert [r.start for r in drawn.rows] == [r.start for r in again.rows]
    assert [row.rank for row in drawn.rows] == [1, 2, 3, 4]
    assert drawn.lots[0].players == (1, 2, 3, 4)
    assert drawn.to_json()["lots"] == [  # type: ignore[comparison-overlap]
        {"players": [1, 2, 3, 4], "order": [r.start for r in drawn.rows], "seed": 7}
    ]
    assert "lots drawn with seed 7" in drawn.why(drawn.rows[0].start, drawn.rows[1].start)
    assert "share rank 1" in shared.why(1, 2)


def test_the_list_is_locked_once_round_one_starts() -> None:
    fresh = tour(4, [["1-4 ..", "2-3 .."]])
    changed = change_tiebreaks(fresh, "DE,SB")
    assert changed.settings.tiebreaks == ("DE", "SB")
    started = tour(4, [["1-4 1-0", "2-3 .."]])
    with pytest.raises(RuleError, match="locked"):
        change_tiebreaks(started, "SB")
    done = change_tiebreaks(started, "SB", confirmed=True)
    assert done.settings.tiebreaks == ("SB",)
    assert done.settings.tiebreak_overrides == ("(none) -> SB",)


def test_default_list_is_the_files_or_the_systems() -> None:
    t = read_trf(SEED).tournament
    assert compute_standings(t).tiebreaks == ("DE", "WIN", "SB", "KS")
    swiss = replace(t, settings=replace(t.settings, system=System.SWISS_DUTCH))
    assert compute_standings(swiss).tiebreaks == ("BH/C1", "BH", "SB", "DE", "WIN")
    own = replace(t, settings=replace(t.settings, tiebreaks=("SB", "KS")))
    assert compute_standings(own).tiebreaks == ("SB", "KS")


def test_explanations_and_why() -> None:
    table = compute_standings(read_trf(SEED).tournament, "DE,WIN,SB,KS")
    assert "direct encounter" in table.why(2, 3)
    assert table.why(3, 2) == table.why(2, 3)
    assert "on points: 4 against 1.5" in table.why(6, 1)
    explained = table.explain(4)
    assert [e.code for e in explained] == ["PTS", "DE", "WIN", "SB", "KS"]
    assert (
        explained[1].value == 3 and "mini-table of the tied players 2, 3, 4" in explained[1].text()
    )
    assert explained[3].value == F(19, 4)
    assert "won: the full score" in explained[3].text()
    portal = compute_standings(read_trf(SEED).tournament, "SB,ARO_RATED")
    assert "on SB after being equal on points" in portal.why(2, 3)


def test_crosstable_of_a_double_round_robin() -> None:
    t = tour(2, [["1-2 1-0"], ["2-1 =="]], cycles=2)
    view = crosstable_view(t, compute_standings(t, "SB"))
    assert view.cycles == 2
    assert view.rows[0].cells == (("×", "×"), ("1", "½"))
    assert view.to_json()["rows"][1]["results"] == {"1": ["0", "½"], "2": ["×", "×"]}  # type: ignore[index]


def test_crosstable_of_a_swiss_event_is_by_round() -> None:
    t = tour(3, [["1-2 1-0", "3 U"]], system=System.SWISS_DUTCH)
    view = crosstable_view(t, compute_standings(t, "BH"))
    assert not view.by_opponent
    assert [row.cells for row in view.rows] == [(("2w1",),), (("1b0",),), (("U",),)]


def test_live_table_is_provisional_until_the_last_game() -> None:
    t = tour(4, [["1-4 1-0", "2-3 .."]])
    table = compute_standings(t, "SB")
    assert table.provisional and table.to_json()["provisional"] is True


def test_round_robin_absences_at_the_end_count_as_a_withdrawal() -> None:
    # 6's last three rounds written without an opponent (Z): inferred, like forfeits
    t = tour(
        6,
        [
            EARLY[0],
            EARLY[1],
            ["6 Z", "2 F", "3-1 ==", "4-5 =="],
            ["6 Z", "5 F", "1-4 ==", "2-3 =="],
            ["6 Z", "3 F", "4-2 ==", "5-1 =="],
        ],
    )
    assert compute_standings(t, "SB").row(6).withdrawn == "inferred"
    swiss = replace(t, settings=replace(t.settings, system=System.SWISS_DUTCH))
    assert compute_standings(swiss, "SB").row(6).withdrawn == ""
